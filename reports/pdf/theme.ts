/** The look of a report PDF: its colours and its A4 page's margins. */

export const COLORS = {
  ink: '#1f2328',
  muted: '#5b6470',
  accent: '#1f4e79',
  rule: '#c9d1d9',
  tile: '#f2f5f9',
  zebra: '#f6f8fa',
  header: '#1f4e79',
  up: '#1a7f37',
  down: '#c0392b',
} as const;

export const PAGE_MARGINS = { top: 56, bottom: 60, left: 50, right: 50 };
/** A4's width in points. */
export const A4_WIDTH = 595.28;
