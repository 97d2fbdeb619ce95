import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { INVESTOR_REGIONS, SECTORS } from '../../api/enums.js';
import type { SandboxDatabase } from '../../sandbox/data/index.js';
import {
  COUNTRIES,
  GENERATOR_VERSION,
  LEADING_COUNTRIES,
  REGION_COUNTRIES,
  SANDBOX_TEST_AS_OF,
  STAGES,
  TAXONOMY,
  countriesOfRegion,
  datasetHash,
  generateData,
  openSandboxDatabase,
  resolveCountry,
} from '../../sandbox/data/index.js';

const AS_OF = SANDBOX_TEST_AS_OF;
let sb: SandboxDatabase;
const tempDirs: string[] = [];

function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'vis-data-'));
  tempDirs.push(dir);
  return dir;
}

function all<T>(sql: string, ...params: (string | number)[]): T[] {
  return sb.db.prepare(sql).all(...params) as T[];
}

function one<T>(sql: string, ...params: (string | number)[]): T {
  return sb.db.prepare(sql).get(...params) as T;
}

beforeAll(() => {
  sb = openSandboxDatabase({ asOf: AS_OF });
  console.log(
    `[sandbox-data] default database (seed ${sb.seed}, as of ${sb.asOf}) opened in ${sb.buildMs} ms, fromCache=${sb.fromCache}`,
  );
});

afterAll(() => {
  sb.db.close();
  for (const dir of tempDirs) rmSync(dir, { recursive: true, force: true });
});

