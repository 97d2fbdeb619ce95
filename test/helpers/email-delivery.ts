/**
 * What the email delivery tests share: the SMTP login and From address, content types, a run's
 * summary, files written to a scratch folder, and a real SMTP server (smtp-server on port 0, with
 * AUTH) with the settings that reach it and a send() that builds and sends the run's email.
 *
 * @example
 * const bed = useSmtpBed();
 * it('...', async () => {
 *   const { outcome } = await bed.send({ to: 'ann@example.com' }, [bed.writeFile('a.pdf', bytes, PDF)]);
 *   bed.smtp.messages[0]!.parsed.subject;
 * });
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach } from 'vitest';
import {
  buildRunEmail,
  createSmtpTransport,
  parseEmailDestination,
  sendRunEmail,
  smtpSecrets,
  smtpSettingsFromEnv,
} from '../../activities/delivery/index.js';
import type {
  DeliveryFile,
  DeliverySummary,
  EmailOutcome,
  RunEmail,
  SmtpSettings,
} from '../../activities/delivery/index.js';
import { startSmtpServer } from './smtp-server.js';
import type { RunningSmtpServer } from './smtp-server.js';

export const USER = 'vir-mailer-7Qk2';
export const PASSWORD = 'pw-S3cret-9xZt!';
export const FROM = 'VIR Reports <reports@reports.example.org>';

export const PDF = 'application/pdf';
export const XLSX = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

/** A CSV file's bytes: a header and `rows` rows. */
export function csvBytes(rows: number): Buffer {
  const lines = ['name,country,score'];
  for (let i = 0; i < rows; i++) lines.push(`Company ${i} ${randomBytes(4).toString('hex')},DE,${i % 100}`);
  return Buffer.from(lines.join('\r\n') + '\r\n');
}

/** A complete run's summary with three key figures; `over` changes any field. */
export function summary(over: Partial<DeliverySummary> = {}): DeliverySummary {
  return {
    jobId: 'weekly-dach',
    jobTitle: 'Weekly DACH market report',
    kind: 'market-report',
    runId: 'weekly-dach/2026-11-23T06:00:00Z',
    date: '2026-11-23',
    status: 'complete',
    reasons: [],
    figures: [
      { label: 'Startups tracked', value: '1,284', note: '+37 since last week' },
      { label: 'Funding rounds', value: '€412.5m' },
      { label: 'Active investors', value: '219' },
    ],
    headline: 'Funding rose for the third week in a row.',
    ...over,
  };
}

export interface ScratchDir {
  /** The folder (made before the file's tests, removed after them). */
  readonly path: string;
  /** Writes a file into the folder and describes it as a delivery does. */
  writeFile(name: string, bytes: Buffer, contentType: string): DeliveryFile;
}

/** A scratch folder for the tests of one file. */
export function useScratchDir(): ScratchDir {
  let dir: string;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'vir-email-'));
  });
  afterAll(() => {
    if (dir) rmSync(dir, { recursive: true, force: true });
  });
  return {
    get path() {
      return dir;
    },
    writeFile(name, bytes, contentType) {
      const path = join(dir, name);
      writeFileSync(path, bytes);
      return { path, name, contentType, bytes: bytes.length };
    },
  };
}

export interface SmtpBed extends ScratchDir {
  /** The server: what it received, refusals to script. Emptied and reset before each test. */
  readonly smtp: RunningSmtpServer;
  /** Settings that reach the server and log in (STARTTLS off). */
  readonly settings: SmtpSettings;
  /** Builds the run's email and sends it; returns the email and the outcome. */
  send(
    destInput: unknown,
    files: DeliveryFile[],
    s?: DeliverySummary,
    links?: { name: string; url: string }[],
  ): Promise<{ email: RunEmail; outcome: EmailOutcome }>;
}

/** A scratch folder and an SMTP server with a login for the tests of one file. */
export function useSmtpBed(): SmtpBed {
  const scratch = useScratchDir();
  let smtp: RunningSmtpServer;
  let settings: SmtpSettings;
  beforeAll(async () => {
    smtp = await startSmtpServer({ auth: { user: USER, password: PASSWORD } });
    settings = smtpSettingsFromEnv({
      VIR_SMTP_HOST: smtp.host,
      VIR_SMTP_PORT: String(smtp.port),
      VIR_SMTP_USER: USER,
      VIR_SMTP_PASSWORD: PASSWORD,
      VIR_SMTP_FROM: FROM,
      VIR_SMTP_STARTTLS: 'off',
      VIR_SMTP_TIMEOUT_MS: '5000',
    });
  });
  afterAll(async () => {
    await smtp?.close();
  });
  beforeEach(() => {
    smtp.messages.length = 0;
    smtp.refuseNext(0);
  });
  return {
    get path() {
      return scratch.path;
    },
    writeFile: (name, bytes, contentType) => scratch.writeFile(name, bytes, contentType),
    get smtp() {
      return smtp;
    },
    get settings() {
      return settings;
    },
    async send(destInput, files, s = summary(), links) {
      const dest = parseEmailDestination(destInput);
      const email = await buildRunEmail(dest, s, files, { from: settings.from, ...(links ? { links } : {}) });
      const outcome = await sendRunEmail(createSmtpTransport(settings), email, {
        secrets: smtpSecrets(settings),
      });
      return { email, outcome };
    },
  };
}
