/**
 * The data agent's patterns over funding rounds, asked of the real generated database: counts
 * and totals, breakdowns over time, rankings and stage breakdowns, round sizes and lists. Each
 * pattern is asked in two or more wordings, its numbers checked against SQL written
 * independently here.
 */
import { describe, expect, it } from 'vitest';
import { AS_OF, askBed, intText, RJ, usdText, type Row } from './ask-bed.js';

const { all, ask, one } = askBed();

describe('ask: round counts and totals', () => {
  it('round_count: seed rounds in Germany in 2023 (two wordings)', () => {
    const want = one(
      `SELECT COUNT(*) n, SUM(amount_usd) c ${RJ} WHERE s.hq_country = 'Germany' AND r.stage = 'seed' AND r.year = 2023`,
    );
    for (const q of [
      'how many seed rounds in Germany in 2023',
      'Number of seed deals in German startups during 2023?',
    ]) {
      const a = ask(q, 'round_count');
      expect(a.rows[0]).toEqual({ rounds: want.n, capital_usd: want.c });
      expect(a.answer).toContain(`${intText(want.n)} seed rounds in Germany in 2023`);
      expect(a.answer).toContain(usdText(want.c));
    }
  });

  it('round_count with a size bound and a region', () => {
    const eu = all(`SELECT name FROM countries WHERE region = 'Europe'`).map((r) => r.name as string);
    const want = one(
      `SELECT COUNT(*) n ${RJ} WHERE r.amount_usd >= 50000000 AND r.year = 2024 AND s.hq_country IN (${eu.map(() => '?').join(',')})`,
      ...eu,
    );
    const a = ask('count of rounds above $50M in Europe in 2024', 'round_count');
    expect(a.rows[0]!.rounds).toBe(want.n);
  });

  it('capital_total: fintech capital in 2024 (two wordings)', () => {
    const want = one(
      `SELECT SUM(amount_usd) c, COUNT(*) n ${RJ} WHERE s.sector = 'Finance & Blockchain' AND r.year = 2024`,
    );
    for (const q of [
      'How much capital was raised in fintech in 2024?',
      'total funding for Finance & Blockchain startups in 2024',
    ]) {
      const a = ask(q, 'capital_total');
      expect(a.rows[0]).toEqual({ capital_usd: want.c, rounds: want.n });
      expect(a.answer).toContain(usdText(want.c));
    }
  });

  it('capital_total since a year in a country', () => {
    const want = one(
      `SELECT SUM(amount_usd) c ${RJ} WHERE s.hq_country = 'France' AND r.date >= '2022-01-01' AND r.date <= ?`,
      AS_OF,
    );
    const a = ask('how much did startups in France raise since 2022', 'capital_total');
    expect(a.rows[0]!.capital_usd).toBe(want.c);
  });
});

