/** The Vega-Lite spec of a table chart: the first columns and rows as text, values formatted. */
import type { TopLevelSpec } from 'vega-lite';
import { truncateToWidth } from '../fonts.js';
import { isIdentifierKey } from './normalize.js';
import type { NormalChart } from './normalize.js';
import { formatValue } from './value-format.js';
import { humanize, labelOf, meta } from './vegalite-parts.js';
import { base, LABEL_FONT_SIZE } from './vegalite-theme.js';

/** Up to 5 columns and 12 rows of the data as a grid of text, with a bold header. */
export function tableSpec(chart: NormalChart, width: number): TopLevelSpec {
  const keys: string[] = [];
  for (const r of chart.rows) for (const k of Object.keys(r)) if (!keys.includes(k)) keys.push(k);
  const cols = keys.slice(0, 5);
  const rows = chart.rows.slice(0, 12);
  const colWidth = Math.floor((width - 20) / Math.max(1, cols.length));
  const values = rows.flatMap((r, i) =>
    cols.map((c, j) => {
      const v = r[c];
      const text =
        typeof v === 'number'
          ? isIdentifierKey(c)
            ? String(v)
            : formatValue(v, chart.series.find((s) => s.key === c)?.unit ?? 'count')
          : labelOf(v);
      return { row: i, col: j, text: truncateToWidth(text, colWidth - 8, LABEL_FONT_SIZE) };
    }),
  );
  const header = cols.map((c, j) => ({
    row: -1,
    col: j,
    text: truncateToWidth(humanize(c), colWidth - 8, LABEL_FONT_SIZE, true),
  }));
  const height = 18 * (rows.length + 1);
  const emptyNote = rows.length === 0 ? 'No data' : undefined;
  return {
    ...base(width, Math.max(18, height), chart, meta(chart, 'table'), emptyNote, 'fit-x'),
    data: { values: [...header, ...values] },
    encoding: {
      x: { field: 'col', type: 'quantitative', axis: null, scale: { domain: [0, Math.max(1, cols.length)] } },
      y: { field: 'row', type: 'ordinal', axis: null, sort: 'ascending' },
      text: { field: 'text' },
    },
    layer: [
      {
        transform: [{ filter: 'datum.row < 0' }],
        mark: {
          type: 'text',
          align: 'left',
          baseline: 'middle',
          fontSize: LABEL_FONT_SIZE,
          fontWeight: 'bold',
          limit: colWidth - 6,
        },
      },
      {
        transform: [{ filter: 'datum.row >= 0' }],
        mark: {
          type: 'text',
          align: 'left',
          baseline: 'middle',
          fontSize: LABEL_FONT_SIZE,
          limit: colWidth - 6,
        },
      },
    ],
  } as unknown as TopLevelSpec;
}
