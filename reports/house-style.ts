/**
 * The house style of the reports a worker renders: for now a notice (`VIR_REPORT_NOTICE`, say
 * "Confidential: prepared for the partners of Northwind Capital") printed in the footer of every
 * PDF page and every printed sheet. It is set around one render (`withHouseStyle`, by the render
 * tail every kind goes through), so the writers need not pass it along and two workers of one
 * process never see each other's.
 */
import { AsyncLocalStorage } from 'node:async_hooks';

export interface HouseStyle {
  /** Printed in every page's footer; null: none. */
  notice: string | null;
}

const NO_STYLE: HouseStyle = { notice: null };
const current = new AsyncLocalStorage<HouseStyle>();

/** Runs `render` with `style` as the house style of everything it writes. */
export function withHouseStyle<T>(style: HouseStyle, render: () => Promise<T>): Promise<T> {
  return current.run(style, render);
}

/** The house style of the render running now (none outside a render). */
export function houseStyle(): HouseStyle {
  return current.getStore() ?? NO_STYLE;
}