describe('ask: breakdowns over time', () => {
  it('capital_by_year: fintech by year (two wordings), with a chart', () => {
    const want = all(
      `SELECT r.year y, SUM(amount_usd) c, COUNT(*) n ${RJ} WHERE s.sector = 'Finance & Blockchain' GROUP BY r.year ORDER BY r.year`,
    );
    for (const q of [
      'total capital raised in fintech by year',
      'How has fintech funding evolved over time?',
    ]) {
      const a = ask(q, 'capital_by_year');
      expect(a.rows.map((r) => [r.year, r.capital_usd, r.deals])).toEqual(want.map((w) => [w.y, w.c, w.n]));
      expect(a.charts[0]!.xKey).toBe('year');
      expect(a.charts[0]!.series).toContainEqual(expect.objectContaining({ key: 'capital_usd' }));
    }
  });

  it('deals_by_year: number of deals per year in France (two wordings)', () => {
    const want = all(
      `SELECT r.year y, COUNT(*) n ${RJ} WHERE s.hq_country = 'France' GROUP BY r.year ORDER BY r.year`,
    );
    for (const q of [
      'number of deals per year in France',
      'How many rounds were there each year in France?',
    ]) {
      const a = ask(q, 'deals_by_year');
      expect(a.rows.map((r) => [r.year, r.deals])).toEqual(want.map((w) => [w.y, w.n]));
    }
  });

  it('deals_by_quarter: deal count by quarter in 2025 (two wordings)', () => {
    const want = all(
      `SELECT (CAST(strftime('%m', date) AS INTEGER) + 2) / 3 q, COUNT(*) n FROM rounds WHERE year = 2025 GROUP BY q ORDER BY q`,
    );
    for (const q of ['deal count by quarter in 2025', 'how many rounds per quarter in 2025']) {
      const a = ask(q, 'deals_by_quarter');
      expect(a.rows.map((r) => r.quarter)).toEqual(want.map((w) => `2025-Q${w.q}`));
      expect(a.rows.map((r) => r.deals)).toEqual(want.map((w) => w.n));
    }
  });

  it('capital_by_quarter: quarterly funding in the US since 2023', () => {
    const want = one(
      `SELECT SUM(amount_usd) c ${RJ} WHERE s.hq_country = 'United States' AND r.date BETWEEN '2023-01-01' AND ?`,
      AS_OF,
    );
    const a = ask('quarterly capital raised in the US since 2023', 'capital_by_quarter');
    expect(a.rows.reduce((t, r) => t + Number(r.capital_usd), 0)).toBe(want.c);
    expect(a.rows[0]!.quarter).toBe('2023-Q1');
  });

  it('deals_by_month and capital_by_month', () => {
    const want = all(
      `SELECT strftime('%Y-%m', r.date) m, COUNT(*) n, SUM(amount_usd) c ${RJ} WHERE s.hq_country = 'United Kingdom' AND r.year = 2024 GROUP BY m ORDER BY m`,
    );
    const a = ask('number of deals per month in the UK in 2024', 'deals_by_month');
    expect(a.rows.map((r) => [r.month, r.deals])).toEqual(want.map((w) => [w.m, w.n]));
    const b = ask('monthly funding in 2024 in the United Kingdom', 'capital_by_month');
    expect(b.rows.map((r) => [r.month, r.capital_usd])).toEqual(want.map((w) => [w.m, w.c]));
  });

  it('funding_change: AI funding from 2021 to 2023 (two wordings)', () => {
    const w = all(
      `SELECT r.year y, SUM(amount_usd) c, COUNT(*) n ${RJ} WHERE s.sector = 'Artificial Intelligence & Data' AND r.year IN (2021, 2023) GROUP BY r.year ORDER BY r.year`,
    );
    for (const q of ['how did AI funding change from 2021 to 2023', 'AI capital raised 2021 vs 2023']) {
      const a = ask(q, 'funding_change');
      expect(a.rows.map((r) => [r.year, r.capital_usd, r.deals])).toEqual(w.map((x) => [x.y, x.c, x.n]));
      const pct = (100 * (w[1]!.c - w[0]!.c)) / w[0]!.c;
      expect(a.answer).toContain(`${pct >= 0 ? '+' : ''}${Number(pct.toFixed(1))}%`);
    }
  });

  it('fastest_growing_sectors between two years', () => {
    const w = all(
      `SELECT s.sector sector, SUM(CASE WHEN r.year = 2023 THEN amount_usd ELSE 0 END) a, SUM(CASE WHEN r.year = 2024 THEN amount_usd ELSE 0 END) b ${RJ} WHERE r.year IN (2023, 2024) GROUP BY s.sector`,
    )
      .map((r) => ({ sector: r.sector, g: Math.round((1000 * (r.b - r.a)) / r.a) / 10 }))
      .sort((x, y) => y.g - x.g);
    for (const q of [
      'fastest growing sectors from 2023 to 2024',
      'which sectors grew the most 2023 vs 2024',
    ]) {
      const a = ask(q, 'fastest_growing_sectors');
      expect(a.rows[0]!.sector).toBe(w[0]!.sector);
      expect(Number(a.rows[0]!.growth_pct)).toBeCloseTo(w[0]!.g, 1);
    }
  });
});

