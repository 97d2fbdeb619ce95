/**
 * Services that read the spec otherwise: each variant changes the sandbox's answers on their
 * way back (through the counting proxy) where the spec says "not shown" or leaves a choice:
 * names of keys and ids, totals and paging fields, chart shapes, account and deck fields,
 * optional sections, unknown extra fields, numbers as strings, rate-limit reset formats. The
 * envelope itself stays as the spec shows it.
 */
import type { AnswerTransform, ProxiedAnswer } from './counting-proxy.js';

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => v !== null && typeof v === 'object' && !Array.isArray(v);

export interface ServiceVariant {
  name: string;
  /** What it changes, in a line. */
  description: string;
  /** Changes a successful answer's envelope (a parsed copy; change it in place or return another). */
  envelope?: (operation: string, envelope: Obj) => Obj | void;
  /** Makes what changes any answer's headers and status (e.g. a 429 with another reset format). */
  answers?: () => (answer: ProxiedAnswer) => ProxiedAnswer;
  /**
   * What the variant leaves out, as the reports name it ("stage mix"): these must appear as
   * "not provided by the service" and are the only figures allowed to differ.
   */
  removes: string[];
  /** The variant changes the service's charts (compared by what they draw, not by shape). */
  chartsChanged?: boolean;
  /** The searches give no total (the reports say they paged until a short page). */
  noTotals?: boolean;
}

function rename(o: unknown, from: string, to: string): void {
  if (!isObj(o) || !(from in o)) return;
  o[to] = o[from];
  delete o[from];
}

function eachItem(list: unknown, fn: (item: Obj) => void): void {
  if (Array.isArray(list)) for (const it of list) if (isObj(it)) fn(it);
}

/** Visits every object under `v` (arrays included), parents before children. */
function walk(v: unknown, fn: (o: Obj) => void): void {
  if (Array.isArray(v)) for (const x of v) walk(x, fn);
  else if (isObj(v)) {
    fn(v);
    for (const x of Object.values(v)) walk(x, fn);
  }
}

/** Every number under `v` as a string ("1234", "12.5"). */
function numbersAsStrings(v: unknown): unknown {
  if (typeof v === 'number') return String(v);
  if (Array.isArray(v)) return v.map(numbersAsStrings);
  if (isObj(v)) return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, numbersAsStrings(x)]));
  return v;
}

const httpDate = (d: Date) => d.toUTCString();

