/**
 * Reads a chart spec as the service returns it (type, title, xKey, series, data, unit: a shape
 * the spec only half shows) into one well-defined form. Never throws: whatever is missing is
 * inferred from the data, whatever cannot be drawn falls back to a table.
 */
import type { ChartSpec } from '../../api/envelope.js';

/** How a chart is drawn. */
export type ChartKind =
  'bar' | 'hbar' | 'stacked' | 'hstacked' | 'line' | 'area' | 'arc' | 'combo' | 'scatter' | 'table';

/** What a value measures, which picks its number format. */
export type UnitKind = 'usd' | 'pct' | 'pct-fraction' | 'count';

export interface NormalSeries {
  /** The data key. */
  key: string;
  /** The legend name. */
  name: string;
  /** The mark the series asked for, if any. */
  mark?: 'bar' | 'line' | 'area' | undefined;
  unit: UnitKind;
}

export interface NormalChart {
  kind: ChartKind;
  /** The type string as the service sent it. */
  requestedType: string;
  /** True when the type was not one we know and the kind was chosen from the data. */
  fallback: boolean;
  title: string;
  xKey: string;
  series: NormalSeries[];
  /** Rows with numeric series values as numbers (numeric strings converted), others null. */
  rows: Record<string, unknown>[];
  /** The unit of the primary value axis. */
  unit: UnitKind;
  /** Axis title suffix for units that are neither USD nor percent (e.g. "deals"). */
  unitLabel: string | null;
  donut: boolean;
}

const MAX_ROWS = 200;

function toNumber(v: unknown): number | null {
  if (typeof v === 'number') return Number.isFinite(v) ? v : null;
  if (typeof v === 'string') {
    const t = v.replace(/[,$%\s]/g, '');
    if (t !== '' && /^[-+]?(\d+\.?\d*|\.\d+)(e[-+]?\d+)?$/i.test(t)) return Number(t);
  }
  return null;
}

function isNumericColumn(rows: Record<string, unknown>[], key: string): boolean {
  let seen = 0;
  for (const r of rows) {
    const v = r[key];
    if (v === null || v === undefined || v === '') continue;
    if (typeof v === 'boolean') return false;
    if (toNumber(v) === null) return false;
    seen++;
  }
  return seen > 0;
}

/** Turns `capital_usd` into `Capital USD`. */
export function humanizeKey(key: string): string {
  const words = key
    .replace(/([a-z])([A-Z])/g, '$1 $2')
    .split(/[_\-\s]+/)
    .filter(Boolean)
    .map((w) => {
      const lower = w.toLowerCase();
      if (['usd', 'yoy', 'ytd', 'pct', 'id', 'url', 'hq'].includes(lower)) return lower.toUpperCase();
      return lower.charAt(0).toUpperCase() + lower.slice(1);
    });
  return words.join(' ') || key;
}

const IDENTIFIER_WORDS = new Set([
  'year',
  'yr',
  'fy',
  'quarter',
  'qtr',
  'month',
  'week',
  'date',
  'id',
  'key',
  'code',
  'zip',
  'postcode',
  'vintage',
]);

function keyWords(key: string): string[] {
  return key
    .replace(/([a-z])([A-Z])/g, '$1 $2')
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter(Boolean);
}

/**
 * True when a data key names a period or an identifier (year, quarter, month, id, key, code...):
 * its numbers are labels, printed without thousands separators (2021, not 2,021).
 *
 * @example isIdentifierKey('year') // true; isIdentifierKey('founded_year') // true; isIdentifierKey('deals') // false
 */
export function isIdentifierKey(key: string): boolean {
  const words = keyWords(key);
  const first = words[0];
  const last = words[words.length - 1];
  return (
    (first !== undefined && IDENTIFIER_WORDS.has(first)) || (last !== undefined && IDENTIFIER_WORDS.has(last))
  );
}

/**
 * True when a column only carries a machine key (`startup_key`, `investor_id`, `slug`), which a
 * reader does not need when a name column is there.
 */
export function isKeyColumn(key: string): boolean {
  const last = keyWords(key).pop();
  return last === 'key' || last === 'id' || last === 'slug' || last === 'uuid';
}