describe('ask: rankings and breakdowns', () => {
  it('top_countries_by_capital: which countries raised the most in 2024 (two wordings)', () => {
    const w = all(
      `SELECT s.hq_country c, SUM(amount_usd) v ${RJ} WHERE r.year = 2024 GROUP BY s.hq_country ORDER BY v DESC LIMIT 10`,
    );
    for (const q of ['which countries raised the most in 2024', 'Top countries by capital raised in 2024']) {
      const a = ask(q, 'top_countries_by_capital');
      expect(a.rows.map((r) => [r.country, r.capital_usd])).toEqual(w.map((x) => [x.c, x.v]));
      expect(a.answer).toContain(w[0]!.c);
    }
  });

  it('top_countries_by_deals: top 5 countries by number of seed rounds', () => {
    const w = all(
      `SELECT s.hq_country c, COUNT(*) n ${RJ} WHERE r.stage = 'seed' GROUP BY s.hq_country ORDER BY n DESC LIMIT 5`,
    );
    const a = ask('top 5 countries by number of seed rounds', 'top_countries_by_deals');
    expect(a.rows.map((r) => [r.country, r.deals])).toEqual(w.map((x) => [x.c, x.n]));
  });

  it('top_sectors_by_capital and top_sectors_by_deals in a country', () => {
    const cap = all(
      `SELECT s.sector k, SUM(amount_usd) v ${RJ} WHERE s.hq_country = 'Germany' GROUP BY s.sector ORDER BY v DESC`,
    );
    const a = ask('which sectors raised the most money in Germany', 'top_sectors_by_capital');
    expect(a.rows.map((r) => [r.sector, r.capital_usd])).toEqual(cap.map((x) => [x.k, x.v]));
    const deals = all(
      `SELECT s.sector k, COUNT(*) n ${RJ} WHERE s.hq_country = 'United Kingdom' GROUP BY s.sector ORDER BY n DESC`,
    );
    for (const q of [
      'top sectors by number of rounds in the UK',
      'Which sectors had the most deals in the United Kingdom?',
    ]) {
      const b = ask(q, 'top_sectors_by_deals');
      expect(b.rows.map((r) => [r.sector, r.deals])).toEqual(deals.map((x) => [x.k, x.n]));
    }
  });

  it('top_cities_by_capital and top_cities_by_deals', () => {
    const cap = all(
      `SELECT s.hq_city k, SUM(amount_usd) v ${RJ} WHERE s.hq_country = 'United States' GROUP BY s.hq_city ORDER BY v DESC LIMIT 10`,
    );
    const a = ask('which cities raised the most in the US', 'top_cities_by_capital');
    expect(a.rows.map((r) => [r.city, r.capital_usd])).toEqual(cap.map((x) => [x.k, x.v]));
    const deals = all(
      `SELECT s.hq_city k, COUNT(*) n ${RJ} WHERE s.hq_country = 'India' GROUP BY s.hq_city ORDER BY n DESC LIMIT 10`,
    );
    const b = ask('top cities by number of deals in India', 'top_cities_by_deals');
    expect(b.rows.map((r) => [r.city, r.deals])).toEqual(deals.map((x) => [x.k, x.n]));
  });

  it('capital_by_region and deals_by_region', () => {
    const w = all(
      `SELECT c.region k, SUM(amount_usd) v, COUNT(*) n ${RJ} JOIN countries c ON c.name = s.hq_country WHERE r.year = 2024 GROUP BY c.region ORDER BY v DESC`,
    );
    for (const q of ['funding by region in 2024', 'Which regions raised the most capital in 2024?']) {
      const a = ask(q, 'capital_by_region');
      expect(a.rows.map((r) => [r.region, r.capital_usd])).toEqual(w.map((x) => [x.k, x.v]));
    }
    const b = ask('number of deals by region in 2024', 'deals_by_region');
    expect(b.rows.reduce((t, r) => t + Number(r.deals), 0)).toBe(w.reduce((t, x) => t + Number(x.n), 0));
  });

  it('rounds_by_stage: stage mix in the UK in 2024 (two wordings)', () => {
    const w = all(
      `SELECT r.stage k, COUNT(*) n ${RJ} WHERE s.hq_country = 'United Kingdom' AND r.year = 2024 GROUP BY r.stage`,
    );
    for (const q of [
      'deals by stage in the UK in 2024',
      'stage breakdown of rounds in the United Kingdom in 2024',
    ]) {
      const a = ask(q, 'rounds_by_stage');
      expect(Object.fromEntries(a.rows.map((r) => [r.stage, r.deals]))).toEqual(
        Object.fromEntries(w.map((x) => [x.k, x.n])),
      );
      expect(a.rows[0]!.stage).toBe('pre-seed');
    }
  });

  it('round_size_by_stage: median and average per stage in Europe', () => {
    const eu = all(`SELECT name FROM countries WHERE region = 'Europe'`).map((r) => r.name as string);
    const seed = all(
      `SELECT amount_usd x ${RJ} WHERE r.stage = 'seed' AND s.hq_country IN (${eu.map(() => '?').join(',')}) ORDER BY amount_usd`,
      ...eu,
    ).map((r) => r.x as number);
    const mid = Math.floor(seed.length / 2);
    const median = seed.length % 2 ? seed[mid]! : (seed[mid - 1]! + seed[mid]!) / 2;
    const a = ask('median round size by stage in Europe', 'round_size_by_stage');
    const row = a.rows.find((r) => r.stage === 'seed')!;
    expect(row.median_usd).toBe(median);
    expect(row.rounds).toBe(seed.length);
    expect(Number(row.average_usd)).toBeCloseTo(seed.reduce((t, x) => t + x, 0) / seed.length, 3);
  });
});

