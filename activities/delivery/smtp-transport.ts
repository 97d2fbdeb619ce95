/**
 * The SMTP transport that sends the run's email: nodemailer's, made from the SMTP settings
 * (smtp-settings.ts).
 */
import nodemailer from 'nodemailer';
import type { SMTPSentMessageInfo, SMTPTransportOptions, Transporter } from 'nodemailer';
import type { SmtpSettings } from './smtp-settings.js';

/** A transport that sends the run's email (nodemailer's, or anything with its `sendMail`). */
export type EmailTransport = Pick<Transporter<SMTPSentMessageInfo>, 'sendMail'>;

/**
 * nodemailer's SMTP transport for these settings: no pooling (one connection a message, closed
 * after), no logging (the SMTP dialogue carries the credentials), the timeouts applied.
 */
export function createSmtpTransport(settings: SmtpSettings): Transporter<SMTPSentMessageInfo> {
  const options: SMTPTransportOptions = {
    host: settings.host,
    port: settings.port,
    secure: settings.secure,
    requireTLS: !settings.secure && settings.starttls === 'require',
    ignoreTLS: !settings.secure && settings.starttls === 'off',
    connectionTimeout: settings.timeoutMs,
    greetingTimeout: settings.timeoutMs,
    socketTimeout: Math.max(settings.timeoutMs, 60_000),
    logger: false,
    debug: false,
    ...(settings.user === undefined ? {} : { auth: { user: settings.user, pass: settings.password } }),
  };
  return nodemailer.createTransport(options);
}