/** Reads a unit string: USD, $, $M, percent, %, or a count label such as "deals". */
export function unitFromString(unit: string | null | undefined): {
  kind: UnitKind;
  scale: number;
  label: string | null;
} {
  if (!unit) return { kind: 'count', scale: 1, label: null };
  const u = unit.trim().toLowerCase();
  if (/^(%|pct|percent|percentage|share)$/.test(u) || u.includes('%') || u.includes('percent')) {
    return { kind: 'pct', scale: 1, label: null };
  }
  if (/usd|\$|dollar/.test(u)) {
    const scale = /\b(bn|b|billions?)\b/.test(u)
      ? 1e9
      : /\b(m|mn|mm|millions?)\b|\$m/.test(u)
        ? 1e6
        : /\b(k|thousands?)\b/.test(u)
          ? 1e3
          : 1;
    return { kind: 'usd', scale, label: null };
  }
  return { kind: 'count', scale: 1, label: unit.trim().slice(0, 30) };
}

/** The unit a data key names (capital_usd → usd, deals → count), or null when it names none. */
export function unitFromKey(key: string): UnitKind | null {
  const k = key.toLowerCase();
  if (/usd|capital|amount|raised|funding|valuation|dollar|check|invested/.test(k)) return 'usd';
  if (/pct|percent|share|ratio|yoy|rate|fit/.test(k)) return 'pct';
  if (/deals|count|rounds|investments|number|num_|companies|startups|investors/.test(k)) return 'count';
  return null;
}

/** Units that can share an axis. */
function unitGroup(u: UnitKind): string {
  return u === 'pct-fraction' ? 'pct' : u;
}

function kindFromType(type: string): ChartKind | null {
  const t = type
    .trim()
    .toLowerCase()
    .replace(/[\s_-]+/g, '');
  if (t === '') return null;
  if (/pie|donut|doughnut|arc/.test(t)) return 'arc';
  if (/combo|mixed|composed|barline|linebar|dual/.test(t)) return 'combo';
  if (/stack/.test(t)) return /horizontal|hbar|barh|row/.test(t) ? 'hstacked' : 'stacked';
  if (/horizontal|hbar|barh|rowbar|ranking/.test(t)) return 'hbar';
  if (/scatter|bubble|point/.test(t)) return 'scatter';
  if (/area/.test(t)) return 'area';
  if (/line|trend|timeseries/.test(t)) return 'line';
  if (/bar|column|histogram/.test(t)) return 'bar';
  if (/table|grid/.test(t)) return 'table';
  return null;
}

/** True when the category values read as periods (years, quarters, months, dates). */
export function looksTemporal(values: unknown[]): boolean {
  if (values.length === 0) return false;
  return values.every((v) => {
    if (typeof v === 'number') return Number.isInteger(v) && v >= 1900 && v <= 2100;
    if (typeof v !== 'string') return false;
    const s = v.trim();
    return (
      /^(19|20)\d{2}([-/ ]?(q[1-4]|h[12]|\d{1,2}(-\d{1,2})?|[a-z]{3,9}))?$/i.test(s) ||
      /^(q[1-4]|h[12])[ -]?(19|20)\d{2}$/i.test(s) ||
      /^(19|20)\d{2}-\d{2}-\d{2}(t.*)?$/i.test(s)
    );
  });
}

function seriesFrom(
  raw: unknown,
): { key: string; name?: string; mark?: NormalSeries['mark']; unit?: string } | null {
  if (typeof raw === 'string' && raw.trim() !== '') return { key: raw };
  if (typeof raw === 'number') return { key: String(raw) };
  if (raw && typeof raw === 'object') {
    const o = raw as Record<string, unknown>;
    const key = [o['key'], o['dataKey'], o['field'], o['y'], o['value'], o['id']].find(
      (v) => typeof v === 'string' && v !== '',
    ) as string | undefined;
    const name = [o['name'], o['label'], o['title']].find((v) => typeof v === 'string' && v !== '') as
      string | undefined;
    const resolvedKey = key ?? name;
    if (!resolvedKey) return null;
    const t =
      typeof o['type'] === 'string'
        ? o['type'].toLowerCase()
        : typeof o['mark'] === 'string'
          ? o['mark'].toLowerCase()
          : '';
    const mark = t.includes('line')
      ? 'line'
      : t.includes('area')
        ? 'area'
        : t.includes('bar') || t.includes('column')
          ? 'bar'
          : undefined;
    return {
      key: resolvedKey,
      ...(name ? { name } : {}),
      ...(mark ? { mark } : {}),
      ...(typeof o['unit'] === 'string' ? { unit: o['unit'] } : {}),
    };
  }
  return null;
}

