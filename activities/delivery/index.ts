/** Delivery of a run's reports: email, chat webhook, object storage. */
export type { DeliveryFigure, DeliveryFile, DeliveryOutcome, DeliverySummary } from './types.js';
export {
  EMAIL_DEFAULTS,
  EmailDestinationSchema,
  MB,
  SUBJECT_PLACEHOLDERS,
  base64Size,
  buildRunEmail,
  classifySmtpError,
  csvZipName,
  escapeHtml,
  fillSubject,
  formatSize,
  parseEmailDestination,
  recipientKey,
  runMessageId,
  sendRunEmail,
} from './email.js';
export type {
  EmailDestination,
  EmailOutcome,
  RunEmail,
  RunEmailOptions,
  RunEmailPlan,
  SendRunEmailOptions,
} from './email.js';
export {
  EmailDestinationError,
  EmailError,
  EmailRejectedError,
  EmailTransientError,
  isEmailError,
} from './email-errors.js';
export type { EmailErrorContext } from './email-errors.js';
export {
  SMTP_DEFAULTS,
  SMTP_SETTING_NAMES,
  STARTTLS_MODES,
  createSmtpTransport,
  parseMailbox,
  smtpSecrets,
  smtpSettingsFromEnv,
} from './smtp-settings.js';
export type { EmailTransport, SmtpSettings, StartTlsMode } from './smtp-settings.js';
