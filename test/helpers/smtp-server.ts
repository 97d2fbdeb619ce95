/**
 * A real SMTP server for tests (smtp-server on 127.0.0.1, port 0): no TLS (STARTTLS is not
 * offered, so nodemailer talks plain SMTP with `VIR_SMTP_STARTTLS=off`), optional AUTH with a
 * given user and password, every accepted message kept raw and parsed (mailparser), and fault
 * switches: refuse the next N messages at the end of DATA (451 temporary or 550 permanent), or
 * refuse a recipient at RCPT TO.
 *
 * @example
 * const smtp = await startSmtpServer({ auth: { user: 'u', password: 'p' } });
 * afterAll(() => smtp.close());
 * smtp.refuseNext(1, 451);
 */
import { simpleParser } from 'mailparser';
import type { ParsedMail } from 'mailparser';
import { SMTPServer } from 'smtp-server';
import { listenSmtpServer } from '../../runtime/mail-catcher.js';

/** A message the server accepted. */
export interface ReceivedMail {
  /** The message as sent, byte for byte. */
  raw: Buffer;
  parsed: ParsedMail;
  /** MAIL FROM and RCPT TO addresses. */
  envelope: { from: string | null; to: string[] };
  /** The user that logged in, or null. */
  user: string | null;
}

export interface SmtpServerOptions {
  /** Require AUTH with these credentials (PLAIN or LOGIN); default: no AUTH offered. */
  auth?: { user: string; password: string };
  /** Refuse the SIZE above this many bytes (default none). */
  sizeLimit?: number;
}

export interface RunningSmtpServer {
  host: string;
  port: number;
  /** Every message accepted, in order. */
  messages: ReceivedMail[];
  /** Messages refused at the end of DATA by {@link refuseNext}. */
  refused: number;
  /** Logins attempted, successful or not. */
  logins: number;
  /** Refuse the next `count` messages at the end of DATA with `code` (451: try later; 550: never). */
  refuseNext(count: number, code?: 451 | 452 | 550 | 554): void;
  /** Refuse this recipient at RCPT TO with `code` (550 no such user by default). */
  refuseRecipient(address: string, code?: number): void;
  /**
   * Holds the next message at the end of DATA without answering: the returned promise resolves
   * once a message is held. A sender that dies meanwhile never gets a reply, and the held message
   * is dropped with its connection (a server accepts a message only by answering 250).
   */
  holdNext(): Promise<void>;
  /** Messages dropped because their connection closed while held. */
  readonly dropped: number;
  /** Waits until `count` messages were accepted (or rejects after `timeoutMs`). */
  waitFor(count: number, timeoutMs?: number): Promise<void>;
  close(): Promise<void>;
}

function smtpError(code: number, text: string): Error {
  return Object.assign(new Error(text), { responseCode: code });
}

/** Starts the server; close it in `afterAll`. */
export async function startSmtpServer(opts: SmtpServerOptions = {}): Promise<RunningSmtpServer> {
  const messages: ReceivedMail[] = [];
  let refuseCount = 0;
  let refuseCode = 451;
  const refusedRecipients = new Map<string, number>();
  const state = { refused: 0, logins: 0, dropped: 0 };
  let hold: (() => void) | null = null;

  const server = new SMTPServer({
    secure: false,
    // No TLS: the client must not try to upgrade, and AUTH is allowed in clear (loopback only).
    disabledCommands: opts.auth ? ['STARTTLS'] : ['STARTTLS', 'AUTH'],
    allowInsecureAuth: true,
    authOptional: !opts.auth,
    authMethods: ['PLAIN', 'LOGIN'],
    logger: false,
    ...(opts.sizeLimit === undefined ? {} : { size: opts.sizeLimit }),
    onAuth(auth, _session, callback) {
      state.logins++;
      if (opts.auth && auth.username === opts.auth.user && auth.password === opts.auth.password)
        return callback(null, { user: auth.username });
      // Like some real servers, the refusal names the user: the client must redact it.
      return callback(smtpError(535, `Authentication failed for ${auth.username ?? '?'}`));
    },
    onRcptTo(address, _session, callback) {
      const code = refusedRecipients.get(address.address.toLowerCase());
      if (code !== undefined)
        return callback(
          smtpError(
            code,
            code >= 500
              ? `5.1.1 <${address.address}>: no such user here`
              : `4.2.1 <${address.address}>: try again later`,
          ),
        );
      return callback();
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('error', (err) => callback(err));
      stream.on('end', () => {
        if (refuseCount > 0) {
          refuseCount--;
          state.refused++;
          return callback(
            smtpError(
              refuseCode,
              refuseCode >= 500
                ? '5.7.1 Message rejected by policy'
                : '4.3.0 Temporary local problem, try again later',
            ),
          );
        }
        if (hold) {
          const held = hold;
          hold = null;
          held();
          // Never answered: the message is dropped when the client goes away.
          state.dropped++;
          return;
        }
        const raw = Buffer.concat(chunks);
        simpleParser(raw).then(
          (parsed) => {
            messages.push({
              raw,
              parsed,
              envelope: {
                from: session.envelope.mailFrom === false ? null : session.envelope.mailFrom.address,
                to: session.envelope.rcptTo.map((r) => r.address),
              },
              user: typeof session.user === 'string' ? session.user : null,
            });
            callback();
          },
          (err: unknown) => callback(err instanceof Error ? err : new Error(String(err))),
        );
      });
    },
  });

  const port = await listenSmtpServer(server, 0);

  return {
    host: '127.0.0.1',
    port,
    messages,
    get refused() {
      return state.refused;
    },
    get logins() {
      return state.logins;
    },
    get dropped() {
      return state.dropped;
    },
    holdNext() {
      return new Promise<void>((resolve) => {
        hold = resolve;
      });
    },
    refuseNext(count, code = 451) {
      refuseCount = count;
      refuseCode = code;
    },
    refuseRecipient(address, code = 550) {
      refusedRecipients.set(address.toLowerCase(), code);
    },
    async waitFor(count, timeoutMs = 5000) {
      const until = Date.now() + timeoutMs;
      while (messages.length < count) {
        if (Date.now() > until)
          throw new Error(`SMTP test server: ${messages.length} of ${count} messages after ${timeoutMs} ms`);
        await new Promise((r) => setTimeout(r, 10)); // polls the inbox for the messages
      }
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