export const SERVICE_VARIANTS: ServiceVariant[] = [
  {
    name: 'key-names',
    description:
      'investor keys as normalized_key, startup keys as id, lists and profiles under other names, room_id inside data_room',
    removes: [],
    envelope(op, env) {
      const d = env.data as Obj;
      if (op === 'search_investors') eachItem(d.investors, (i) => rename(i, 'key', 'normalized_key'));
      if (op === 'get_investor') {
        rename(d.investor, 'key', 'normalized_key');
        rename(d, 'investor', 'profile');
      }
      if (op === 'country_overview')
        eachItem(d.most_active_investors, (i) => rename(i, 'key', 'normalized_key'));
      if (op === 'search_startups') {
        eachItem(d.startups, (s) => rename(s, 'key', 'id'));
        rename(d, 'startups', 'results');
      }
      if (op === 'get_startup' && isObj(d.startup)) {
        const s = d.startup;
        delete d.startup;
        rename(s, 'key', 'id');
        Object.assign(d, s);
      }
      if (op === 'analyze_deck' || op === 'get_deck_analysis') {
        d.data_room = { id: d.room_id, status: d.status };
        delete d.room_id;
        delete d.status;
      }
    },
  },
  {
    name: 'paging',
    description:
      'search_investors: total as total_count (a numeric string), next_offset under pagination; search_startups: no total and no next_offset',
    removes: [],
    noTotals: true,
    envelope(op, env) {
      const d = env.data as Obj;
      if (op === 'search_investors') {
        d.total_count = String(d.total);
        d.pagination = { next_offset: d.next_offset, limit: String(d.limit), offset: String(d.offset) };
        for (const k of ['total', 'next_offset', 'limit', 'offset']) delete d[k];
      }
      if (op === 'search_startups') for (const k of ['total', 'next_offset']) delete d[k];
    },
  },
  {
    name: 'charts',
    description:
      'chart series as plain strings, titles null, units missing, an unknown chart type, and a chart without data',
    removes: [],
    chartsChanged: true,
    envelope(op, env) {
      const charts = Array.isArray(env.charts) ? (env.charts as Obj[]) : [];
      charts.forEach((c, i) => {
        if (Array.isArray(c.series))
          c.series = c.series.map((s) => (isObj(s) ? (s.key ?? s.dataKey ?? s.name) : s));
        if (i === 0) c.title = null;
        delete c.unit;
        if (i === 1) c.type = 'sankey-ribbon';
      });
      if (op === 'country_overview')
        charts.push({ type: 'bar', title: 'Deal flow by weekday', xKey: 'day', series: ['deals'], data: [] });
      env.charts = charts;
    },
  },
  {
    name: 'account',
    description:
      'my_account: the plan as an object, the balance as credits.balance (a numeric string), tools as objects, and no credits.remaining in the envelope',
    removes: [],
    envelope(op, env) {
      if (op !== 'my_account') return;
      const d = env.data as Obj;
      d.plan = { name: d.plan, renews: 'monthly' };
      d.credits = { balance: String(d.credits_balance), currency: 'credits' };
      delete d.credits_balance;
      if (Array.isArray(d.tools)) d.tools = d.tools.map((t) => ({ name: t, enabled: true }));
      env.credits = { charged: 0, remaining: null };
    },
  },
  {
    name: 'sections',
    description:
      "country_overview without stage_mix and top_sectors; search_startups' records without their last round",
    removes: ['stage mix', 'top sectors', 'startup last round date', 'startup last round amount'],
    envelope(op, env) {
      const d = env.data as Obj;
      if (op === 'country_overview') {
        delete d.stage_mix;
        delete d.top_sectors;
      }
      if (op === 'search_startups')
        eachItem(d.startups, (s) => {
          delete s.last_round_date;
          delete s.last_round_amount_usd;
        });
    },
  },
  {
    name: 'extras',
    description: 'unknown fields in the envelope, in every object of data and in every chart',
    removes: [],
    envelope(_op, env) {
      const all: Obj[] = [];
      walk(env.data, (o) => all.push(o));
      for (const o of all) o.x_vendor_meta = { trace: 'abc', weights: [1, 2], note: null };
      eachItem(env.charts, (c) => {
        c.x_render_hints = { palette: 'dark' };
      });
      env.meta = { request_id: 'req-1', deprecations: [] };
      env.api_version = '1.0.0';
    },
  },
  {
    name: 'number-strings',
    description: 'every number inside data given as a numeric string',
    removes: [],
    envelope(_op, env) {
      env.data = numbersAsStrings(env.data);
    },
  },
  {
    name: 'reset-formats',
    description:
      'X-RateLimit-Reset as an HTTP date or as seconds to wait, and one 429 on the first startup search that says when to come back as an HTTP date',
    removes: [],
    answers: () => {
      let throttled = false;
      let n = 0;
      return (a: ProxiedAnswer) => {
        n += 1;
        const reset = new Date(Date.now() + 2000);
        if (a.operation === 'search_startups' && !throttled) {
          throttled = true;
          const body = {
            success: false,
            operation: 'search_startups',
            data: null,
            summary: 'Rate limit exceeded.',
            charts: [],
            url: null,
            credits: null,
            error: { code: 'rate_limited', message: 'rate limit exceeded; wait for the reset' },
          };
          const headers: Record<string, string | string[]> = {
            ...a.headers,
            'x-ratelimit-remaining': '0',
            'x-ratelimit-reset': httpDate(reset),
          };
          delete headers['retry-after'];
          return { ...a, status: 429, headers, body: Buffer.from(JSON.stringify(body)) };
        }
        if (a.headers['x-ratelimit-reset'] !== undefined)
          a.headers['x-ratelimit-reset'] = n % 2 === 0 ? httpDate(reset) : '2';
        return a;
      };
    },
  },
];

/** The proxy transform of a variant. */
export function variantTransform(v: ServiceVariant): AnswerTransform {
  const answers = v.answers?.();
  return (a) => {
    let out = answers ? answers(a) : a;
    if (v.envelope && out.status === 200 && out.operation) {
      let env: unknown;
      try {
        env = JSON.parse(out.body.toString('utf8'));
      } catch {
        return out;
      }
      if (isObj(env) && env.success === true && isObj(env.data)) {
        const changed = v.envelope(out.operation, env) ?? env;
        out = { ...out, body: Buffer.from(JSON.stringify(changed)) };
      }
    }
    return out;
  };
}