describe('generated contents', () => {
  it('has at least 5,000 investors, 20,000 startups, 40,000 rounds in at least 40 countries', () => {
    const c = one<{ i: number; s: number; r: number; countries: number }>(
      `SELECT (SELECT count(*) FROM investors) i, (SELECT count(*) FROM startups) s, (SELECT count(*) FROM rounds) r,
              (SELECT count(DISTINCT hq_country) FROM startups) countries`,
    );
    expect(c.i).toBeGreaterThanOrEqual(5_000);
    expect(c.s).toBeGreaterThanOrEqual(20_000);
    expect(c.r).toBeGreaterThanOrEqual(40_000);
    expect(c.countries).toBeGreaterThanOrEqual(40);
  });

  it('has the meta row of the build', () => {
    const meta = Object.fromEntries(
      all<{ key: string; value: string }>('SELECT key, value FROM meta').map((r) => [r.key, r.value]),
    );
    expect(meta).toMatchObject({
      seed: '42',
      as_of: AS_OF,
      generator_version: GENERATOR_VERSION,
      dataset_hash: sb.hash,
    });
  });

  it('follows real venture markets: the US first, the eight leaders in the top ten', () => {
    const rows = all<{ hq_country: string; n: number }>(
      'SELECT hq_country, count(*) n FROM startups GROUP BY 1 ORDER BY 2 DESC, 1',
    );
    const total = rows.reduce((a, r) => a + r.n, 0);
    expect(rows[0]?.hq_country).toBe('United States');
    expect((rows[0]?.n ?? 0) / total).toBeGreaterThan(0.25);
    expect((rows[0]?.n ?? 0) / (rows[1]?.n ?? 1)).toBeGreaterThan(3);
    const top10 = rows.slice(0, 10).map((r) => r.hq_country);
    for (const leader of LEADING_COUNTRIES) expect(top10).toContain(leader);
    // Investors' HQs follow the same weights.
    const inv = all<{ hq_country: string }>(
      'SELECT hq_country FROM investors GROUP BY 1 ORDER BY count(*) DESC, 1 LIMIT 10',
    ).map((r) => r.hq_country);
    expect(inv[0]).toBe('United States');
    for (const leader of LEADING_COUNTRIES) expect(inv).toContain(leader);
  });

  it('uses exactly the 8 sectors of the spec, with subsectors, tags and descriptions from the taxonomy', () => {
    const sectors = all<{ sector: string }>('SELECT DISTINCT sector FROM startups ORDER BY 1').map(
      (r) => r.sector,
    );
    expect(sectors).toEqual([...SECTORS].sort());
    const startups = all<{
      name: string;
      sector: string;
      subsector: string;
      tags: string;
      description: string;
    }>('SELECT name, sector, subsector, tags, description FROM startups');
    let bad = 0;
    for (const s of startups) {
      const sub = TAXONOMY[s.sector as (typeof SECTORS)[number]].subsectors.find(
        (x) => x.name === s.subsector,
      );
      const tags = JSON.parse(s.tags) as string[];
      const sectorTags = new Set(
        TAXONOMY[s.sector as (typeof SECTORS)[number]].subsectors.flatMap((x) => x.tags),
      );
      const text = s.description.toLowerCase();
      const sentences = s.description.split(/\.\s+/).length;
      if (
        !sub ||
        tags.length < 2 ||
        !tags.every((t) => sectorTags.has(t)) ||
        !sub.keywords.some((k) => text.includes(k)) ||
        !s.description.startsWith(s.name) ||
        sentences > 2
      ) {
        bad++;
      }
    }
    expect(bad).toBe(0);
    const investorSectors = new Set(
      all<{ value: string }>('SELECT DISTINCT j.value FROM investors, json_each(investors.sectors) j').map(
        (r) => r.value,
      ),
    );
    expect([...investorSectors].sort()).toEqual([...SECTORS].sort());
  });

  it('has unique keys, names and domains', () => {
    const d = one<{ names: number; domains: number; n: number; inames: number; ni: number }>(
      `SELECT (SELECT count(DISTINCT lower(name)) FROM startups) names, (SELECT count(DISTINCT domain) FROM startups) domains,
              (SELECT count(*) FROM startups) n, (SELECT count(DISTINCT lower(name)) FROM investors) inames, (SELECT count(*) FROM investors) ni`,
    );
    expect(d.names).toBe(d.n);
    expect(d.domains).toBe(d.n);
    expect(d.inames).toBe(d.ni);
    const badKeys = one<{ n: number }>(
      "SELECT (SELECT count(*) FROM startups WHERE key GLOB '*[^a-z0-9-]*') + (SELECT count(*) FROM investors WHERE key GLOB '*[^a-z0-9-]*') n",
    );
    expect(badKeys.n).toBe(0);
  });

  it("gives every startup a total_raised equal to the sum of its rounds, and its latest round's stage", () => {
    const mismatched = one<{ n: number }>(
      `SELECT count(*) n FROM startups s
       WHERE total_raised_usd != (SELECT coalesce(sum(amount_usd), -1) FROM rounds r WHERE r.startup_key = s.key)
          OR stage != (SELECT stage FROM rounds r WHERE r.startup_key = s.key ORDER BY date DESC, id DESC LIMIT 1)`,
    );
    expect(mismatched.n).toBe(0);
  });

  it('gives every round a lead that is in round_investors, and 0 to 5 other investors', () => {
    const noLead = one<{ n: number }>(
      `SELECT count(*) n FROM rounds r WHERE lead_investor_key IS NULL OR NOT EXISTS
         (SELECT 1 FROM round_investors ri WHERE ri.round_id = r.id AND ri.investor_key = r.lead_investor_key AND ri.is_lead = 1)`,
    );
    expect(noLead.n).toBe(0);
    const sizes = one<{ maxLeads: number; minSize: number; maxSize: number }>(
      `SELECT max(leads) maxLeads, min(size) minSize, max(size) maxSize FROM
         (SELECT sum(is_lead) leads, count(*) size FROM round_investors GROUP BY round_id)`,
    );
    expect(sizes).toEqual({ maxLeads: 1, minSize: 1, maxSize: 6 });
  });

  it('progresses stages over time per startup, with amounts in realistic ranges', () => {
    const rows = all<{ startup_key: string; stage: string }>(
      'SELECT startup_key, stage FROM rounds ORDER BY startup_key, date, id',
    );
    let regressions = 0;
    let prev = { key: '', idx: -1 };
    for (const r of rows) {
      const idx = STAGES.indexOf(r.stage as (typeof STAGES)[number]);
      if (r.startup_key === prev.key && idx < prev.idx) regressions++;
      prev = { key: r.startup_key, idx };
    }
    expect(regressions).toBe(0);
    const medians = new Map<string, number>();
    for (const stage of STAGES) {
      const amounts = all<{ amount_usd: number }>(
        'SELECT amount_usd FROM rounds WHERE stage = ? ORDER BY amount_usd',
        stage,
      ).map((r) => r.amount_usd);
      medians.set(stage, amounts[Math.floor(amounts.length / 2)] ?? 0);
    }
    expect(medians.get('pre-seed')).toBeGreaterThan(200_000);
    expect(medians.get('pre-seed')).toBeLessThan(1_500_000);
    expect(medians.get('seed')).toBeGreaterThan(1_000_000);
    expect(medians.get('seed')).toBeLessThan(5_000_000);
    expect(medians.get('series-a')).toBeGreaterThan(5_000_000);
    expect(medians.get('series-a')).toBeLessThan(25_000_000);
    expect(medians.get('series-b')).toBeGreaterThan(15_000_000);
    expect(medians.get('series-c')).toBeGreaterThan(medians.get('series-b') ?? 0);
    expect(medians.get('growth')).toBeGreaterThan(medians.get('series-c') ?? 0);
  });

  it('follows the market: 2021 peak, 2022 and 2023 down, 2024 flat to up, 2025 up', () => {
    const byYear = new Map(
      all<{ year: number; capital: number; deals: number }>(
        'SELECT year, sum(amount_usd) capital, count(*) deals FROM rounds GROUP BY year',
      ).map((r) => [r.year, r]),
    );
    const cap = (y: number) => byYear.get(y)?.capital ?? 0;
    expect([...byYear.keys()].sort()).toEqual([2020, 2021, 2022, 2023, 2024, 2025, 2026]);
    expect(cap(2021) / cap(2020)).toBeGreaterThanOrEqual(1.6);
    expect(cap(2021) / cap(2020)).toBeLessThanOrEqual(2);
    expect(cap(2022) / cap(2021)).toBeLessThan(0.75);
    expect(cap(2022) / cap(2021)).toBeGreaterThan(0.58);
    expect(cap(2023)).toBeLessThan(cap(2022));
    expect(cap(2024) / cap(2023)).toBeGreaterThanOrEqual(0.97);
    expect(cap(2024) / cap(2023)).toBeLessThan(1.2);
    expect(cap(2025)).toBeGreaterThan(cap(2024) * 1.1);
    const deals = (y: number) => byYear.get(y)?.deals ?? 0;
    expect(deals(2021)).toBeGreaterThan(deals(2020));
    expect(deals(2021)).toBeGreaterThan(deals(2023));
  });

  it('covers 2020-01-01 to the as-of date, with rounds in the last 7 days for every leading country', () => {
    const range = one<{ first: string; last: string }>('SELECT min(date) first, max(date) last FROM rounds');
    expect(range.first >= '2020-01-01').toBe(true);
    expect(range.last).toBe(AS_OF);
    const recent = new Map(
      all<{ hq_country: string; n: number }>(
        `SELECT s.hq_country, count(*) n FROM rounds r JOIN startups s ON s.key = r.startup_key
         WHERE r.date > date(?, '-7 days') AND r.date <= ? GROUP BY 1`,
        AS_OF,
        AS_OF,
      ).map((r) => [r.hq_country, r.n]),
    );
    for (const leader of LEADING_COUNTRIES) expect(recent.get(leader) ?? 0, leader).toBeGreaterThanOrEqual(3);
  });

  it("keeps each investor's history consistent with its profile (sectors, stages, home market, check size)", () => {
    const c = one<{ deals: number; inSector: number; inStage: number; home: number; region: number }>(
      `SELECT count(*) deals,
         avg(EXISTS (SELECT 1 FROM json_each(i.sectors) j WHERE j.value = s.sector)) inSector,
         avg(coalesce(json_extract(i.stage_mix, '$."' || r.stage || '"'), 0) > 0) inStage,
         avg(s.hq_country = i.hq_country) home,
         avg(s.region = i.region) region
       FROM round_investors ri JOIN investors i ON i.key = ri.investor_key
       JOIN rounds r ON r.id = ri.round_id JOIN startups s ON s.key = r.startup_key`,
    );
    expect(c.inSector).toBeGreaterThan(0.95);
    expect(c.inStage).toBeGreaterThan(0.95);
    expect(c.home).toBeGreaterThan(0.5);
    expect(c.region).toBeGreaterThan(0.7);
    const idle = one<{ n: number }>(
      'SELECT count(*) n FROM investors i WHERE NOT EXISTS (SELECT 1 FROM round_investors ri WHERE ri.investor_key = i.key)',
    );
    expect(idle.n).toBe(0);
    // Angels never lead growth rounds; leads' checks fit the round.
    const angelLeadsLate = one<{ n: number }>(
      `SELECT count(*) n FROM rounds r JOIN investors i ON i.key = r.lead_investor_key
       WHERE i.investor_type = 'Angel' AND r.stage IN ('series-c', 'series-d-plus', 'growth')`,
    );
    expect(angelLeadsLate.n).toBe(0);
  });

  it('gives investors plausible profiles: check ranges by type, scores 0-100, theses, teams of 2-6', () => {
    const investors = all<{
      investor_type: string;
      check_min_usd: number;
      check_max_usd: number;
      score: number;
      thesis: string;
      team: string;
      stage_mix: string;
      website: string;
    }>(
      'SELECT investor_type, check_min_usd, check_max_usd, score, thesis, team, stage_mix, website FROM investors',
    );
    for (const inv of investors) {
      expect(inv.check_min_usd).toBeLessThan(inv.check_max_usd);
      expect(inv.score).toBeGreaterThanOrEqual(0);
      expect(inv.score).toBeLessThanOrEqual(100);
      expect(inv.thesis.length).toBeGreaterThan(120);
      expect(inv.website).toMatch(/^https:\/\/[a-z0-9.-]+$/);
      const team = JSON.parse(inv.team) as { name: string; role: string }[];
      expect(team.length).toBeGreaterThanOrEqual(2);
      expect(team.length).toBeLessThanOrEqual(6);
      const mix = JSON.parse(inv.stage_mix) as Record<string, number>;
      expect(Object.keys(mix).every((s) => (STAGES as readonly string[]).includes(s))).toBe(true);
      expect(Object.values(mix).reduce((a, b) => a + b, 0)).toBeCloseTo(1, 1);
      if (inv.investor_type === 'Angel') expect(inv.check_max_usd).toBeLessThanOrEqual(500_000);
    }
    const types = all<{ investor_type: string }>(
      'SELECT DISTINCT investor_type FROM investors ORDER BY 1',
    ).map((r) => r.investor_type);
    expect(types).toEqual(['Accelerator', 'Angel', 'Corporate VC', 'VC']);
  });
});

