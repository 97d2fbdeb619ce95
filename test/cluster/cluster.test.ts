/**
 * The local Temporal cluster (scripts/cluster.sh) is a real one: a Temporal server on PostgreSQL
 * that serves the namespace, keeps its state in PostgreSQL's tables, and comes back after its
 * process restarts with the same workflows and a client that reconnects by itself.
 */
import { Client, Connection } from '@temporalio/client';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { clusterSql, clusterStatus, restartClusterServer } from '../../runtime/cluster.js';

const cluster = inject('cluster');
const options = { dir: cluster.dir, pgPort: cluster.pgPort, temporalPort: cluster.temporalPort };

/** Namespace names, as the frontend lists them. */
async function namespaceNames(connection: Connection): Promise<string[]> {
  const listed = await connection.workflowService.listNamespaces({});
  return listed.namespaces.map((n) => n.namespaceInfo?.name ?? '');
}

describe('the local Temporal cluster', () => {
  let connection: Connection;
  let client: Client;
  const workflowId = `cluster-probe-${Date.now()}`;

  beforeAll(async () => {
    connection = await Connection.connect({ address: cluster.address });
    client = new Client({ connection, namespace: cluster.namespace });
  });

  afterAll(async () => {
    await client?.workflow
      .getHandle(workflowId)
      .terminate('test done')
      .catch(() => undefined);
    await connection?.close();
  });

  it('serves the namespace it was brought up with', async () => {
    const described = await connection.workflowService.describeNamespace({ namespace: cluster.namespace });
    expect(described.namespaceInfo?.name).toBe(cluster.namespace);
    const names = await namespaceNames(connection);
    expect(names).toEqual(expect.arrayContaining([cluster.namespace, 'temporal-system']));
    const system = await connection.workflowService.getSystemInfo({});
    expect(system.serverVersion).toMatch(/^1\.29\./);
    const status = await clusterStatus(options);
    expect(status.up, status.output).toBe(true);
  });

  it("keeps Temporal's state in PostgreSQL's tables", async () => {
    // A workflow no worker polls for: started is enough to be a row of the executions table.
    const handle = await client.workflow.start('clusterProbe', {
      taskQueue: 'cluster-probe',
      workflowId,
      workflowExecutionTimeout: '10 minutes',
    });
    const executions = await clusterSql(
      options,
      'temporal',
      `select count(*) from executions where workflow_id = '${workflowId}'`,
    );
    expect(executions).toEqual(['1']);
    const namespaces = await clusterSql(options, 'temporal', 'select name from namespaces order by name');
    expect(namespaces).toEqual(expect.arrayContaining([cluster.namespace, 'temporal-system']));
    const shards = await clusterSql(options, 'temporal', 'select count(*) from shards');
    expect(shards).toEqual(['4']); // numHistoryShards of config/temporal/cluster.yaml
    const visibilityTables = await clusterSql(
      options,
      'temporal_visibility',
      "select count(*) from pg_tables where tablename = 'executions_visibility'",
    );
    expect(visibilityTables).toEqual(['1']);
    expect((await handle.describe()).status.name).toBe('RUNNING');
  });

  it('comes back after its server restarts: the same connection lists namespaces, the workflow still runs', async () => {
    const before = await namespaceNames(connection);
    const started = Date.now();
    const restarted = await restartClusterServer(options);
    expect(restarted.output).toMatch(/Temporal server \(pid \d+\) stopped/);
    expect(restarted.address).toBe(cluster.address);
    // The connection made before the restart: its channel reconnects, no new Connection.
    let after: string[] | null = null;
    let attempts = 0;
    while (after === null) {
      attempts++;
      try {
        after = await namespaceNames(connection);
      } catch (err) {
        if (Date.now() - started > 60_000) throw err;
        await new Promise((r) => setTimeout(r, 250));
      }
    }
    expect(after.sort()).toEqual(before.sort());
    const described = await client.workflow.getHandle(workflowId).describe();
    expect(described.status.name).toBe('RUNNING');
    console.log(
      `[cluster.test] server restarted in ${restarted.ms} ms; namespaces listed again after ${attempts} attempt(s), ${Date.now() - started} ms after the restart began`,
    );
  });
});