/** Category keys whose order is a scale (stages, bands, ranks), kept as given. */
const ORDERED_KEY = /stage|period|year|quarter|month|date|week|band|range|bucket|bin|rank|round|age/i;
/** Category labels of an ordered scale: numbers, ranges and bounds (`0-20`, `80%+`, `< 1M`). */
const ORDERED_LABEL = /^\s*([<>≤≥~]|\$?\d)/;

/**
 * Whether a chart's bars are sorted by the value they plot: bar charts (vertical, horizontal,
 * stacked) over categories; not bars over periods, stages or bands of a score, whose order is
 * their scale, nor a spec that asks for its own order (`order: 'given'`).
 */
export function sortsByValue(kind: ChartKind, xKey: string, xValues: unknown[], order?: unknown): boolean {
  if (order === 'given') return false;
  if (!['bar', 'hbar', 'stacked', 'hstacked'].includes(kind)) return false;
  if (order === 'value') return true;
  if (ORDERED_KEY.test(xKey) || looksTemporal(xValues)) return false;
  return !xValues.some((v) => typeof v === 'number' || (typeof v === 'string' && ORDERED_LABEL.test(v)));
}

/**
 * Rows sorted by the value they plot, largest first: the first series (stacked bars: the sum of
 * the series); ties and missing values keep their order, missing last; an "Other" bar stays last.
 *
 * @example byValue([{ s: 'A', v: 1 }, { s: 'B', v: 3 }], [{ key: 'v', ... }], 's', 'hbar') // B, A
 */
export function byValue(
  rows: Record<string, unknown>[],
  series: readonly NormalSeries[],
  xKey: string,
  kind: ChartKind,
): Record<string, unknown>[] {
  const plotted = kind === 'stacked' || kind === 'hstacked' ? series : series.slice(0, 1);
  const value = (r: Record<string, unknown>): number | null => {
    const vs = plotted.map((s) => r[s.key]).filter((v): v is number => typeof v === 'number');
    return vs.length === 0 ? null : vs.reduce((a, b) => a + b, 0);
  };
  const isOther = (r: Record<string, unknown>) => {
    const x = r[xKey];
    return typeof x === 'string' && /^other\b/i.test(x.trim());
  };
  return rows
    .map((r, i) => ({ r, i, v: value(r), other: isOther(r) }))
    .sort(
      (a, b) =>
        Number(a.other) - Number(b.other) ||
        (a.v === null ? 1 : 0) - (b.v === null ? 1 : 0) ||
        (b.v ?? 0) - (a.v ?? 0) ||
        a.i - b.i,
    )
    .map((x) => x.r);
}

/**
 * Normalises a service chart spec. Unknown types become a line (periods on x), a bar chart
 * (categories) or a table (no numeric series); nothing here throws.
 */