describe('determinism and cache', () => {
  it('gives the same hash for the same seed and as-of date built in another folder, other data for another seed', () => {
    // One fresh build in a folder of its own, against the database the global setup built (or
    // found) in the default folder: the same seed and as-of date give the same records.
    const a = openSandboxDatabase({ asOf: AS_OF, dataDir: tempDir(), rebuild: true });
    console.log(`[sandbox-data] build (seed 42, as of ${AS_OF}) took ${a.buildMs} ms`);
    try {
      expect(a.fromCache).toBe(false);
      expect(a.hash).toMatch(/^[0-9a-f]{64}$/);
      expect(datasetHash(a.db)).toBe(a.hash);
      expect(a.hash).toBe(sb.hash);
      expect(a.buildMs).toBeLessThan(30_000);
    } finally {
      a.db.close();
    }
    // Another seed gives other records (and so another hash: the hash is of the records, see
    // the cache test below); generating them is enough to see it, a second build is not needed.
    const other = generateData({ seed: 7, asOf: AS_OF });
    const record = (s: { key: string; description: string }) => `${s.key}: ${s.description}`;
    const ours = new Set(
      all<{ key: string; description: string }>('SELECT key, description FROM startups').map(record),
    );
    expect(other.startups).toHaveLength(ours.size);
    expect(other.startups.filter((s) => ours.has(record(s))).length).toBeLessThan(ours.size / 100);
    // One full build (about 15 s on two busy cores) and one generation of the records.
  }, 90_000);

  it('reopens from the cache fast, as a private copy that writes never reach', () => {
    // The default folder holds the file built by the global setup (or by this file's beforeAll).
    const first = openSandboxDatabase({ asOf: AS_OF });
    expect(first.fromCache).toBe(true);
    first.db
      .prepare(
        `INSERT INTO startups (key, name, description, website, domain, hq_city, hq_country, region, sector, subsector, tags, stage, status, founded_year, founders, total_raised_usd)
         VALUES ('test-insert', '=HYPERLINK("x")', 'A test row.', 'https://t.example', 't.example', 'Berlin', 'Germany', 'Europe', 'Finance & Blockchain', 'Payments', '[]', 'seed', 'active', 2024, '[]', 0)`,
      )
      .run();
    expect(first.db.prepare("SELECT count(*) n FROM startups WHERE key = 'test-insert'").get()).toEqual({
      n: 1,
    });
    first.db.close();
    const started = performance.now();
    const again = openSandboxDatabase({ asOf: AS_OF });
    const ms = performance.now() - started;
    console.log(`[sandbox-data] cached open took ${Math.round(ms)} ms`);
    try {
      expect(again.fromCache).toBe(true);
      expect(again.path).toBe(first.path);
      expect(again.hash).toBe(sb.hash);
      expect(again.buildMs).toBeLessThan(1_000);
      expect(ms).toBeLessThan(1_000);
      expect(again.db.prepare("SELECT count(*) n FROM startups WHERE key = 'test-insert'").get()).toEqual({
        n: 0,
      });
      expect(sb.db.prepare("SELECT count(*) n FROM startups WHERE key = 'test-insert'").get()).toEqual({
        n: 0,
      });
      // The copy is writable and the hash sees the change.
      again.db.prepare('UPDATE investors SET score = 0 WHERE key = (SELECT min(key) FROM investors)').run();
      expect(datasetHash(again.db)).not.toBe(again.hash);
    } finally {
      again.db.close();
    }
  });

  it('rejects a malformed as-of date with a clear error', () => {
    expect(() => openSandboxDatabase({ asOf: '2026-13-01', dataDir: tempDir() })).toThrow(
      /asOf is not a calendar date/,
    );
    expect(() => openSandboxDatabase({ asOf: '20261120', dataDir: tempDir() })).toThrow(/YYYY-MM-DD/);
  });
});

