/**
 * Pre-signed links to objects in a real S3-compatible bucket (versitygw), fetched without keys
 * until they expire, and addressed like AWS's when no endpoint is set.
 */
import { readFile } from 'node:fs/promises';
import { describe, expect, it, vi } from 'vitest';
import {
  createS3Client,
  parseS3Destination,
  presignedUrls,
  uploadRunFiles,
} from '../../activities/delivery/index.js';
import { useS3Bed, where } from '../helpers/s3-delivery.js';

const bed = useS3Bed();

describe('presignedUrls', () => {
  it('gives links that fetch the objects without keys until they expire, and only as signed', async () => {
    const bucket = await bed.newBucket();
    const dest = bed.destination(bucket, { prefix: 'links' });
    const client = createS3Client(dest, bed.credentials());
    try {
      const outcome = await uploadRunFiles(dest, bed.files.slice(0, 3), where, { client });
      expect(outcome.ok, outcome.detail).toBe(true);
      const keys = outcome.objects.map((o) => o.key);
      const links = await presignedUrls(client, dest, keys, 3600);
      expect(links.map((l) => l.name)).toEqual(bed.files.slice(0, 3).map((f) => f.name));
      for (const [i, link] of links.entries()) {
        expect(link.url.startsWith(`${bed.s3.endpoint}/${bucket}/links/weekly-dach/2026-11-23/`)).toBe(true);
        expect(link.url).toMatch(/X-Amz-Signature=[0-9a-f]{64}/);
        expect(link.url).not.toContain(bed.s3.secretAccessKey);
        const res = await fetch(link.url);
        expect(res.status, await res.clone().text()).toBe(200);
        expect(Buffer.from(await res.arrayBuffer()).equals(await readFile(bed.files[i]!.path))).toBe(true);
      }
      const tampered = links[0]!.url.replace(/X-Amz-Expires=\d+/, 'X-Amz-Expires=7200');
      expect((await fetch(tampered)).status).toBe(403);
      // Links signed a minute ago (the signing clock set back, not waited for): one valid for
      // a second has expired, one valid for an hour still fetches.
      vi.useFakeTimers({ toFake: ['Date'] });
      let expiring: Awaited<ReturnType<typeof presignedUrls>>;
      let valid: Awaited<ReturnType<typeof presignedUrls>>;
      try {
        vi.setSystemTime(Date.now() - 60_000);
        expiring = await presignedUrls(client, dest, keys.slice(0, 1), 1);
        valid = await presignedUrls(client, dest, keys.slice(0, 1), 3600);
      } finally {
        vi.useRealTimers();
      }
      expect((await fetch(expiring[0]!.url)).status).toBe(403);
      expect((await fetch(valid[0]!.url)).status).toBe(200);
      await expect(presignedUrls(client, dest, keys, 8 * 24 * 3600)).rejects.toThrow(/expiresInSeconds/);

      // A name with a space and a non-ASCII letter: escaped once in the path, signed as sent.
      const odd = await bed.file('Zürich list 2026.csv', 'text/csv', Buffer.from('a,b\n1,2\n'));
      const oddOutcome = await uploadRunFiles(dest, [odd], where, { client });
      const [oddLink] = await presignedUrls(client, dest, [oddOutcome.objects[0]!.key], 60);
      expect(oddLink!.url).toContain('/Z%C3%BCrich%20list%202026.csv?');
      const res = await fetch(oddLink!.url);
      expect(res.status, await res.clone().text()).toBe(200);
      expect(await res.text()).toBe('a,b\n1,2\n');
    } finally {
      client.destroy();
    }
  });

  it('addresses AWS buckets by virtual host when no endpoint is set (no request is sent)', async () => {
    const dest = parseS3Destination({ s3: { bucket: 'vir-reports', region: 'eu-central-1' } });
    const client = createS3Client(dest, { accessKeyId: 'AKIDEXAMPLE', secretAccessKey: 'not-a-real-secret' });
    try {
      const [link] = await presignedUrls(client, dest, ['weekly/2026-11-23/a.pdf'], 900);
      expect(link!.url).toMatch(
        /^https:\/\/vir-reports\.s3\.eu-central-1\.amazonaws\.com\/weekly\/2026-11-23\/a\.pdf\?.*X-Amz-Credential=AKIDEXAMPLE%2F\d{8}%2Feu-central-1%2Fs3%2Faws4_request/,
      );
      expect(link!.url).toContain('X-Amz-Expires=900');
      expect(link!.url).not.toContain('not-a-real-secret');
    } finally {
      client.destroy();
    }
  });
});
