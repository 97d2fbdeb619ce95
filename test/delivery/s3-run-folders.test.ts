/**
 * Run folders in a real S3-compatible bucket (versitygw): each run of a day gets its own folder,
 * marked with its run, and no run replaces another run's objects.
 */
import { createHash, randomBytes } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { PutObjectCommand } from '@aws-sdk/client-s3';
import { describe, expect, it } from 'vitest';
import { claimRunFolder, createS3Client, uploadRunFiles } from '../../activities/delivery/index.js';
import { useS3Bed, where } from '../helpers/s3-delivery.js';

const bed = useS3Bed();

describe("run folders: no run replaces another run's objects", () => {
  const runA = { ...where, runId: 'smoke-weekly-dach-20261123-060000-000-aaaaaa' };
  const runB = { ...where, runId: 'smoke-weekly-dach-20261123-060000-000-bbbbbb' };
  const sha = async (b: Buffer | Promise<Buffer>) =>
    createHash('sha256')
      .update(await b)
      .digest('hex');

  it('gives two runs of one day their own folders, each marked with its run, and a retry its own again', async () => {
    const bucket = await bed.newBucket();
    const dest = bed.destination(bucket, { prefix: 'out' });
    const client = createS3Client(dest, bed.credentials());
    // Run B's bed.files differ from run A's (other bytes under the same names).
    const other = await Promise.all(
      bed.files.slice(0, 3).map((f) => bed.file(`b-${f.name}`, f.contentType, randomBytes(5_000))),
    );
    const bFiles = other.map((f, i) => ({ ...f, name: bed.files[i]!.name }));
    try {
      const a = await uploadRunFiles(dest, bed.files.slice(0, 3), runA, { client });
      const b = await uploadRunFiles(dest, bFiles, runB, { client });
      const aAgain = await uploadRunFiles(dest, bed.files.slice(0, 3), runA, { client });
      const bAgain = await uploadRunFiles(dest, bFiles, runB, { client });
      for (const o of [a, b, aAgain, bAgain]) expect(o.ok, o.detail).toBe(true);
      expect(a.folder).toBe('out/weekly-dach/2026-11-23');
      expect(b.folder).toBe('out/weekly-dach/2026-11-23_2');
      expect(aAgain.folder).toBe(a.folder);
      expect(bAgain.folder).toBe(b.folder);
      expect(aAgain.objects.every((o) => o.reused) && bAgain.objects.every((o) => o.reused)).toBe(true);
      for (const [run, outcome, sent] of [
        [runA, a, bed.files.slice(0, 3)],
        [runB, b, bFiles],
      ] as const) {
        const marker = JSON.parse(
          (await bed.getBytes(bucket, `${outcome.folder}/.run.json`)).toString('utf8'),
        );
        expect(marker.workflowId).toBe(run.runId);
        for (const [i, f] of sent.entries()) {
          const key = `${outcome.folder}/${f.name}`;
          expect(outcome.objects[i]!.key).toBe(key);
          expect(await sha(bed.getBytes(bucket, key))).toBe(await sha(readFile(f.path)));
        }
      }
    } finally {
      client.destroy();
    }
  });

  it('never replaces an object of another run (or of no run) found at its key: the run takes the next folder', async () => {
    const bucket = await bed.newBucket();
    const dest = bed.destination(bucket);
    const client = createS3Client(dest, bed.credentials());
    const [pdf, xlsx] = bed.files;
    const foreign = Buffer.from('run B wrote this, not run A');
    const legacy = Buffer.from('written before runs were named');
    // The day's folder says it is run A's (a marker written by a store that ignored a
    // conditional write, say), yet run B's object and one of no run are at two of A's keys.
    await bed.admin.send(
      new PutObjectCommand({
        Bucket: bucket,
        Key: 'weekly-dach/2026-11-23/.run.json',
        Body: JSON.stringify({ workflowId: runA.runId }),
      }),
    );
    await bed.admin.send(
      new PutObjectCommand({
        Bucket: bucket,
        Key: `weekly-dach/2026-11-23/${xlsx!.name}`,
        Body: foreign,
        Metadata: { run: runB.runId, sha256: await sha(Promise.resolve(foreign)) },
      }),
    );
    await bed.admin.send(
      new PutObjectCommand({ Bucket: bucket, Key: `weekly-dach/2026-11-24/${pdf!.name}`, Body: legacy }),
    );
    try {
      const a = await uploadRunFiles(dest, [pdf!, xlsx!], runA, { client });
      expect(a.ok, a.detail).toBe(true);
      expect(a.folder).toBe('weekly-dach/2026-11-23_2');
      expect(await bed.getBytes(bucket, `weekly-dach/2026-11-23/${xlsx!.name}`)).toEqual(foreign);
      expect((await bed.metadataOf(bucket, `weekly-dach/2026-11-23/${xlsx!.name}`)).run).toBe(runB.runId);
      for (const f of [pdf!, xlsx!]) {
        expect((await bed.getBytes(bucket, `${a.folder}/${f.name}`)).equals(await readFile(f.path))).toBe(
          true,
        );
      }

      // A folder with objects and no marker (a run from before markers) is not taken either.
      const next = await uploadRunFiles(dest, [pdf!], { ...runA, date: '2026-11-24' }, { client });
      expect(next.folder).toBe('weekly-dach/2026-11-24_2');
      expect(await bed.getBytes(bucket, `weekly-dach/2026-11-24/${pdf!.name}`)).toEqual(legacy);
      expect(await bed.listKeys(bucket)).toEqual(
        [
          'weekly-dach/2026-11-23/.run.json',
          `weekly-dach/2026-11-23/${xlsx!.name}`,
          'weekly-dach/2026-11-23_2/.run.json',
          `weekly-dach/2026-11-23_2/${pdf!.name}`,
          `weekly-dach/2026-11-23_2/${xlsx!.name}`,
          `weekly-dach/2026-11-24/${pdf!.name}`,
          'weekly-dach/2026-11-24_2/.run.json',
          `weekly-dach/2026-11-24_2/${pdf!.name}`,
        ].sort(),
      );
    } finally {
      client.destroy();
    }
  });

  it('gives runs claiming the same day at once a folder each', async () => {
    const bucket = await bed.newBucket();
    const dest = bed.destination(bucket);
    const clients = [0, 1, 2, 3].map(() => createS3Client(dest, bed.credentials()));
    try {
      const runs = clients.map((_, i) => ({ ...where, runId: `smoke-weekly-dach-race-${i}` }));
      const folders = await Promise.all(runs.map((run, i) => claimRunFolder(clients[i]!, dest, run)));
      expect(new Set(folders).size).toBe(4);
      expect([...folders].sort()).toEqual(['2026-11-23', '2026-11-23_2', '2026-11-23_3', '2026-11-23_4']);
      for (const [i, folder] of folders.entries()) {
        const marker = JSON.parse(
          (await bed.getBytes(bucket, `weekly-dach/${folder}/.run.json`)).toString('utf8'),
        );
        expect(marker.workflowId).toBe(runs[i]!.runId);
        expect(await claimRunFolder(clients[i]!, dest, runs[i]!)).toBe(folder);
      }
    } finally {
      for (const c of clients) c.destroy();
    }
  });
});
