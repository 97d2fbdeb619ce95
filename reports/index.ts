/** Report rendering: fonts, formats, charts, PDF and Excel building blocks, report templates. */
export {
  FONT_FAMILY,
  FONT_FAMILY_BOLD,
  FONT_FILES,
  fontBuffers,
  measureText,
  truncateToWidth,
  wrapText,
  fontCovers,
  printableName,
  printableText,
  STAND_IN_MARK,
} from './fonts.js';
export { fontChain, textRuns } from './font-chain.js';
export type { ChainFont, TextRun } from './font-chain.js';
export {
  formatUsd,
  formatInt,
  formatNumber,
  formatPct,
  pctChange,
  formatDate,
  formatDateTime,
  formatDuration,
  oneLine,
} from './format.js';
export { safeFileName } from '../lib/names.js';
export * from './charts/index.js';
export * from './pdf/index.js';
export * from './excel/index.js';
