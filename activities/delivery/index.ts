/** Delivery of a run's reports: email, chat webhook, object storage. */
export type {
  DeliveryFigure,
  DeliveryFile,
  DeliveryOutcome,
  DeliverySummary,
} from '../../shared/delivery.js';
export {
  bucketNameProblem,
  DEFAULT_WEBHOOK_SECRET_ENV,
  DESTINATION_KINDS,
  DeliverySchema,
  EMAIL_DEFAULTS,
  EmailDestinationSchema,
  MB,
  parseMailbox,
  S3DestinationFieldsSchema,
  S3DestinationSchema,
  SUBJECT_PLACEHOLDERS,
  WEBHOOK_DEFAULTS,
  WebhookDestinationSchema,
} from '../../config/destinations.js';
export type {
  Destination,
  DestinationKind,
  EmailDestination,
  S3Destination,
  WebhookDestination,
  WebhookDestinationInput,
} from '../../config/destinations.js';
export { parseEmailDestination } from './email-destination.js';
export { escapeHtml, formatSize } from './email-body.js';
export {
  base64Size,
  buildRunEmail,
  csvZipName,
  fillSubject,
  recipientKey,
  runMessageId,
} from './email-message.js';
export type { RunEmail, RunEmailOptions, RunEmailPlan } from './email-message.js';
export { classifySmtpError, sendRunEmail } from './email-send.js';
export type { EmailOutcome, SendRunEmailOptions } from './email-send.js';
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
  smtpSecrets,
  smtpSettingsFromEnv,
} from './smtp-settings.js';
export type { SmtpSettings, StartTlsMode } from './smtp-settings.js';
export { createSmtpTransport } from './smtp-transport.js';
export type { EmailTransport } from './smtp-transport.js';
export { deliverWebhook } from './webhook.js';
export type { DeliverWebhookOptions } from './webhook.js';
export { buildWebhookBody, escapeSlack } from './webhook-body.js';
export type { JsonWebhookBody, SlackBlock, SlackWebhookBody } from './webhook-body.js';
export { parseWebhookDestination, webhookSecretFromEnv, webhookTarget } from './webhook-destination.js';
export {
  WebhookAbortedError,
  WebhookConfigError,
  WebhookError,
  WebhookRejectedError,
  WebhookSecretError,
  WebhookUnavailableError,
} from './webhook-errors.js';
export type { WebhookErrorContext, WebhookUnavailableReason } from './webhook-errors.js';
export { postWebhook, WEBHOOK_USER_AGENT } from './webhook-post.js';
export type { PostWebhookOptions, WebhookLog, WebhookResult } from './webhook-post.js';
export {
  signWebhookBody,
  verifyWebhookSignature,
  WEBHOOK_HEADERS,
  webhookIdempotencyKey,
} from './webhook-signing.js';
export type { VerifyOptions } from './webhook-signing.js';
export { parseS3Destination, S3DestinationError } from './s3-destination.js';
export {
  createS3Client,
  s3ClientFromEnv,
  s3CredentialsFromEnv,
  s3EndpointFromEnv,
  S3_CLIENT_DEFAULTS,
  withEnvEndpoint,
} from './s3-client.js';
export type { S3ClientOptions, S3Credentials } from './s3-client.js';
export { claimRunFolder, ForeignObjectError, objectKey, RUN_MARKER_NAME } from './s3-folders.js';
export type { RunMarker, RunPlace } from './s3-folders.js';
export { uploadRunFiles, UPLOAD_DEFAULTS } from './s3-upload.js';
export type { S3DeliveryOutcome, S3Log, S3Object, UploadOptions } from './s3-upload.js';
export { presignedUrls } from './s3-presign.js';
export type { PresignedLink } from './s3-presign.js';