describe('ask: round sizes and lists', () => {
  it('median_round: median series A size in the US (two wordings)', () => {
    const xs = all(
      `SELECT amount_usd x ${RJ} WHERE r.stage = 'series-a' AND s.hq_country = 'United States' ORDER BY amount_usd`,
    ).map((r) => r.x as number);
    const mid = Math.floor(xs.length / 2);
    const median = xs.length % 2 ? xs[mid]! : (xs[mid - 1]! + xs[mid]!) / 2;
    for (const q of [
      'median series A size in the US',
      'What is the median Series-A round for American startups?',
    ]) {
      const a = ask(q, 'median_round');
      expect(a.rows[0]).toEqual({ median_usd: median, rounds: xs.length });
      expect(a.answer).toContain(usdText(median));
    }
  });

  it('average_round: average seed round in India (two wordings)', () => {
    const w = one(
      `SELECT AVG(amount_usd) a, COUNT(*) n, MIN(amount_usd) lo, MAX(amount_usd) hi ${RJ} WHERE r.stage = 'seed' AND s.hq_country = 'India'`,
    );
    for (const q of ['average seed round in India', 'typical seed round size for Indian startups']) {
      const a = ask(q, 'average_round');
      expect(Number(a.rows[0]!.average_usd)).toBeCloseTo(w.a, 3);
      expect(a.rows[0]!.rounds).toBe(w.n);
      expect(a.answer).toContain(usdText(w.a));
    }
  });

  it('largest_rounds: last 7 days in the United Kingdom (two wordings)', () => {
    const w = all(
      `SELECT s.name n, amount_usd x ${RJ} WHERE s.hq_country = 'United Kingdom' AND r.date BETWEEN '2026-11-14' AND ? ORDER BY amount_usd DESC, r.date DESC, r.id LIMIT 10`,
      AS_OF,
    );
    expect(w.length).toBeGreaterThan(0);
    for (const q of [
      'largest rounds of the last 7 days in the United Kingdom',
      'biggest deals in the UK in the past 7 days',
    ]) {
      const a = ask(q, 'largest_rounds');
      expect(a.rows.map((r) => [r.startup, r.amount_usd])).toEqual(w.map((x) => [x.n, x.x]));
      expect((a.interpretation as Row).period).toEqual({
        from: '2026-11-14',
        to: AS_OF,
        label: 'in the last 7 days',
      });
    }
  });

  it('latest_rounds: latest seed rounds in Germany', () => {
    const w = all(
      `SELECT s.name n, r.date d ${RJ} WHERE s.hq_country = 'Germany' AND r.stage = 'seed' ORDER BY r.date DESC, amount_usd DESC, r.id LIMIT 10`,
    );
    for (const q of ['latest seed rounds in Germany', 'most recent seed deals in Germany']) {
      const a = ask(q, 'latest_rounds');
      expect(a.rows.map((r) => [r.startup, r.date])).toEqual(w.map((x) => [x.n, x.d]));
    }
  });
});
