import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  DEFAULTS,
  describeSettings,
  loadSettings,
  maskApiKey,
  requireApiKey,
  SETTING_NAMES,
  SettingsError,
} from '../../config/settings.js';

function errorOf(fn: () => unknown): SettingsError {
  try {
    fn();
  } catch (err) {
    expect(err).toBeInstanceOf(SettingsError);
    return err as SettingsError;
  }
  throw new Error('expected a SettingsError');
}

describe('loadSettings', () => {
  it('applies the defaults to an empty environment', () => {
    const s = loadSettings({});
    expect(s).toEqual({
      visBaseUrl: 'http://127.0.0.1:8787',
      visPublicUrl: null,
      visApiKey: undefined,
      visMcpUrl: undefined,
      temporalAddress: '127.0.0.1:7233',
      temporalNamespace: 'default',
      taskQueue: 'vir-jobs',
      apiTaskQueue: 'vir-api',
      accountTaskQueue: 'vir-accounts',
      rateLimitPerMinute: 60,
      rateLimitPerDay: 5000,
      creditCaps: {},
      destinationRoots: [],
      reportNotice: null,
      deckCaFile: null,
      storeDir: resolve('.data/store'),
      store: { kind: 'local', dir: resolve('.data/store') },
      reportsDir: resolve('.data/reports'),
      dataDir: resolve('.data'),
      httpTimeoutMs: 120000,
      logLevel: 'info',
      temporalUiPort: 8233,
      sandboxPort: 8787,
      devSmtpPort: 2525,
      devS3Port: 7070,
      portalPort: 8790,
      portalToken: null,
      portalUrl: null,
      workflowsModule: null,
    });
  });

  it('reads every variable', () => {
    const s = loadSettings({
      VIS_BASE_URL: 'https://api.example.test/',
      VIS_PUBLIC_URL: 'https://app.example.test/',
      VIS_API_KEY: 'vis_live_abc123',
      VIS_MCP_URL: 'https://api.example.test/mcp',
      TEMPORAL_ADDRESS: 'temporal:7233',
      TEMPORAL_NAMESPACE: 'reports',
      VIR_TASK_QUEUE: 'jobs-q',
      VIR_API_TASK_QUEUE: 'api-q',
      VIR_ACCOUNT_TASK_QUEUE: 'accounts-q',
      VIR_RATE_LIMIT_PER_MINUTE: '30',
      VIR_RATE_LIMIT_PER_DAY: '1000',
      VIR_CREDIT_CAP_DAY: '10',
      VIR_CREDIT_CAP_WEEK: '40',
      VIR_CREDIT_CAP_MONTH: '0',
      VIR_STORE_DIR: '/data/store',
      VIR_REPORTS_DIR: '/data/reports',
      VIR_DATA_DIR: '/data/vir',
      VIR_HTTP_TIMEOUT_MS: '5000',
      VIR_LOG_LEVEL: 'debug',
      VIR_TEMPORAL_UI_PORT: '9233',
      VIR_SANDBOX_PORT: '0',
      VIR_DEV_SMTP_PORT: '0',
      VIR_DEV_S3_PORT: '17070',
      VIR_PORTAL_PORT: '9790',
      VIR_PORTAL_TOKEN: 'portal-token-0123456789abcdef',
      VIR_PORTAL_URL: 'https://reports.example.test/vir/',
      VIR_WORKFLOWS_MODULE: '/app/test/workflows-next.ts',
    });
    expect(s.visBaseUrl).toBe('https://api.example.test');
    expect(s.visPublicUrl).toBe('https://app.example.test');
    expect(s.visApiKey).toBe('vis_live_abc123');
    expect(s.visMcpUrl).toBe('https://api.example.test/mcp');
    expect(s.temporalAddress).toBe('temporal:7233');
    expect(s.temporalNamespace).toBe('reports');
    expect(s.taskQueue).toBe('jobs-q');
    expect(s.apiTaskQueue).toBe('api-q');
    expect(s.accountTaskQueue).toBe('accounts-q');
    expect(s.creditCaps).toEqual({ day: 10, week: 40, month: 0 });
    expect(s.rateLimitPerMinute).toBe(30);
    expect(s.rateLimitPerDay).toBe(1000);
    expect(s.storeDir).toBe('/data/store');
    expect(s.reportsDir).toBe('/data/reports');
    expect(s.dataDir).toBe('/data/vir');
    expect(s.httpTimeoutMs).toBe(5000);
    expect(s.logLevel).toBe('debug');
    expect(s.temporalUiPort).toBe(9233);
    expect(s.sandboxPort).toBe(0);
    expect(s.devSmtpPort).toBe(0);
    expect(s.devS3Port).toBe(17070);
    expect(s.portalPort).toBe(9790);
    expect(s.portalToken).toBe('portal-token-0123456789abcdef');
    expect(s.portalUrl).toBe('https://reports.example.test/vir');
    expect(s.workflowsModule).toBe('/app/test/workflows-next.ts');
  });

  it('treats empty variables as unset', () => {
    const s = loadSettings({ VIR_RATE_LIMIT_PER_MINUTE: '', VIS_API_KEY: '  ' });
    expect(s.rateLimitPerMinute).toBe(60);
    expect(s.visApiKey).toBeUndefined();
  });

  it('has a default for every variable but the optional ones', () => {
    // Optional, or derived from VIR_DATA_DIR when unset.
    const optional = [
      'VIS_API_KEY',
      'VIS_PUBLIC_URL',
      'VIS_MCP_URL',
      'VIR_STORE_DIR',
      'VIR_STORE_URL',
      'VIR_REPORTS_DIR',
      'VIR_DESTINATION_ROOTS',
      'VIR_REPORT_NOTICE',
      'VIR_DECK_CA_FILE',
      'VIR_CREDIT_CAP_DAY',
      'VIR_CREDIT_CAP_WEEK',
      'VIR_CREDIT_CAP_MONTH',
      'VIR_PORTAL_TOKEN',
      'VIR_PORTAL_URL',
      'VIR_WORKFLOWS_MODULE',
    ];
    for (const name of SETTING_NAMES) {
      expect(name in DEFAULTS || optional.includes(name)).toBe(true);
    }
  });

  const bad: [string, string, RegExp][] = [
    ['VIS_BASE_URL', 'not a url', /^VIS_BASE_URL must be an http\(s\) URL .*, got "not a url"$/],
    [
      'VIR_CREDIT_CAP_WEEK',
      '-5',
      /^VIR_CREDIT_CAP_WEEK must be a whole number of credits \(0 or more\), got "-5"$/,
    ],
    ['VIS_BASE_URL', 'ftp://host/x', /^VIS_BASE_URL must be an http\(s\) URL/],
    ['VIS_MCP_URL', 'mcp', /^VIS_MCP_URL must be an http\(s\) URL .*, got "mcp"$/],
    [
      'VIR_REPORT_NOTICE',
      'n'.repeat(121),
      /^VIR_REPORT_NOTICE must be at most 120 characters \(it is printed in every footer\)/,
    ],
    ['VIR_REPORT_NOTICE', 'Confidential\nfor partners', /^VIR_REPORT_NOTICE must be one line of text/],
    ['VIR_DECK_CA_FILE', '/nonexistent/ca.pem', /^VIR_DECK_CA_FILE must be an existing PEM file/],
    ['VIR_DECK_CA_FILE', '/etc/hostname', /^VIR_DECK_CA_FILE must hold at least one PEM certificate/],
    ['TEMPORAL_ADDRESS', 'localhost', /^TEMPORAL_ADDRESS must be host:port .*, got "localhost"$/],
    [
      'TEMPORAL_NAMESPACE',
      'bad namespace',
      /^TEMPORAL_NAMESPACE must be a namespace name .*, got "bad namespace"$/,
    ],
    ['VIR_TASK_QUEUE', 'a/b', /^VIR_TASK_QUEUE must be a task queue name .*, got "a\/b"$/],
    ['VIR_API_TASK_QUEUE', '#q', /^VIR_API_TASK_QUEUE must be a task queue name .*, got "#q"$/],
    ['VIR_RATE_LIMIT_PER_MINUTE', 'abc', /^VIR_RATE_LIMIT_PER_MINUTE must be a positive integer, got "abc"$/],
    ['VIR_RATE_LIMIT_PER_MINUTE', '0', /^VIR_RATE_LIMIT_PER_MINUTE must be a positive integer, got "0"$/],
    ['VIR_RATE_LIMIT_PER_DAY', '-5', /^VIR_RATE_LIMIT_PER_DAY must be a positive integer, got "-5"$/],
    ['VIR_RATE_LIMIT_PER_DAY', '1.5', /^VIR_RATE_LIMIT_PER_DAY must be a positive integer, got "1.5"$/],
    ['VIR_HTTP_TIMEOUT_MS', 'soon', /^VIR_HTTP_TIMEOUT_MS must be a positive integer, got "soon"$/],
    [
      'VIR_LOG_LEVEL',
      'loud',
      /^VIR_LOG_LEVEL must be one of fatal, error, warn, info, debug, trace, silent, got "loud"$/,
    ],
    [
      'VIR_TEMPORAL_UI_PORT',
      '70000',
      /^VIR_TEMPORAL_UI_PORT must be a port number \(0 to 65535\), got "70000"$/,
    ],
    ['VIR_SANDBOX_PORT', 'http', /^VIR_SANDBOX_PORT must be a port number \(0 to 65535\), got "http"$/],
    ['VIR_DEV_SMTP_PORT', 'smtp', /^VIR_DEV_SMTP_PORT must be a port number \(0 to 65535\), got "smtp"$/],
    ['VIR_DEV_S3_PORT', '65536', /^VIR_DEV_S3_PORT must be a port number \(0 to 65535\), got "65536"$/],
    ['VIR_PORTAL_PORT', 'web', /^VIR_PORTAL_PORT must be a port number \(0 to 65535\), got "web"$/],
    [
      'VIR_PORTAL_URL',
      'reports.example.test',
      /^VIR_PORTAL_URL must be an http\(s\) URL \(the portal's address for readers, .*\), got "reports.example.test"$/,
    ],
    ['VIR_PORTAL_URL', 'https://reports.example.test/?x=1', /^VIR_PORTAL_URL must be an http\(s\) URL/],
  ];
  for (const [variable, value, message] of bad) {
    it(`rejects ${variable}=${JSON.stringify(value)}`, () => {
      const err = errorOf(() => loadSettings({ [variable]: value }));
      expect(err.variable).toBe(variable);
      expect(err.code).toBe('invalid_setting');
      expect(err.message).toMatch(message);
    });
  }

  it('rejects a bad VIS_API_KEY without showing it', () => {
    const err = errorOf(() => loadSettings({ VIS_API_KEY: 'vis_live_secret with space' }));
    expect(err.variable).toBe('VIS_API_KEY');
    expect(err.message).toBe('VIS_API_KEY must be a single token without spaces');
    expect(err.message).not.toContain('secret');
  });

  it('rejects a short or spaced VIR_PORTAL_TOKEN without showing it', () => {
    for (const value of ['short-secret', 'a portal token with spaces']) {
      const err = errorOf(() => loadSettings({ VIR_PORTAL_TOKEN: value }));
      expect(err.variable).toBe('VIR_PORTAL_TOKEN');
      expect(err.message).toBe(
        'VIR_PORTAL_TOKEN must be at least 16 characters without spaces (e.g. openssl rand -hex 24)',
      );
      expect(err.message).not.toContain(value);
    }
  });

  it('resolves directory settings; whitespace-only values fall back to the default', () => {
    expect(loadSettings({ VIR_STORE_DIR: ' ' }).storeDir).toBe(resolve('.data/store'));
    expect(loadSettings({ VIR_REPORTS_DIR: 'out' }).reportsDir).toBe(resolve('out'));
    expect(loadSettings({ VIR_DATA_DIR: 'state' }).dataDir).toBe(resolve('state'));
    // The store and the reports live in the data folder unless set on their own.
    const moved = loadSettings({ VIR_DATA_DIR: '/var/lib/vir' });
    expect(moved.storeDir).toBe('/var/lib/vir/store');
    expect(moved.reportsDir).toBe('/var/lib/vir/reports');
  });
});

describe('VIR_STORE_URL', () => {
  it('defaults to the local folder of VIR_STORE_DIR', () => {
    expect(loadSettings({}).store).toEqual({ kind: 'local', dir: resolve('.data/store') });
    expect(loadSettings({ VIR_STORE_DIR: '/srv/store' }).store).toEqual({ kind: 'local', dir: '/srv/store' });
  });

  it('file:///folder is the local store in that folder', () => {
    const s = loadSettings({ VIR_STORE_URL: 'file:///srv/vir/store' });
    expect(s.store).toEqual({ kind: 'local', dir: '/srv/vir/store' });
    expect(s.storeDir).toBe('/srv/vir/store');
  });

  it('s3://bucket/prefix is the S3 store; the region from AWS_REGION', () => {
    expect(
      loadSettings({ VIR_STORE_URL: 's3://vir-store/prod/runs/', AWS_REGION: 'eu-central-1' }).store,
    ).toEqual({
      kind: 's3',
      bucket: 'vir-store',
      prefix: 'prod/runs',
      region: 'eu-central-1',
      url: 's3://vir-store/prod/runs',
    });
    expect(loadSettings({ VIR_STORE_URL: 's3://vir-store' }).store).toMatchObject({
      bucket: 'vir-store',
      prefix: '',
      region: 'us-east-1',
    });
    const lines = Object.fromEntries(describeSettings(loadSettings({ VIR_STORE_URL: 's3://vir-store/p' })));
    expect(lines.VIR_STORE_URL).toBe('s3://vir-store/p');
  });

  const bad: [string, RegExp][] = [
    [
      'vir-store/prod',
      /^VIR_STORE_URL must be s3:\/\/bucket\/prefix or file:\/\/\/folder, got "vir-store\/prod"$/,
    ],
    ['https://vir-store/prod', /^VIR_STORE_URL must be s3:\/\/bucket\/prefix or file:\/\/\/folder/],
    ['s3://My_Bucket/prod', /^VIR_STORE_URL names the bucket "My_Bucket", which may hold only lowercase/],
    ['s3://vir-store/a/../b', /^VIR_STORE_URL has a prefix with empty, "\." or "\.\." segments/],
    [
      's3://vir-store:9000/prod',
      /^VIR_STORE_URL must be s3:\/\/bucket\/prefix \(no port: the endpoint is VIR_STORE_S3_ENDPOINT\)/,
    ],
  ];
  it.each(bad)('refuses %s, naming the variable', (value, message) => {
    const err = errorOf(() => loadSettings({ VIR_STORE_URL: value }));
    expect(err.variable).toBe('VIR_STORE_URL');
    expect(err.message).toMatch(message);
  });

  it('refuses keys in the URL without showing them', () => {
    const err = errorOf(() => loadSettings({ VIR_STORE_URL: 's3://AKIDEXAMPLE:topsecret@vir-store/prod' }));
    expect(err.variable).toBe('VIR_STORE_URL');
    expect(err.message).toMatch(/must not hold keys/);
    expect(err.message).not.toContain('topsecret');
    expect(err.message).not.toContain('AKIDEXAMPLE');
  });

  it('refuses a bad AWS_REGION for the S3 store, naming it', () => {
    const err = errorOf(() => loadSettings({ VIR_STORE_URL: 's3://vir-store', AWS_REGION: 'EU Central' }));
    expect(err.variable).toBe('AWS_REGION');
  });
});

describe('requireApiKey', () => {
  it('returns the key when set', () => {
    expect(requireApiKey({ visApiKey: 'vis_live_k' })).toBe('vis_live_k');
  });
  it('names VIS_API_KEY when missing', () => {
    const err = errorOf(() => requireApiKey({ visApiKey: undefined }));
    expect(err.variable).toBe('VIS_API_KEY');
    expect(err.message).toMatch(/^VIS_API_KEY is not set/);
  });
});

describe('describeSettings', () => {
  it('masks the key and lists every variable', () => {
    const s = loadSettings({ VIS_API_KEY: 'vis_live_supersecret_123' });
    const lines = describeSettings(s);
    expect(lines.map(([n]) => n)).toEqual([...SETTING_NAMES]);
    expect(Object.fromEntries(lines).VIS_API_KEY).toBe('vis_live_…(set)');
    expect(JSON.stringify(lines)).not.toContain('supersecret');
  });
  it('masks the portal token like the key', () => {
    const token = 'portal-token-supersecret-42';
    const lines = Object.fromEntries(describeSettings(loadSettings({ VIR_PORTAL_TOKEN: token })));
    expect(lines.VIR_PORTAL_TOKEN).toBe('(set)');
    expect(JSON.stringify(lines)).not.toContain(token);
    const unset = Object.fromEntries(describeSettings(loadSettings({})));
    expect(unset.VIR_PORTAL_TOKEN).toBe('(not set: the portal answers this machine only)');
    expect(unset.VIR_PORTAL_PORT).toBe('8790');
    expect(unset.VIR_PORTAL_URL).toBe('(not set: delivered emails carry no portal link)');
  });
  it('masks keys of other shapes and says when none is set', () => {
    expect(maskApiKey('plainkey')).toBe('(set)');
    expect(maskApiKey(undefined)).toBe('(not set)');
  });
});
