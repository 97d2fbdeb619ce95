/**
 * The data agent's patterns over startups, investors and one named investor or startup, asked
 * of the real generated database. Each pattern is asked in two or more wordings, its numbers
 * checked against SQL written independently here.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { AS_OF, askBed, intText, RJ, usdText, type Row } from './ask-bed.js';

const { all, ask, one } = askBed();

describe('ask: startups', () => {
  it('startup_count: fintech startups in France, and startups that raised a series A', () => {
    const w = one(
      `SELECT COUNT(*) n FROM startups WHERE hq_country = 'France' AND sector = 'Finance & Blockchain'`,
    );
    for (const q of [
      'How many fintech startups are in France?',
      'number of Finance & Blockchain startups in France',
    ]) {
      const a = ask(q, 'startup_count');
      expect(a.rows[0]!.startups).toBe(w.n);
    }
    const raised = one(
      `SELECT COUNT(DISTINCT s.key) n ${RJ} WHERE s.hq_country = 'Germany' AND r.stage = 'series-a' AND r.year = 2023`,
    );
    const b = ask('how many startups raised a series A in Germany in 2023', 'startup_count');
    expect(b.rows[0]!.startups).toBe(raised.n);
  });

  it('startups_per_sector: number of startups per sector in Canada (two wordings)', () => {
    const w = all(
      `SELECT sector k, COUNT(*) n FROM startups WHERE hq_country = 'Canada' GROUP BY sector ORDER BY n DESC, sector`,
    );
    for (const q of [
      'number of startups per sector in Canada',
      'how many startups in each sector in Canada',
    ]) {
      const a = ask(q, 'startups_per_sector');
      expect(a.rows.map((r) => [r.sector, r.startups])).toEqual(w.map((x) => [x.k, x.n]));
    }
  });

  it('startups_per_country and startups_per_city', () => {
    const w = all(
      `SELECT hq_country k, COUNT(*) n FROM startups GROUP BY hq_country ORDER BY n DESC LIMIT 5`,
    );
    const a = ask('which countries have the most startups', 'startups_per_country');
    expect(a.rows.slice(0, 5).map((r) => [r.country, r.startups])).toEqual(w.map((x) => [x.k, x.n]));
    const c = all(
      `SELECT hq_city k, COUNT(*) n FROM startups WHERE hq_country = 'Germany' GROUP BY hq_city ORDER BY n DESC`,
    );
    const b = ask('startups per city in Germany', 'startups_per_city');
    expect(b.rows.map((r) => [r.city, r.startups])).toEqual(c.map((x) => [x.k, x.n]));
  });

  it('startups_by_stage and startups_by_status', () => {
    const w = all(`SELECT stage k, COUNT(*) n FROM startups WHERE hq_country = 'Canada' GROUP BY stage`);
    const a = ask('startups by stage in Canada', 'startups_by_stage');
    expect(Object.fromEntries(a.rows.map((r) => [r.stage, r.startups]))).toEqual(
      Object.fromEntries(w.map((x) => [x.k, x.n])),
    );
    const acquired = one(
      `SELECT COUNT(*) n FROM startups WHERE hq_country = 'United Kingdom' AND status = 'acquired'`,
    );
    for (const q of [
      'how many startups were acquired in the UK',
      'acquired startups status breakdown in the United Kingdom',
    ]) {
      const b = ask(q, 'startups_by_status');
      expect(b.rows.find((r) => r.status === 'acquired')?.startups).toBe(acquired.n);
      expect(b.answer).toContain(`${intText(acquired.n)} of`);
    }
  });

  it('startups_founded: per year in Germany, and in one year', () => {
    const w = all(
      `SELECT founded_year k, COUNT(*) n FROM startups WHERE hq_country = 'Germany' GROUP BY founded_year ORDER BY founded_year`,
    );
    const a = ask('how many startups were founded each year in Germany', 'startups_founded');
    expect(a.rows.map((r) => [r.founded_year, r.startups])).toEqual(w.map((x) => [x.k, x.n]));
    const y = one(
      `SELECT COUNT(*) n FROM startups WHERE founded_year = 2021 AND sector = 'Finance & Blockchain'`,
    );
    const b = ask('fintech startups founded in 2021', 'startups_founded');
    expect(b.rows[0]).toEqual({ founded_year: 2021, startups: y.n });
  });

  it('top_funded_startups: in AI and in Israel (two wordings)', () => {
    const w = all(
      `SELECT s.name k, SUM(amount_usd) v ${RJ} WHERE s.sector = 'Artificial Intelligence & Data' GROUP BY s.key ORDER BY v DESC, s.name LIMIT 10`,
    );
    const a = ask('Which startups raised the most in AI?', 'top_funded_startups');
    expect(a.rows.map((r) => [r.startup, r.raised_usd])).toEqual(w.map((x) => [x.k, x.v]));
    const il = all(
      `SELECT s.name k, SUM(amount_usd) v ${RJ} WHERE s.hq_country = 'Israel' GROUP BY s.key ORDER BY v DESC, s.name LIMIT 5`,
    );
    const b = ask('top 5 funded startups in Israel', 'top_funded_startups');
    expect(b.rows.map((r) => [r.startup, r.raised_usd])).toEqual(il.map((x) => [x.k, x.v]));
  });

  it('startups_that_raised: startups in Berlin that raised a series B (two wordings)', () => {
    const w = all(
      `SELECT s.name k, r.date d ${RJ} WHERE s.hq_city = 'Berlin' AND r.stage = 'series-b' ORDER BY r.date DESC, r.id`,
    );
    for (const q of [
      'startups in Berlin that raised a series B',
      'Which companies in Berlin closed a Series B?',
    ]) {
      const a = ask(q, 'startups_that_raised');
      expect(a.rows[0]!.total).toBe(w.length);
      expect(a.rows.map((r) => r.startup)).toEqual(w.slice(0, 100).map((x) => x.k));
      expect(a.answer).toContain(`${intText(w.length)} Series B rounds`);
    }
  });
});

describe('ask: investors', () => {
  const dealsSql = (extra: string) =>
    `SELECT i.name k, COUNT(*) n, SUM(ri.is_lead) l FROM round_investors ri JOIN rounds r ON r.id = ri.round_id JOIN startups s ON s.key = r.startup_key JOIN investors i ON i.key = ri.investor_key WHERE ${extra} GROUP BY i.key`;

  it('top_investors_by_deals: top 10 by number of deals in France (two wordings)', () => {
    const w = all(
      `${dealsSql("s.hq_country = 'France'")} ORDER BY n DESC, SUM(r.amount_usd) DESC, i.name LIMIT 10`,
    );
    for (const q of [
      'top 10 investors by number of deals in France',
      'Who are the most active investors in France?',
    ]) {
      const a = ask(q, 'top_investors_by_deals');
      expect(a.rows.map((r) => [r.investor, r.deals])).toEqual(w.map((x) => [x.k, x.n]));
    }
  });

  it('top_lead_investors: Healthcare & Life Sciences since 2022 (two wordings)', () => {
    const w = all(
      `${dealsSql(`ri.is_lead = 1 AND s.sector = 'Healthcare & Life Sciences' AND r.date BETWEEN '2022-01-01' AND '${AS_OF}'`)} ORDER BY l DESC, SUM(r.amount_usd) DESC, i.name LIMIT 10`,
    );
    for (const q of [
      'most active lead investors in Healthcare & Life Sciences since 2022',
      'Which investors led the most healthcare rounds since 2022?',
    ]) {
      const a = ask(q, 'top_lead_investors');
      expect(a.rows.map((r) => [r.investor, r.lead_deals])).toEqual(w.map((x) => [x.k, x.l]));
    }
  });

  it('top_investors_by_score: highest rated investors in Germany', () => {
    const w = all(
      `SELECT name k FROM investors WHERE hq_country = 'Germany' ORDER BY score DESC, key LIMIT 10`,
    );
    for (const q of ['highest rated investors in Germany', 'best scoring investors based in Germany']) {
      const a = ask(q, 'top_investors_by_score');
      expect(a.rows.map((r) => r.investor)).toEqual(w.map((x) => x.k));
    }
  });

  it('investor_count: VCs in the UK, angels in Israel', () => {
    const vc = one(
      `SELECT COUNT(*) n FROM investors WHERE hq_country = 'United Kingdom' AND investor_type = 'VC'`,
    );
    const a = ask('How many VCs are in the UK?', 'investor_count');
    expect(a.rows[0]!.investors).toBe(vc.n);
    const an = one(
      `SELECT COUNT(*) n FROM investors WHERE hq_country = 'Israel' AND investor_type = 'Angel'`,
    );
    const b = ask('number of angel investors in Israel', 'investor_count');
    expect(b.rows[0]!.investors).toBe(an.n);
  });

  it('investor_list: angel investors in Israel (two wordings)', () => {
    const w = all(
      `SELECT name k FROM investors WHERE hq_country = 'Israel' AND investor_type = 'Angel' ORDER BY score DESC, key LIMIT 25`,
    );
    for (const q of ['list angel investors in Israel', 'show me business angels in Israel']) {
      const a = ask(q, 'investor_list');
      expect(a.rows.map((r) => r.investor)).toEqual(w.map((x) => x.k));
      expect(a.rows.every((r) => r.investor_type === 'Angel' && r.hq_country === 'Israel')).toBe(true);
    }
  });

  it('investors_per_country and investor_types', () => {
    const w = all(
      `SELECT hq_country k, COUNT(*) n FROM investors GROUP BY hq_country ORDER BY n DESC, hq_country LIMIT 5`,
    );
    const a = ask('which countries have the most investors', 'investors_per_country');
    expect(a.rows.slice(0, 5).map((r) => [r.country, r.investors])).toEqual(w.map((x) => [x.k, x.n]));
    const t = all(
      `SELECT investor_type k, COUNT(*) n FROM investors WHERE hq_country = 'Germany' GROUP BY investor_type`,
    );
    for (const q of ['investor types in Germany', 'how many investors of each type are in Germany']) {
      const b = ask(q, 'investor_types');
      expect(Object.fromEntries(b.rows.map((r) => [r.investor_type, r.investors]))).toEqual(
        Object.fromEntries(t.map((x) => [x.k, x.n])),
      );
    }
  });
});

describe('ask: one named investor or startup', () => {
  let investor: Row;
  let startup: Row;
  beforeAll(() => {
    investor = one(
      `SELECT i.key, i.name, COUNT(*) n FROM round_investors ri JOIN investors i ON i.key = ri.investor_key GROUP BY i.key ORDER BY n DESC, i.key LIMIT 1`,
    );
    startup = one(
      `SELECT s.key, s.name, COUNT(*) n FROM rounds r JOIN startups s ON s.key = r.startup_key GROUP BY s.key HAVING n >= 3 ORDER BY s.key LIMIT 1`,
    );
  });

  it('investor_portfolio (two wordings)', () => {
    for (const q of [`Which startups did ${investor.name} invest in?`, `portfolio of ${investor.name}`]) {
      const a = ask(q, 'investor_portfolio');
      expect(a.rows[0]!.total).toBe(investor.n);
      expect((a.interpretation as Row).entity).toMatchObject({ kind: 'investor', key: investor.key });
    }
  });

  it('investor_activity_by_year', () => {
    const w = all(
      `SELECT r.year y, COUNT(*) n FROM round_investors ri JOIN rounds r ON r.id = ri.round_id WHERE ri.investor_key = ? GROUP BY r.year ORDER BY r.year`,
      investor.key,
    );
    const a = ask(`How many deals did ${investor.name} do per year?`, 'investor_activity_by_year');
    expect(a.rows.map((r) => [r.year, r.deals])).toEqual(w.map((x) => [x.y, x.n]));
  });

  it('co_investors', () => {
    const w = all(
      `SELECT b.investor_key k, COUNT(*) n FROM round_investors a JOIN round_investors b ON b.round_id = a.round_id AND b.investor_key <> a.investor_key WHERE a.investor_key = ? GROUP BY b.investor_key ORDER BY n DESC LIMIT 1`,
      investor.key,
    );
    const a = ask(`Who co-invests most with ${investor.name}?`, 'co_investors');
    expect(a.rows[0]!.shared_rounds).toBe(w[0]!.n);
  });

  it('startup_funding (two wordings)', () => {
    const w = one(`SELECT COUNT(*) n, SUM(amount_usd) c FROM rounds WHERE startup_key = ?`, startup.key);
    for (const q of [`Who invested in ${startup.name}?`, `funding rounds of ${startup.name}`]) {
      const a = ask(q, 'startup_funding');
      expect(a.rows.length).toBe(w.n);
      expect(a.answer).toContain(usdText(w.c));
    }
  });
});
