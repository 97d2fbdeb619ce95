/**
 * The suppression list: a CRM export read with csv-parse; companies matched by normalised
 * domain, then by normalised name; bad rows counted and quoted, never fatal; an unreadable file
 * names the file (and the line when there is one).
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, test } from 'vitest';
import {
  isSuppressed,
  normaliseDomain,
  normaliseName,
  parseSuppressionList,
  readSuppressionList,
  SuppressionFileError,
} from '../../../jobs/prospect-list/suppression.js';

const dir = mkdtempSync(join(tmpdir(), 'vir-suppress-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

test('domains and names are compared in a normal form', () => {
  expect(normaliseDomain('https://WWW.Acme.io/about?x=1')).toBe('acme.io');
  expect(normaliseDomain('acme.io:8080')).toBe('acme.io');
  expect(normaliseDomain('not a domain')).toBeNull();
  expect(normaliseDomain('')).toBeNull();
  expect(normaliseName('Acme, Inc.')).toBe('acme');
  expect(normaliseName('Zürich Labs GmbH')).toBe('zurich labs');
  expect(normaliseName('Smith & Sons Ltd')).toBe('smith and sons');
  expect(normaliseName('北京科技')).toBe('北京科技');
  expect(normaliseName('Inc.')).toBeNull();
});

test('a HubSpot export (BOM, "Company name" and "Company Domain Name"): matched by domain, then by name', () => {
  const text =
    '\uFEFFRecord ID,Company name,Company Domain Name,City\r\n' +
    '1,Acme Inc,acme.io,Berlin\r\n' +
    '2,"Beta, GmbH",,Munich\r\n' +
    '3,,https://www.gamma.ai/,Paris\r\n' +
    '4,,,Rome\r\n' +
    '5,,not a domain,Rome\r\n';
  const list = parseSuppressionList(text, 'hubspot.csv');
  expect(list.rows).toBe(5);
  expect([...list.domains].sort()).toEqual(['acme.io', 'gamma.ai']);
  expect(list.malformed).toBe(2);
  expect(list.examples).toEqual([
    { line: 5, reason: 'no domain nor name ("4,,,Rome")' },
    { line: 6, reason: '"not a domain" is not a domain and the row has no name' },
  ]);
  expect(isSuppressed(list, { domain: 'https://acme.io', name: 'Other' })).toBe('domain');
  expect(isSuppressed(list, { domain: 'beta.de', name: 'BETA gmbh' })).toBe('name');
  expect(isSuppressed(list, { domain: 'delta.io', name: 'Delta' })).toBeNull();
});

test('a semicolon-separated export with several domains in a cell', () => {
  const list = parseSuppressionList('Name;Domains\nOne;one.com, one.de\nTwo;two.org\n', 'attio.csv');
  expect([...list.domains].sort()).toEqual(['one.com', 'one.de', 'two.org']);
  expect(list.malformed).toBe(0);
});

test('files that cannot be used are refused, naming the file and the line', async () => {
  await expect(readSuppressionList(join(dir, 'missing.csv'))).rejects.toThrow(
    `suppression list ${join(dir, 'missing.csv')}: cannot be read (ENOENT)`,
  );
  expect(() => parseSuppressionList('Phone,City\n1,Berlin\n', 'x.csv')).toThrow(
    /suppression list x\.csv, line 1: no column names the company/,
  );
  const broken = join(dir, 'broken.csv');
  writeFileSync(broken, 'Name,Domain\n"Acme,acme.io\nBeta,beta.io\n');
  const err = await readSuppressionList(broken).catch((e: unknown) => e);
  expect(err).toBeInstanceOf(SuppressionFileError);
  expect((err as Error).message).toMatch(
    /^suppression list .*broken\.csv, line \d+: not a readable CSV file/,
  );
  expect(() => parseSuppressionList('', 'empty.csv')).toThrow(/empty\.csv: is empty/);
});
