import { describe, expect, it } from 'vitest';
import { createLogger, redactLogLine } from '../../cli/logger.js';

function capture() {
  const lines: string[] = [];
  return { lines, destination: { write: (chunk: string) => lines.push(chunk) } };
}

describe('createLogger', () => {
  it('masks service keys in messages, fields and errors', () => {
    const { lines, destination } = capture();
    const log = createLogger({ logLevel: 'info' }, { destination });
    log.info(
      { key: 'vis_live_abc_123', nested: { deep: ['x vis_live_Zz9 y'] } },
      'using vis_live_abc_123 now',
    );
    log.error({ err: new Error('bad key vis_live_secret_9') }, 'failed');
    const text = lines.join('');
    expect(text).not.toMatch(/vis_live_[A-Za-z0-9]/);
    expect(text).toContain('using [redacted] now');
    expect(text).toContain('bad key [redacted]');
    const first = JSON.parse(lines[0]!);
    expect(first.key).toBe('[redacted]');
    expect(first.nested.deep[0]).toBe('x [redacted] y');
  });

  it('masks the authorization field at any depth, whatever its value', () => {
    const { lines, destination } = capture();
    const log = createLogger({ logLevel: 'info' }, { destination });
    log.info({
      authorization: 'token-123',
      req: { headers: { Authorization: 'Basic dXNlcg==' } },
      list: [{ authorization: { a: 1 } }],
    });
    const child = log.child({ authorization: 'child-secret' });
    child.info('from child');
    const text = lines.join('');
    expect(text).not.toContain('token-123');
    expect(text).not.toContain('dXNlcg==');
    expect(text).not.toContain('child-secret');
    const first = JSON.parse(lines[0]!);
    expect(first.authorization).toBe('[redacted]');
    expect(first.req.headers.Authorization).toBe('[redacted]');
    expect(first.list[0].authorization).toBe('[redacted]');
  });

  it('respects the level', () => {
    const { lines, destination } = capture();
    const log = createLogger({ logLevel: 'warn' }, { destination });
    log.info('hidden');
    log.warn('shown');
    expect(lines).toHaveLength(1);
    expect(JSON.parse(lines[0]!).msg).toBe('shown');
  });

  it('pretty output is redacted too', () => {
    const { lines, destination } = capture();
    const log = createLogger({ logLevel: 'info' }, { destination, pretty: true });
    log.info({ authorization: 'Bearer vis_live_q' }, 'key vis_live_w');
    const text = lines.join('');
    expect(text).toContain('key [redacted]');
    expect(text).not.toContain('vis_live_');
  });
});

describe('redactLogLine', () => {
  it('masks bearer tokens', () => {
    expect(redactLogLine('"h":"Bearer abc.def"')).toBe('"h":"Bearer [redacted]"');
  });
});
