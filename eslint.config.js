// @ts-check
import js from '@eslint/js';
import tseslint from 'typescript-eslint';

const nodeBuiltins = [
  'fs',
  'fs/promises',
  'path',
  'os',
  'http',
  'https',
  'net',
  'tls',
  'dns',
  'child_process',
  'crypto',
  'stream',
  'worker_threads',
  'zlib',
  'readline',
  'process',
  'cluster',
  'dgram',
  'events',
  'timers',
  'timers/promises',
  'perf_hooks',
  'sqlite',
  'buffer',
  'v8',
  'vm',
  'module',
  'inspector',
  'async_hooks',
];
const ioLibraries = [
  'undici',
  'exceljs',
  'pdfkit',
  'svg-to-pdfkit',
  'vega',
  'vega-lite',
  '@resvg/resvg-js',
  'fontkit',
  'fastify',
  'pino',
  'pino-pretty',
  'yaml',
  'commander',
  'cli-progress',
  'jszip',
  'unpdf',
  '@temporalio/client',
  '@temporalio/worker',
  '@temporalio/activity',
  '@temporalio/testing',
  '@modelcontextprotocol/sdk',
];

/**
 * The layers of the runner, lowest first. A folder imports only from the folders before it, so
 * no import cycle can run between folders: `shared/` holds what workflows and activities both
 * use (updates, signals, queries, failure types, activity inputs and outputs), activities import
 * nothing from `workflows/`, and workflows import activities' types only (`import type`, the
 * Temporal way: an activity's code never enters the workflow bundle). Tests, benchmarks, the
 * sandbox and scripts sit outside the layers.
 */
const LAYERS = [
  'lib',
  'api',
  'config',
  'shared',
  'reports',
  'activities',
  'workflows',
  'jobs',
  'runtime',
  'cli',
];

/** The layering rule of one folder: every folder above it is out of reach. */
function layerConfig(folder) {
  const above = LAYERS.slice(LAYERS.indexOf(folder) + 1);
  const patterns = above.map((upper) => ({
    // Any relative path that steps up to the root and into the higher folder.
    regex: `^(\\.\\./)+${upper}/`,
    message: `${folder}/ sits below ${upper}/ in the layers (eslint.config.js): move what both need to a lower folder (shared/ for workflows and activities).`,
  }));
  const rule = (extra) => ({
    '@typescript-eslint/no-restricted-imports': ['error', { patterns: [...patterns, ...extra] }],
  });
  const configs = [{ files: [`${folder}/**/*.ts`], rules: rule([]) }];
  // Workflow code (the engine, and each kind's workflow and plan) reaches activities through
  // their types only.
  const workflowFiles = { workflows: ['workflows/**/*.ts'], jobs: ['jobs/*/workflow.ts', 'jobs/*/plan.ts'] }[
    folder
  ];
  if (workflowFiles) {
    const typesOnly = {
      regex: '^(\\.\\./)+activities/',
      allowTypeImports: true,
      message: 'Workflows import activity types only (import type); shared values live in shared/.',
    };
    configs.push({
      files: workflowFiles,
      rules: rule([typesOnly, { ...typesOnly, regex: '^\\./activities\\.js$' }]),
    });
  }
  return configs;
}

export default tseslint.config(
  { ignores: ['node_modules/**', '.tools/**', '.data/**', 'coverage/**', 'bench/out/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: {
      parserOptions: {
        projectService: { allowDefaultProject: ['*.js'] },
        tsconfigRootDir: import.meta.dirname,
      },
    },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/consistent-type-imports': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/no-explicit-any': 'off',
      '@typescript-eslint/no-unsafe-assignment': 'off',
      '@typescript-eslint/no-unsafe-member-access': 'off',
      '@typescript-eslint/no-unsafe-call': 'off',
      '@typescript-eslint/no-unsafe-argument': 'off',
      '@typescript-eslint/no-unsafe-return': 'off',
      '@typescript-eslint/restrict-template-expressions': 'off',
      '@typescript-eslint/require-await': 'off',
      '@typescript-eslint/no-redundant-type-constituents': 'off',
      '@typescript-eslint/only-throw-error': 'off',
      '@typescript-eslint/prefer-promise-reject-errors': 'off',
      '@typescript-eslint/no-misused-promises': ['error', { checksVoidReturn: false }],
    },
  },
  {
    // One responsibility a file: a source file past 500 lines (every line counted, blank lines
    // and comments too) holds more than one and is split by responsibility.
    files: ['**/*.ts'],
    rules: {
      'max-lines': ['error', { max: 500, skipBlankLines: false, skipComments: false }],
    },
  },
  {
    // Data tables are the exception, each listed here by name (rows of data with a few lookups,
    // one responsibility however long): countries, people's and companies' names, the taxonomy.
    files: ['sandbox/data/countries.ts', 'sandbox/data/names.ts', 'sandbox/data/taxonomy.ts'],
    rules: { 'max-lines': 'off' },
  },
  {
    // Workflows are deterministic orchestration: no Node built-ins, no I/O libraries. The rule
    // covers the engine, every kind's workflow and plan, and the pure modules they import.
    files: ['workflows/**/*.ts', 'jobs/*/workflow.ts', 'jobs/*/plan.ts', 'lib/names.ts', 'api/catalog.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: [
            ...nodeBuiltins.flatMap((m) => [
              { name: m, message: 'Workflows do no I/O: move this to an activity.' },
              { name: `node:${m}`, message: 'Workflows do no I/O: move this to an activity.' },
            ]),
            ...ioLibraries.map((m) => ({
              name: m,
              message: 'Workflows do no I/O: call an activity instead.',
            })),
          ],
          patterns: [
            { group: ['node:*'], message: 'Workflows do no I/O: move this to an activity.' },
            {
              group: ['**/activities/*', './activities.js'],
              allowTypeImports: true,
              message: 'Workflows import activity types only (import type).',
            },
          ],
        },
      ],
    },
  },
  ...LAYERS.flatMap(layerConfig),
  {
    files: ['**/*.js'],
    ...tseslint.configs.disableTypeChecked,
  },
);
