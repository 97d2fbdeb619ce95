/**
 * What a render activity returns about the run's opening, checked against what the PDF drew: the
 * tiles of the first `keyFigures` call (spied on ReportPdf) are the figures the output carries,
 * and the headline is one line of at most HEADLINE_MAX_CHARS characters.
 */
import { expect, vi } from 'vitest';
import type { DeliveryFigure } from '../../shared/delivery.js';
import { HEADLINE_MAX_CHARS } from '../../reports/format.js';
import { ReportPdf } from '../../reports/pdf/index.js';
import type { KeyFigure } from '../../reports/pdf/index.js';

/** Runs `render` with `ReportPdf#keyFigures` spied on; returns its result and each call's tiles. */
export async function withKeyFigures<T>(
  render: () => Promise<T>,
): Promise<{ result: T; drawn: KeyFigure[][] }> {
  const spy = vi.spyOn(ReportPdf.prototype, 'keyFigures');
  try {
    const result = await render();
    return { result, drawn: spy.mock.calls.map(([tiles]) => tiles) };
  } finally {
    spy.mockRestore();
  }
}

/** Tiles as a render's output carries them: label, value and note (the colour stays in the PDF). */
export function asFigures(tiles: readonly KeyFigure[]): DeliveryFigure[] {
  return tiles.map((t) => ({
    label: t.label,
    value: t.value,
    ...(t.note !== undefined ? { note: t.note } : {}),
  }));
}

/** A headline as the output carries it: not empty, on one line, not longer than the limit. */
export function expectHeadline(headline: string | undefined): void {
  expect(headline).toBeTruthy();
  expect(headline).not.toMatch(/[\r\n]/);
  expect(Array.from(headline ?? '').length).toBeLessThanOrEqual(HEADLINE_MAX_CHARS);
  expect(headline).toBe(headline?.trim());
}
