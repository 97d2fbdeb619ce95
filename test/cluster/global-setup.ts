/**
 * One local Temporal cluster (scripts/cluster.sh: PostgreSQL and the Temporal server) for the
 * cluster tests, on free ports and in a temporary data folder, deleted afterwards. Test files
 * read where it is with `inject('cluster')`.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';
import { clusterDown, clusterUp, findFreeClusterPorts } from '../../runtime/cluster.js';

/** What the tests get of the cluster (plain data: it crosses into the test workers). */
export interface ProvidedCluster {
  address: string;
  namespace: string;
  dir: string;
  pgPort: number;
  temporalPort: number;
}

declare module 'vitest' {
  export interface ProvidedContext {
    cluster: ProvidedCluster;
  }
}

export default async function setup(project: TestProject) {
  const dir = mkdtempSync(join(tmpdir(), 'vir-cluster-'));
  const ports = await findFreeClusterPorts();
  const options = { dir, ...ports };
  let cluster;
  try {
    cluster = await clusterUp(options);
  } catch (err) {
    await clusterDown(options, { purge: true }).catch(() => undefined);
    rmSync(dir, { recursive: true, force: true });
    throw err;
  }
  console.log(`[cluster-setup] cluster up in ${cluster.ms} ms:\n${cluster.output.trim()}`);
  project.provide('cluster', {
    address: cluster.address,
    namespace: cluster.namespace,
    dir,
    pgPort: cluster.pgPort,
    temporalPort: cluster.temporalPort,
  });
  return async () => {
    const down = await clusterDown(options, { purge: true });
    console.log(`[cluster-setup] cluster down in ${down.ms} ms`);
    rmSync(dir, { recursive: true, force: true });
  };
}
