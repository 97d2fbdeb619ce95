/**
 * The deck triage's part of the service variants' test (test/jobs/service-variants.test.ts):
 * two of the example decks (a PDF and a PPTX) served over https with the test process'
 * certificate (the sandbox and the workers trust it), and the report's model, which is the same
 * whatever the variant (the data room's id and status under `data_room`, unknown fields, numbers
 * as strings), but for the data rooms' ids, which the service makes anew for every analysis.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect } from 'vitest';
import { EXAMPLE_DECKS } from '../../../jobs/deck-triage/examples/deck-slides.js';
import type { DeckTriageReport } from '../../../jobs/deck-triage/types.js';
import { serveExampleDecks } from '../../fixtures/decks/example-host.js';
import type { VariantCase } from '../../helpers/variant-cases.js';

const decks = [EXAMPLE_DECKS.find((d) => d.kind === 'pdf')!, EXAMPLE_DECKS.find((d) => d.kind === 'pptx')!];
const server = await serveExampleDecks(decks, {}, { unref: true });

export const variantCase: VariantCase = {
  smaller(j) {
    const sources = j.decks as { urls: string[]; names: Record<string, string> };
    sources.urls = decks.map(server.linkOf);
    sources.names = Object.fromEntries(decks.map((d) => [d.file, d.startupName]));
  },
  // The model the report is drawn from, without the data rooms' ids (new for every analysis).
  outcome: ({ runDir, mask, manifest }) => {
    // Each analysis was still running when analyze_deck answered, and was asked again.
    expect(manifest.calls.byOperation).toMatchObject({ analyze_deck: 2, get_deck_analysis: 2 });
    const model = JSON.parse(readFileSync(join(runDir, 'decks', 'report.json'), 'utf8')) as DeckTriageReport;
    for (const d of model.decks) {
      expect(d.outcome, d.label).toBe('analysed');
      expect(d.roomId, d.label).toMatch(/\S/);
      d.roomId = null;
      d.roomUrl = null;
    }
    // The sources name each room in get_deck_analysis' parameters.
    const rooms = JSON.stringify(model).replace(/"room_id":"[^"]*"/g, '"room_id":"(the room)"');
    return { figures: mask(JSON.parse(rooms)), digest: null };
  },
  compare(plain, got) {
    expect(got.figures).toEqual(plain.figures);
  },
};