describe('reference data', () => {
  it('has at least 45 countries with regions, subregions, aliases and weights, the US far ahead', () => {
    expect(COUNTRIES.length).toBeGreaterThanOrEqual(45);
    const regions = new Set(COUNTRIES.map((c) => c.region));
    expect([...regions].sort()).toEqual([
      'Asia',
      'Europe',
      'Latin America',
      'Middle East & Africa',
      'North America',
      'Oceania',
    ]);
    expect(COUNTRIES[0]?.name).toBe('United States');
    expect((COUNTRIES[0]?.weight ?? 0) / (COUNTRIES[1]?.weight ?? 1)).toBeGreaterThan(3);
    expect(
      COUNTRIES.slice(0, 8)
        .map((c) => c.name)
        .sort(),
    ).toEqual([...LEADING_COUNTRIES].sort());
    for (const c of COUNTRIES) {
      expect(c.iso2).toMatch(/^[A-Z]{2}$/);
      expect(c.cities.length).toBeGreaterThan(0);
      for (const a of c.aliases) expect(a).toBe(a.toLowerCase());
    }
    expect(COUNTRIES.find((c) => c.name === 'Germany')).toMatchObject({ subregion: 'DACH', in_eu: true });
    expect(COUNTRIES.find((c) => c.name === 'Switzerland')).toMatchObject({
      subregion: 'DACH',
      in_eu: false,
    });
  });

  it('resolves country names, codes and aliases case-tolerantly', () => {
    expect(resolveCountry('us')).toBe('United States');
    expect(resolveCountry('USA')).toBe('United States');
    expect(resolveCountry('U.S.A.')).toBe('United States');
    expect(resolveCountry('United States of America')).toBe('United States');
    expect(resolveCountry('uk')).toBe('United Kingdom');
    expect(resolveCountry('Great Britain')).toBe('United Kingdom');
    expect(resolveCountry('england')).toBe('United Kingdom');
    expect(resolveCountry('  germany ')).toBe('Germany');
    expect(resolveCountry('Deutschland')).toBe('Germany');
    expect(resolveCountry('DE')).toBe('Germany');
    expect(resolveCountry('UAE')).toBe('United Arab Emirates');
    expect(resolveCountry('Korea')).toBe('South Korea');
    expect(resolveCountry('the Netherlands')).toBe('Netherlands');
    expect(resolveCountry('Türkiye')).toBe('Turkey');
    expect(resolveCountry('Atlantis')).toBeNull();
    expect(resolveCountry('')).toBeNull();
    for (const c of COUNTRIES) expect(resolveCountry(c.name.toUpperCase())).toBe(c.name);
  });

  it('maps every investor_region value of the spec to canonical countries', () => {
    const names = new Set(COUNTRIES.map((c) => c.name));
    for (const region of INVESTOR_REGIONS) {
      const value = REGION_COUNTRIES[region];
      expect(value, region).toBeDefined();
      if (region === 'global') {
        expect(value).toBe('global');
        expect(countriesOfRegion('Global')).toHaveLength(COUNTRIES.length);
        continue;
      }
      expect(Array.isArray(value) && value.length > 0, region).toBe(true);
      for (const n of value as string[]) expect(names.has(n), `${region}: ${n}`).toBe(true);
    }
    expect(REGION_COUNTRIES.dach).toEqual(expect.arrayContaining(['Germany', 'Austria', 'Switzerland']));
    expect(REGION_COUNTRIES.dach).toHaveLength(3);
    expect(REGION_COUNTRIES.us).toEqual(['United States']);
    expect(REGION_COUNTRIES.uk).toEqual(['United Kingdom']);
    expect(REGION_COUNTRIES.nordics).toEqual(
      expect.arrayContaining(['Sweden', 'Denmark', 'Finland', 'Norway']),
    );
    expect(REGION_COUNTRIES.eu).not.toContain('United Kingdom');
    expect(REGION_COUNTRIES.eu).not.toContain('Switzerland');
    expect(REGION_COUNTRIES.europe).toContain('United Kingdom');
    expect(REGION_COUNTRIES['n america']).toEqual(REGION_COUNTRIES['north america']);
    expect(REGION_COUNTRIES.apac).toEqual(
      expect.arrayContaining(['China', 'India', 'Australia', 'Singapore']),
    );
    expect(REGION_COUNTRIES.mena).toEqual(
      expect.arrayContaining(['Israel', 'United Arab Emirates', 'Saudi Arabia']),
    );
    expect(REGION_COUNTRIES.africa).toEqual(
      expect.arrayContaining(['Nigeria', 'Kenya', 'South Africa', 'Egypt']),
    );
    expect(countriesOfRegion('moon')).toBeNull();
  });

  it('has a taxonomy for exactly the 8 sectors, each offering containing a keyword of its subsector', () => {
    expect(Object.keys(TAXONOMY).sort()).toEqual([...SECTORS].sort());
    expect(TAXONOMY['Finance & Blockchain'].subsectors.find((s) => s.name === 'Payments')).toMatchObject({
      tags: ['payments', 'cross-border', 'merchant'],
      keywords: ['payment', 'checkout', 'remittance'],
    });
    for (const sector of SECTORS) {
      const t = TAXONOMY[sector];
      expect(t.sector).toBe(sector);
      expect(t.subsectors.length).toBeGreaterThanOrEqual(5);
      for (const s of t.subsectors) {
        expect(s.tags.length).toBeGreaterThanOrEqual(3);
        for (const k of s.keywords) expect(k).toBe(k.toLowerCase());
        for (const o of s.offerings)
          expect(
            s.keywords.some((k) => o.toLowerCase().includes(k)),
            `${s.name}: ${o}`,
          ).toBe(true);
      }
    }
  });
});
