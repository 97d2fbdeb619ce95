/**
 * The bed of the delivery tests: a sandbox, a real SMTP server (with a login), a real webhook
 * receiver, a real S3-compatible server (versitygw) with a bucket, and the environment a worker
 * reads their settings and secrets from. Readers of what each destination received.
 */
import { CreateBucketCommand, GetObjectCommand, ListObjectsV2Command, S3Client } from '@aws-sdk/client-s3';
import { randomBytes } from 'node:crypto';
import type { RunningSandbox } from '../../sandbox/index.js';
import { startTestSandbox } from './sandbox.js';
import { startS3Server, type S3Server } from './s3-server.js';
import { startSmtpServer, type RunningSmtpServer } from './smtp-server.js';
import { startWebhookServer, type WebhookServer } from './webhook-server.js';

export interface DeliveryBed {
  sandbox: RunningSandbox;
  smtp: RunningSmtpServer;
  hook: WebhookServer;
  s3: S3Server;
  admin: S3Client;
  bucket: string;
  /** The settings and secrets of the three senders, as a worker's environment holds them. */
  env: Record<string, string>;
  /** Every secret in `env`: none may appear in a history, a log, a manifest or a message. */
  secrets: string[];
  /** A job's `delivery` list: an email, a JSON and a Slack webhook, and the S3 bucket under `prefix`. */
  destinations(prefix: string, email?: Record<string, unknown>): unknown[];
  /** The keys of the objects under a prefix. */
  keys(prefix: string): Promise<string[]>;
  object(key: string): Promise<Buffer>;
  /** Puts `env` into this process's environment (where in-process workers read it); returns what puts it back. */
  useEnv(): () => void;
  close(): Promise<void>;
}

/** Starts the bed. */
export async function startDeliveryBed(): Promise<DeliveryBed> {
  const secret = (label: string) => `${label}-${randomBytes(12).toString('hex')}`;
  const login = { user: secret('mailer'), password: secret('smtp-pw') };
  const sandbox = await startTestSandbox({ rateLimitPerMinute: 10_000 });
  const smtp = await startSmtpServer({ auth: login });
  const hook = await startWebhookServer();
  const s3 = await startS3Server();
  const admin = new S3Client({
    endpoint: s3.endpoint,
    region: s3.region,
    forcePathStyle: true,
    credentials: { accessKeyId: s3.accessKeyId, secretAccessKey: s3.secretAccessKey },
  });
  const bucket = 'vir-reports';
  await admin.send(new CreateBucketCommand({ Bucket: bucket }));
  const webhookSecret = secret('whsec');
  const env = {
    VIR_SMTP_HOST: smtp.host,
    VIR_SMTP_PORT: String(smtp.port),
    VIR_SMTP_USER: login.user,
    VIR_SMTP_PASSWORD: login.password,
    VIR_SMTP_STARTTLS: 'off',
    VIR_SMTP_FROM: 'Venture reports <reports@vir.test>',
    VIR_WEBHOOK_SECRET: webhookSecret,
    VIR_S3_ACCESS_KEY_ID: s3.accessKeyId,
    VIR_S3_SECRET_ACCESS_KEY: s3.secretAccessKey,
  };
  return {
    sandbox,
    smtp,
    hook,
    s3,
    admin,
    bucket,
    env,
    secrets: [login.password, webhookSecret, s3.secretAccessKey],
    destinations: (prefix, email = {}) => [
      { email: { to: ['partner@fund.test'], cc: ['analyst@fund.test'], ...email } },
      { webhook: { url: `${hook.url}/${prefix}`, format: 'json' } },
      { id: 'chat', webhook: { url: `${hook.url}/${prefix}/chat`, format: 'slack' } },
      { s3: { bucket, prefix, endpoint: s3.endpoint, region: s3.region } },
    ],
    async keys(prefix) {
      const out = await admin.send(new ListObjectsV2Command({ Bucket: bucket, Prefix: `${prefix}/` }));
      return (out.Contents ?? []).map((o) => o.Key!).sort();
    },
    async object(key) {
      const out = await admin.send(new GetObjectCommand({ Bucket: bucket, Key: key }));
      return Buffer.from(await out.Body!.transformToByteArray());
    },
    useEnv() {
      const saved = Object.fromEntries(Object.keys(env).map((k) => [k, process.env[k]]));
      Object.assign(process.env, env);
      return () => {
        for (const [k, v] of Object.entries(saved)) {
          if (v === undefined) delete process.env[k];
          else process.env[k] = v;
        }
      };
    },
    async close() {
      admin.destroy();
      await Promise.allSettled([sandbox.close(), smtp.close(), hook.close(), s3.close()]);
    },
  };
}
