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
export {
  buildWebhookBody,
  DEFAULT_WEBHOOK_SECRET_ENV,
  deliverWebhook,
  escapeSlack,
  parseRetryAfter,
  parseWebhookDestination,
  postWebhook,
  signWebhookBody,
  verifyWebhookSignature,
  WEBHOOK_DEFAULTS,
  WEBHOOK_HEADERS,
  WEBHOOK_USER_AGENT,
  WebhookAbortedError,
  WebhookConfigError,
  WebhookDestinationSchema,
  WebhookError,
  webhookIdempotencyKey,
  WebhookRejectedError,
  webhookSecretFromEnv,
  WebhookSecretError,
  webhookTarget,
  WebhookUnavailableError,
} from './webhook.js';
export type {
  DeliverWebhookOptions,
  JsonWebhookBody,
  PostWebhookOptions,
  SlackBlock,
  SlackWebhookBody,
  VerifyOptions,
  WebhookAttempt,
  WebhookDestination,
  WebhookDestinationInput,
  WebhookErrorContext,
  WebhookLog,
  WebhookResult,
  WebhookRetryOptions,
  WebhookUnavailableReason,
} from './webhook.js';
export {
  bucketNameProblem,
  createS3Client,
  objectKey,
  parseS3Destination,
  presignedUrls,
  s3CredentialsFromEnv,
  uploadRunFiles,
  S3_CLIENT_DEFAULTS,
  S3DestinationError,
  S3DestinationFieldsSchema,
  S3DestinationSchema,
  UPLOAD_DEFAULTS,
} from './s3.js';
export type {
  PresignedLink,
  RunPlace,
  S3ClientOptions,
  S3Credentials,
  S3DeliveryOutcome,
  S3Destination,
  S3Log,
  S3Object,
  UploadOptions,
} from './s3.js';
export { DESTINATION_KINDS, DeliverySchema } from './schema.js';
export type { Destination, DestinationKind } from './schema.js';
