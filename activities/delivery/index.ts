/** Delivery of a run's reports: email, chat webhook, object storage. */
export type { DeliveryFigure, DeliveryFile, DeliveryOutcome, DeliverySummary } from './types.js';
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
