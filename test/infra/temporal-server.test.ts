import { Connection } from '@temporalio/client';
import { expect, inject, test } from 'vitest';

test('the global setup started a real Temporal dev server', async () => {
  const conn = await Connection.connect({ address: inject('temporalAddress') });
  try {
    const info = await conn.workflowService.getSystemInfo({});
    expect(info.serverVersion).toMatch(/^1\.\d+/);
    const ns = await conn.workflowService.describeNamespace({ namespace: 'default' });
    expect(ns.namespaceInfo?.name).toBe('default');
  } finally {
    await conn.close();
  }
});