export function normalizeChart(spec: ChartSpec): NormalChart {
  const requestedType = typeof spec.type === 'string' ? spec.type : '';
  const title = typeof spec.title === 'string' && spec.title.trim() ? spec.title.trim() : '';
  const rawRows = Array.isArray(spec.data)
    ? spec.data.filter((r): r is Record<string, unknown> => !!r && typeof r === 'object' && !Array.isArray(r))
    : [];
  const rows0 = rawRows.slice(0, MAX_ROWS);
  const keys: string[] = [];
  for (const r of rows0) for (const k of Object.keys(r)) if (!keys.includes(k)) keys.push(k);

  const specUnit = unitFromString(typeof spec.unit === 'string' ? spec.unit : null);

  let xKey = typeof spec.xKey === 'string' && keys.includes(spec.xKey) ? spec.xKey : '';
  if (!xKey) {
    xKey =
      keys.find((k) =>
        /^(name|label|category|year|period|date|month|quarter|stage|sector|country|x)$/i.test(k),
      ) ??
      keys.find((k) => !isNumericColumn(rows0, k)) ??
      keys[0] ??
      'x';
  }

  const declared = (Array.isArray(spec.series) ? spec.series : [])
    .map((s) => seriesFrom(s))
    .filter((s): s is NonNullable<typeof s> => s !== null);
  let series = declared.filter(
    (s) => s.key !== xKey && keys.includes(s.key) && isNumericColumn(rows0, s.key),
  );
  if (series.length === 0) {
    series = keys.filter((k) => k !== xKey && isNumericColumn(rows0, k)).map((key) => ({ key }));
  }
  // Drop duplicate keys, keep the first declaration.
  series = series.filter((s, i) => series.findIndex((o) => o.key === s.key) === i);

  const baseUnit: UnitKind = specUnit.kind;
  const normalSeries: NormalSeries[] = series.map((s) => {
    const own = s.unit ? unitFromString(s.unit).kind : null;
    // A series' own unit wins, then what its key names (deals are counts even in a chart whose
    // unit is USD), then the chart's unit.
    const unit = own ?? unitFromKey(s.key) ?? baseUnit;
    return { key: s.key, name: s.name ?? humanizeKey(s.key), mark: s.mark, unit };
  });

  const scale = specUnit.scale;
  const rows = rows0.map((r) => {
    const out: Record<string, unknown> = { ...r };
    for (const s of normalSeries) {
      const n = toNumber(r[s.key]);
      out[s.key] = n === null ? null : s.unit === 'usd' && scale !== 1 ? n * scale : n;
    }
    const x = r[xKey];
    out[xKey] = x === null || x === undefined ? '' : typeof x === 'object' ? JSON.stringify(x) : x;
    return out;
  });

  // Percent given as fractions (all values within [-1, 1]) are formatted as fractions.
  for (const s of normalSeries) {
    if (s.unit !== 'pct') continue;
    const vals = rows.map((r) => r[s.key]).filter((v): v is number => typeof v === 'number');
    if (
      vals.length > 0 &&
      vals.every((v) => Math.abs(v) <= 1) &&
      vals.some((v) => v !== 0 && !Number.isInteger(v))
    )
      s.unit = 'pct-fraction';
  }

  let kind = kindFromType(requestedType);
  const fallback = kind === null;
  const xValues = rows.map((r) => r[xKey]);
  if (kind === null) {
    kind = normalSeries.length === 0 ? 'table' : looksTemporal(xValues) && rows.length > 2 ? 'line' : 'bar';
  }
  if (kind !== 'table' && normalSeries.length === 0) kind = 'table';
  if (kind === 'combo' && normalSeries.length < 2) kind = 'bar';
  // A count next to an amount on one axis is invisible (1,083 deals next to $54B): draw the
  // chart as a combo, the second unit as a line on its own axis.
  if (
    (kind === 'bar' || kind === 'line' || kind === 'area') &&
    new Set(normalSeries.map((s) => unitGroup(s.unit))).size > 1
  )
    kind = 'combo';
  if (kind === 'scatter' && !isNumericColumn(rows, xKey)) kind = normalSeries.length >= 2 ? 'scatter' : 'bar';

  const primaryUnit = normalSeries[0]?.unit ?? baseUnit;
  return {
    kind,
    requestedType,
    fallback,
    title,
    xKey,
    series: kind === 'arc' ? normalSeries.slice(0, 1) : normalSeries,
    rows: sortsByValue(kind, xKey, xValues, spec.order) ? byValue(rows, normalSeries, xKey, kind) : rows,
    unit: primaryUnit,
    unitLabel: primaryUnit === 'count' ? specUnit.label : null,
    donut: /donut|doughnut|ring/i.test(requestedType),
  };
}
