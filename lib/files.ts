/**
 * Writing files so that a reader never sees half of one: write a temporary file beside the
 * target, then rename it over the target (atomic on one file system).
 */
import { mkdir, rename, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';

let seq = 0;

/** Writes `data` to `path` atomically, creating the folder when needed. */
export async function writeFileAtomic(path: string, data: string | Uint8Array): Promise<void> {
  await mkdir(dirname(path), { recursive: true });
  const tmp = `${path}.${process.pid}.${Date.now()}.${++seq}.tmp`;
  await writeFile(tmp, data);
  await rename(tmp, path);
}

/** Writes a value as JSON atomically; `pretty` indents it for people to read. */
export async function writeJsonAtomic(path: string, value: unknown, pretty = false): Promise<void> {
  await writeFileAtomic(path, pretty ? `${JSON.stringify(value, null, 2)}\n` : JSON.stringify(value));
}
