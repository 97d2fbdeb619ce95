/**
 * The runner on the local cluster (PostgreSQL and the Temporal server, scripts/cluster.sh):
 *  1. paging throughput with 1, 2 and 3 worker processes against a scaled-up limit
 *     (bench/cluster-paging.ts); the target is >= 95% of the limit with 0 x 429 whatever the
 *     worker count;
 *  2. orchestration overhead per API call (p50, p95) on the cluster beside the embedded dev
 *     server, from the workflow histories (bench/cluster-overhead.ts).
 *
 * This module brings the cluster and the workers' store up, runs both and takes everything
 * down. The cluster comes up on free ports in a temporary folder; the worker processes share
 * only the claim-check store, an S3 bucket on a local versitygw (VIR_STORE_URL=s3://...), as
 * scaled-out workers do.
 *
 * Run alone: npm run bench:cluster (about 12 minutes on a loaded 2-core machine; a paging run
 * past 180 s is terminated, the overhead measurement stops at 240 s a server); also section 7
 * of npm run bench, which passes its embedded Temporal server for the comparison. Alone, the
 * embedded dev server is started here (runtime/local-stack.ts, the Temporal CLI's start-dev).
 */
import { chmodSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client, Connection } from '@temporalio/client';
import { clusterDown, clusterUp, findFreeClusterPorts } from '../runtime/cluster.js';
import { startDevS3, type DevS3 } from '../runtime/dev-s3.js';
import { reportOverhead } from './cluster-overhead.js';
import { reportPaging, seconds, STORE_BUCKET } from './cluster-paging.js';
import { quietEmbeddedTemporal } from './harness.js';

/**
 * Brings the cluster and the S3 store up, prints both measurements, takes everything down.
 * `embeddedAddress`: the embedded dev server to compare with (bench/run.ts passes its own);
 * `onInterrupt`: what else to close when SIGINT or SIGTERM stops the section (it then exits).
 */
export async function reportCluster(
  embeddedAddress: string,
  { onInterrupt }: { onInterrupt?: () => Promise<void> } = {},
): Promise<void> {
  const sectionStart = Date.now();
  const dir = mkdtempSync(join(tmpdir(), 'vir-bench-cluster-'));
  let clusterOptions: { dir: string; pgPort: number; temporalPort: number } | null = null;
  let s3: DevS3 | null = null;
  let connection: Connection | null = null;
  let onSignal: ((signal: NodeJS.Signals) => void) | null = null;
  try {
    // mkdtemp makes the folder 0700; PostgreSQL runs as its own OS user when this is root.
    chmodSync(dir, 0o755);
    clusterOptions = { dir: join(dir, 'cluster'), ...(await findFreeClusterPorts()) };
    const downOnSignal = clusterOptions;
    onSignal = (signal: NodeJS.Signals) => {
      // Worker processes and versitygw are killed by their own exit hooks; the cluster is not.
      console.error(`${signal}: taking the cluster down`);
      void clusterDown(downOnSignal, { purge: true })
        .catch(() => undefined)
        .then(() => onInterrupt?.())
        .catch(() => undefined)
        .finally(() => {
          rmSync(dir, { recursive: true, force: true });
          process.exit(130);
        });
    };
    process.once('SIGINT', onSignal);
    process.once('SIGTERM', onSignal);
    const cluster = await clusterUp(clusterOptions);
    s3 = await startDevS3({ dataDir: join(dir, 's3'), port: 0, bucket: STORE_BUCKET, dieWithParent: true });
    console.log(
      `cluster up in ${seconds(cluster.ms)} at ${cluster.address} (PostgreSQL on ${cluster.pgPort}); the workers' store s3://${STORE_BUCKET}/ on versitygw ${s3.endpoint}`,
    );
    connection = await Connection.connect({ address: cluster.address });
    const client = new Client({ connection, namespace: cluster.namespace });
    const store = {
      endpoint: s3.endpoint,
      accessKeyId: s3.accessKeyId,
      secretAccessKey: s3.secretAccessKey,
      region: s3.region,
    };
    await reportPaging(client, cluster, store);
    await reportOverhead(embeddedAddress, cluster.address);
  } finally {
    if (onSignal) {
      process.off('SIGINT', onSignal);
      process.off('SIGTERM', onSignal);
    }
    await connection?.close().catch(() => undefined);
    await s3?.close().catch(() => undefined);
    if (clusterOptions) {
      const down = await clusterDown(clusterOptions, { purge: true }).catch((err: unknown) => err);
      if (down instanceof Error) console.error(`cluster down failed: ${down.message}`);
    }
    rmSync(dir, { recursive: true, force: true });
    console.log(`(cluster section took ${seconds(Date.now() - sectionStart)})`);
  }
}

/** Alone: the embedded dev server for the comparison, then the section. */
async function main(): Promise<void> {
  const { stack, sdkWarnings } = await quietEmbeddedTemporal();
  try {
    await reportCluster(stack.temporalAddress, { onInterrupt: () => stack.close() });
    console.log(`\n(the Temporal SDK logged ${sdkWarnings()} warnings, not shown)`);
  } finally {
    await stack.close();
  }
}

if (process.argv[1]?.endsWith('bench/cluster.ts')) {
  main().catch((err: unknown) => {
    console.error(err);
    process.exitCode = 1;
  });
}
