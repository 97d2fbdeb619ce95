/**
 * VIR_S3_ENDPOINT: the endpoint of S3 destinations that name none (vir dev points it at its
 * local server); a destination's own endpoint wins.
 */
import { describe, expect, it } from 'vitest';
import { s3ClientFromEnv, s3EndpointFromEnv, withEnvEndpoint } from '../../activities/delivery/s3-client.js';
import { parseS3Destination } from '../../activities/delivery/s3-destination.js';
import { SettingsError } from '../../config/settings.js';

const aws = parseS3Destination({ s3: { bucket: 'vir-reports', region: 'eu-central-1' } });
const own = parseS3Destination({ s3: { bucket: 'vir-reports', endpoint: 'https://minio.internal:9000' } });

describe('s3EndpointFromEnv', () => {
  it('reads VIR_S3_ENDPOINT; unset or empty is none (AWS)', () => {
    expect(s3EndpointFromEnv({ VIR_S3_ENDPOINT: ' http://127.0.0.1:7070 ' })).toBe('http://127.0.0.1:7070');
    expect(s3EndpointFromEnv({})).toBeUndefined();
    expect(s3EndpointFromEnv({ VIR_S3_ENDPOINT: '' })).toBeUndefined();
  });

  it('refuses what is not an http(s) URL, or holds a user or password, naming the variable and not the value', () => {
    for (const value of [
      '127.0.0.1:7070',
      'ftp://files.example.com',
      'http://key:hush-hush@127.0.0.1:7070',
    ]) {
      let err: unknown;
      try {
        s3EndpointFromEnv({ VIR_S3_ENDPOINT: value });
      } catch (e) {
        err = e;
      }
      expect(err).toBeInstanceOf(SettingsError);
      expect((err as SettingsError).variable).toBe('VIR_S3_ENDPOINT');
      expect((err as Error).message).toMatch(/^VIR_S3_ENDPOINT must/);
      expect((err as Error).message).not.toContain('hush-hush');
    }
  });
});

describe('withEnvEndpoint and s3ClientFromEnv', () => {
  const env = { VIR_S3_ENDPOINT: 'http://127.0.0.1:7070' };

  it('gives a destination without an endpoint the environment one, path-style; its own endpoint wins', () => {
    expect(withEnvEndpoint(aws, env)).toEqual({
      ...aws,
      endpoint: 'http://127.0.0.1:7070',
      forcePathStyle: true,
    });
    expect(withEnvEndpoint(own, env)).toBe(own);
    expect(withEnvEndpoint(aws, {})).toBe(aws);
  });

  it('makes the client with that endpoint and the keys of the environment', async () => {
    const client = s3ClientFromEnv(aws, {
      ...env,
      VIR_S3_ACCESS_KEY_ID: 'vir-dev',
      VIR_S3_SECRET_ACCESS_KEY: 'vir-dev-local-only-secret',
    });
    try {
      const endpoint = await client.config.endpoint!();
      expect(`${endpoint.protocol}//${endpoint.hostname}:${endpoint.port}`).toBe('http://127.0.0.1:7070');
      expect(client.config.forcePathStyle).toBe(true);
      expect(await client.config.region()).toBe('eu-central-1');
      expect((await client.config.credentials()).accessKeyId).toBe('vir-dev');
    } finally {
      client.destroy();
    }
  });
});
