/**
 * The generated data holds names in every script reports must print: a few startups and an
 * investor per script, in their countries (the first ones its leaders), deterministically, with
 * Latin keys and domains.
 */
import { expect, it } from 'vitest';
import { generateData, SANDBOX_TEST_AS_OF } from '../../sandbox/data/index.js';
import { SCRIPT_NAMES } from '../../sandbox/data/script-names.js';

it('gives startups and investors of each script their names, in their countries, the same each time', () => {
  const data = generateData({ seed: 42, asOf: SANDBOX_TEST_AS_OF });
  const raised = (s: (typeof data.startups)[number]): number =>
    s.rounds.reduce((sum, i) => sum + (data.rounds[i]?.amount ?? 0), 0);
  for (const entry of SCRIPT_NAMES) {
    // The first names go to the country's leaders: its most funded startup, its best-scored firm.
    const home = data.startups.filter((s) => s.country.name === entry.country);
    expect(home.reduce((a, b) => (raised(b) > raised(a) ? b : a)).name).toBe(entry.startups[0]);
    const firms = data.investors.filter((v) => v.country.name === entry.country && v.type !== 'Angel');
    expect(firms.reduce((a, b) => (b.score > a.score ? b : a)).name).toBe(entry.investors[0]);
    for (const name of entry.startups) {
      const found = data.startups.filter((s) => s.name === name);
      expect(found, name).toHaveLength(1);
      const s = found[0]!;
      expect(s.country.name).toBe(entry.country);
      expect(s.key).toMatch(/^[a-z0-9-]+$/);
      expect(s.domain).toMatch(/^[a-z0-9.-]+$/);
      expect(s.description).toContain(name);
      expect(s.rounds.length).toBeGreaterThan(0);
    }
    for (const name of entry.investors) {
      const found = data.investors.filter((v) => v.name === name);
      expect(found, name).toHaveLength(1);
      expect(found[0]!.country.name).toBe(entry.country);
      expect(found[0]!.type).not.toBe('Angel');
    }
  }
  // Unique names stay unique.
  const lower = data.startups.map((s) => s.name.toLowerCase());
  expect(new Set(lower).size).toBe(lower.length);
  const again = generateData({ seed: 42, asOf: SANDBOX_TEST_AS_OF });
  expect(again.startups.map((s) => s.name)).toEqual(data.startups.map((s) => s.name));
  expect(again.investors.map((v) => v.name)).toEqual(data.investors.map((v) => v.name));
});
