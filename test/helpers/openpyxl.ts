/**
 * Opening workbooks with openpyxl (pinned in scripts/install-python-tools.sh, with Pillow, which
 * it needs to read images): the charts and images it sees on each sheet, again after it saved
 * the file, and the warnings it gave. See xlsx_drawings.py.
 */
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';

const ROOT = resolve(import.meta.dirname, '../..');
const PYTHON = join(ROOT, '.tools/venv/bin/python');
const SCRIPT = join(ROOT, 'test/helpers/xlsx_drawings.py');

export interface OpenpyxlChart {
  /** openpyxl's class of the chart: BarChart, LineChart, PieChart, DoughnutChart. */
  type: string;
  /** The classes of the charts it combines (a combo: BarChart and LineChart). */
  parts: string[];
  /** Each series' value formula. */
  series: (string | null)[];
}

export interface OpenpyxlView {
  sheets: Record<string, { charts: OpenpyxlChart[]; images: number }>;
  /** Charts and images per sheet after openpyxl saved the file and opened it again. */
  resaved: Record<string, { charts: number; images: number }>;
  warnings: string[];
}

/**
 * What openpyxl sees in each of `files` (saved copies go to `outDir`). Throws when the venv is
 * missing: run scripts/install-python-tools.sh.
 */
export function openpyxlView(outDir: string, files: string[]): Record<string, OpenpyxlView> {
  if (!existsSync(PYTHON))
    throw new Error(
      `${PYTHON} is missing: run scripts/install-python-tools.sh (it pins openpyxl and Pillow)`,
    );
  const out = execFileSync(PYTHON, [SCRIPT, outDir, ...files], {
    encoding: 'utf8',
    timeout: 60_000,
    maxBuffer: 16 * 1024 * 1024,
  });
  return JSON.parse(out) as Record<string, OpenpyxlView>;
}
