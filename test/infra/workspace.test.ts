/**
 * The sandbox is a workspace package of its own: the runner's production install (what the
 * worker image carries) reaches none of its dependencies, and no runner module loads it but
 * the commands that start it. (A production install in a scratch folder, `npm ci --omit=dev`
 * without sandbox/, is how the image is built; see docs/deployment.md.)
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, test } from 'vitest';

const root = fileURLToPath(new URL('../../', import.meta.url));

interface LockPackage {
  dependencies?: Record<string, string>;
  optionalDependencies?: Record<string, string>;
  peerDependencies?: Record<string, string>;
  peerDependenciesMeta?: Record<string, { optional?: boolean }>;
}
const lock = JSON.parse(readFileSync(join(root, 'package-lock.json'), 'utf8')) as {
  packages: Record<string, LockPackage>;
};

/** Where npm resolves `name` from the package at `from` (node_modules lookup upwards). */
function resolveIn(from: string, name: string): string | null {
  let dir = from;
  for (;;) {
    const candidate = dir === '' ? `node_modules/${name}` : `${dir}/node_modules/${name}`;
    if (lock.packages[candidate]) return candidate;
    if (dir === '') return null;
    const at = dir.lastIndexOf('/node_modules/');
    dir = at === -1 ? '' : dir.slice(0, at);
  }
}

/** Every package a production install of `start`'s dependencies brings. */
function reachable(start: string): Set<string> {
  const seen = new Set<string>();
  const queue = [start];
  while (queue.length > 0) {
    const at = queue.pop()!;
    const pkg = lock.packages[at] ?? {};
    const required = Object.keys(pkg.peerDependencies ?? {}).filter(
      (n) => !pkg.peerDependenciesMeta?.[n]?.optional,
    );
    for (const name of [
      ...Object.keys(pkg.dependencies ?? {}),
      ...Object.keys(pkg.optionalDependencies ?? {}),
      ...required,
    ]) {
      const path = resolveIn(at, name);
      if (path && !seen.has(path)) {
        seen.add(path);
        queue.push(path);
      }
    }
  }
  return new Set([...seen].map((p) => p.slice(p.lastIndexOf('node_modules/') + 'node_modules/'.length)));
}

// fastify is the runner's too since the report portal (portal/): it is no longer the sandbox's alone.
const SANDBOX_ONLY = ['@modelcontextprotocol/sdk', 'unpdf'];

test("the runner's production dependencies reach none of the sandbox's; the sandbox's do", () => {
  const runner = reachable('');
  for (const name of ['@temporalio/worker', 'exceljs', 'pdfkit', 'undici', 'zod', 'vega-lite', 'fastify']) {
    expect(runner.has(name), name).toBe(true);
  }
  for (const name of SANDBOX_ONLY) expect(runner.has(name), name).toBe(false);
  expect(runner.has('@vir/sandbox')).toBe(false);
  const sandbox = reachable('sandbox');
  for (const name of SANDBOX_ONLY) expect(sandbox.has(name), name).toBe(true);
});

function sourceFiles(dir: string): string[] {
  return readdirSync(join(root, dir)).flatMap((name) => {
    const rel = join(dir, name);
    if (statSync(join(root, rel)).isDirectory()) return sourceFiles(rel);
    return rel.endsWith('.ts') ? [rel] : [];
  });
}

test('no runner module imports the sandbox, but for types and the commands that start it', () => {
  const runnerDirs = [
    'api',
    'activities',
    'cli',
    'config',
    'jobs',
    'lib',
    'portal',
    'reports',
    'runtime',
    'workflows',
  ];
  const loaders: string[] = [];
  for (const file of runnerDirs.flatMap(sourceFiles)) {
    const text = readFileSync(join(root, file), 'utf8');
    for (const m of text.matchAll(/^\s*import (?!type\b)[^;]*from '((?:\.\.\/)+sandbox\/[^']*)'/gm)) {
      throw new Error(`${file} imports ${m[1]} at load time`);
    }
    if (/import\('[^']*sandbox\/index\.js'\)|sandbox\/main\.ts/.test(text)) loaders.push(file);
  }
  expect(loaders.sort()).toEqual(['cli/commands/sandbox.ts', 'runtime/local-stack.ts']);
});
