/**
 * What every delivery (email, webhook, object storage) works from: the run's files on disk and
 * a summary of the run (the key figures its PDF opens with), and what a delivery reports back.
 * Secrets (SMTP password, webhook signing secret, S3 keys) are never part of these: each sender
 * reads its own from the environment (or a secrets file) when it runs.
 */

/** A file the run wrote, as a delivery sends it. */
export interface DeliveryFile {
  /** Absolute path on the worker's disk (or in the store). */
  path: string;
  /** The name the recipient sees (`weekly-dach-2026-11-23.pdf`). */
  name: string;
  /** MIME type (`application/pdf`, `application/vnd.openxmlformats-officedocument.spreadsheetml.sheet`, `text/csv`, `application/json`). */
  contentType: string;
  /** Size in bytes. */
  bytes: number;
}

/** One key figure, as the PDF's first page shows it. */
export interface DeliveryFigure {
  label: string;
  value: string;
  note?: string;
}

/** The run as a delivery describes it (email body, webhook message). */
export interface DeliverySummary {
  jobId: string;
  jobTitle: string;
  kind: string;
  /** The run's workflow id: names the run in messages and keys the delivery records. */
  runId: string;
  /** The run's date (YYYY-MM-DD, UTC). */
  date: string;
  status: 'complete' | 'partial';
  /** Why a partial run is partial (empty when complete). */
  reasons: string[];
  figures: DeliveryFigure[];
  /** A sentence or two that open the report (optional). */
  headline?: string;
  /** Links to the files where they can be fetched (pre-signed S3 links), when known. */
  links?: { name: string; url: string }[];
}

/** What one delivery to one destination did. */
export interface DeliveryOutcome {
  /** The destination's id in the job (`email-1`, `webhook-1`, `s3-1`, or the id the job gives). */
  destination: string;
  kind: 'email' | 'webhook' | 's3';
  ok: boolean;
  /** What happened, in words (`sent to 2 recipients, 2 files attached`, `HTTP 500 three times`). */
  detail: string;
  /** Attempts made by this delivery (retries included). */
  attempts: number;
  /** ISO time the destination accepted it (absent when it failed). */
  deliveredAt?: string;
  /** Email: the Message-ID sent. */
  messageId?: string;
  /** True when a record showed it delivered before and nothing was sent this time. */
  already?: boolean;
  /** S3: the run's folder in the bucket (`<prefix>/<job>/<date>[_n]`), the key prefix of its objects. */
  folder?: string;
  /** S3: the objects written. */
  objects?: { key: string; bytes: number; etag?: string }[];
}

/** A run's deliveries as the manifest and the run's result tell them. */
export interface RunDelivery {
  /** `delivered`: to every destination; `delivered partially`: some failed; `not delivered`: all failed; `skipped`: the job said not to. */
  status: 'delivered' | 'delivered partially' | 'not delivered' | 'skipped';
  /** Why nothing was sent (`skipped`). */
  reason?: string;
  outcomes: DeliveryOutcome[];
}
