/**
 * `npm run sandbox -- --port 8787`: starts the sandbox, prints its URL and the seeded keys,
 * stops on SIGINT/SIGTERM. Its state persists in <data-dir>/state.sqlite unless `--state memory`.
 */
import { existsSync } from 'node:fs';
import { Command, InvalidArgumentError, Option } from 'commander';
import { SEEDED_KEYS } from './accounts.js';
import { MAX_DATASET_SCALE, sandboxDatabasePath } from './data/index.js';
import { SANDBOX_STATE_MODES } from './options.js';
import { startSandbox } from './server.js';
import type { SandboxOptions, SandboxStateMode } from './types.js';

function integer(name: string, min: number, max = Number.MAX_SAFE_INTEGER) {
  return (value: string): number => {
    if (!/^-?\d+$/.test(value.trim())) throw new InvalidArgumentError(`${name} must be an integer`);
    const n = Number(value);
    if (n < min) throw new InvalidArgumentError(`${name} must be at least ${min}`);
    if (n > max) throw new InvalidArgumentError(`${name} must be at most ${max}`);
    return n;
  };
}

interface CliOptions {
  port: number;
  host: string;
  seed?: number;
  scale?: number;
  ratePerMinute?: number;
  ratePerDay?: number;
  accounts?: string;
  deckWaitMs?: number;
  deckAnalysisMs?: number;
  dataDir?: string;
  state: SandboxStateMode;
  stateFile?: string;
  asOf?: string;
  log?: boolean;
  scoringThreads?: number;
}

async function main(): Promise<void> {
  const program = new Command('sandbox')
    .description('Run the local Venture Intelligence Service sandbox')
    .option('--port <n>', 'port to listen on (0 picks a free one)', integer('--port', 0), 8787)
    .option('--host <host>', 'host to listen on', '127.0.0.1')
    .option('--seed <n>', 'database seed (same seed, same data)', integer('--seed', 0))
    .option(
      '--scale <n>',
      `size of the generated data: n times 21,000 startups and 5,400 investors, 1 to ${MAX_DATASET_SCALE} (default 1; 5 builds in about 20 s once, then is cached)`,
      integer('--scale', 1, MAX_DATASET_SCALE),
    )
    .option(
      '--rate-per-minute <n>',
      'rate limit per key per minute (default 60)',
      integer('--rate-per-minute', 1),
    )
    .option('--rate-per-day <n>', 'rate limit per key per day (default 5000)', integer('--rate-per-day', 1))
    .option('--accounts <file>', 'JSON file { accounts, keys } of extra accounts and keys')
    .option(
      '--deck-wait-ms <n>',
      'how long analyze_deck waits before answering "running" (default 90000)',
      integer('--deck-wait-ms', 0),
    )
    .option(
      '--deck-analysis-ms <n>',
      'how long a deck analysis takes (default: 0.4 s plus per page and megabyte, at most 8 s)',
      integer('--deck-analysis-ms', 0),
    )
    .option('--data-dir <dir>', 'folder of the cached database (default .data/sandbox)')
    .addOption(
      new Option(
        '--state <mode>',
        'persist: balances, free-plan runs, repeat records, match lists, data rooms, results and rate-limit windows survive a restart; reset: start over, then persist; memory: fresh every start, nothing written',
      )
        .choices(SANDBOX_STATE_MODES)
        .default('persist'),
    )
    .option('--state-file <file>', 'state file of --state persist/reset (default <data-dir>/state.sqlite)')
    .option('--as-of <date>', 'reference date of the generated data, YYYY-MM-DD (default today)')
    .option(
      '--scoring-threads <n>',
      "worker threads for the paid finders' scoring (default: CPU cores - 1, 1 to 4; 0 scores on the main thread)",
      integer('--scoring-threads', 0, 64),
    )
    .option('--log', 'log every request')
    .parse();
  const cli = program.opts<CliOptions>();

  const options: SandboxOptions = { port: cli.port, host: cli.host };
  if (cli.seed !== undefined) options.seed = cli.seed;
  if (cli.scale !== undefined) options.scale = cli.scale;
  if (cli.ratePerMinute !== undefined) options.rateLimitPerMinute = cli.ratePerMinute;
  if (cli.ratePerDay !== undefined) options.rateLimitPerDay = cli.ratePerDay;
  if (cli.accounts !== undefined) options.accountsFile = cli.accounts;
  if (cli.deckWaitMs !== undefined) options.deckWaitMs = cli.deckWaitMs;
  if (cli.deckAnalysisMs !== undefined) options.deckAnalysisMs = cli.deckAnalysisMs;
  if (cli.dataDir !== undefined) options.dataDir = cli.dataDir;
  options.state = cli.state;
  if (cli.stateFile !== undefined) options.stateFile = cli.stateFile;
  if (cli.asOf !== undefined) options.asOf = cli.asOf;
  if (cli.log) options.logger = true;
  if (cli.scoringThreads !== undefined) options.scoringThreads = cli.scoringThreads;

  if (options.scale !== undefined && options.scale > 1) {
    const { seed, asOf, scale, dataDir } = options;
    if (!existsSync(sandboxDatabasePath({ seed, asOf, scale, dataDir })))
      console.log(`Building the scale ${scale} database once (about ${4 * scale} s)...`);
  }
  const sandbox = await startSandbox(options);
  const lines = [
    `Venture Intelligence sandbox listening on ${sandbox.url}`,
    `  REST:    POST ${sandbox.url}/v1/<operation>   (GET for 0-credit operations)`,
    `  MCP:     ${sandbox.url}/mcp   (Streamable HTTP, same Bearer key)`,
    `  OpenAPI: ${sandbox.url}/openapi.json`,
    sandbox.stateFile === null
      ? '  State:   in memory (fresh at every start)'
      : `  State:   ${sandbox.stateFile} (kept across restarts; --state reset starts over)`,
    '  Keys (Authorization: Bearer <key>):',
  ];
  for (const key of sandbox.state.keys.values()) {
    const account = sandbox.state.accounts.get(key.account_id);
    // Seeded keys are public sandbox keys; extra keys (from options or a file) are shown masked.
    const seeded = (Object.values(SEEDED_KEYS) as string[]).includes(key.key);
    const shown = seeded ? key.key : `${key.key.slice(0, 6)}…(extra key of ${key.account_id})`;
    lines.push(
      `    ${shown.padEnd(28)} ${account?.type ?? '?'}/${account?.plan ?? '?'}, scopes ${key.scopes.join('+')}, ` +
        `${account?.credits ?? 0} credits${key.revoked ? ', revoked' : ''}`,
    );
  }
  lines.push('Press Ctrl+C to stop.');
  console.log(lines.join('\n'));

  let stopping = false;
  const stop = (signal: string) => {
    if (stopping) return;
    stopping = true;
    console.log(`\n${signal}: stopping the sandbox...`);
    sandbox.close().then(
      () => process.exit(0),
      (error: unknown) => {
        console.error('sandbox: close failed:', error instanceof Error ? error.message : error);
        process.exit(1);
      },
    );
  };
  process.once('SIGINT', () => stop('SIGINT'));
  process.once('SIGTERM', () => stop('SIGTERM'));
}

main().catch((error: unknown) => {
  console.error(`sandbox: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
});
