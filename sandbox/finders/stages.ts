/**
 * Stages: the database's stage slugs, the raising stages of find_investors, their order and
 * the buckets that connect them.
 */
import type { RaisingStage } from '../../api/index.js';
import { STAGES } from '../data/schema.js';

/** Position of a database stage in the funding ladder (unknown → -1). */
export function stageIndex(stage: string): number {
  return (STAGES as readonly string[]).indexOf(stage);
}

/** The raising-stage bucket of a database stage (series-c, series-d-plus, growth → series-c-plus). */
export function raisingBucket(stage: string): RaisingStage | null {
  switch (stage) {
    case 'pre-seed':
    case 'seed':
    case 'series-a':
    case 'series-b':
      return stage;
    case 'series-c':
    case 'series-d-plus':
    case 'growth':
    case 'series-c-plus':
      return 'series-c-plus';
    default:
      return null;
  }
}

const BUCKET_ORDER: readonly RaisingStage[] = ['pre-seed', 'seed', 'series-a', 'series-b', 'series-c-plus'];

/** Position of a raising stage in the ladder (unknown → -1). */
export function bucketIndex(stage: string): number {
  return BUCKET_ORDER.indexOf(stage as RaisingStage);
}

/** The raising stage that follows a database stage (the round a startup raises next). */
export function nextRaisingStage(currentStage: string): RaisingStage {
  const i = stageIndex(currentStage);
  if (i < 0) return 'seed';
  const next = STAGES[Math.min(STAGES.length - 1, i + 1)] ?? 'growth';
  return raisingBucket(next) ?? 'series-c-plus';
}

/** Readable stage name: "series-a" → "Series A", "series-c-plus" → "Series C+". */
export function stageLabel(stage: string): string {
  switch (stage) {
    case 'pre-seed':
      return 'pre-seed';
    case 'seed':
      return 'seed';
    case 'series-c-plus':
      return 'Series C+';
    case 'series-d-plus':
      return 'Series D+';
    case 'growth':
      return 'growth';
    default:
      return stage.replace(/^series-(\w)$/, (_m, l: string) => `Series ${l.toUpperCase()}`);
  }
}

/**
 * Reads a free-text stage ("Series A", "series_b", "pre seed", "C+") into a raising stage.
 * Returns null when it names no stage.
 */
export function parseStage(text: string): RaisingStage | null {
  const t = text
    .trim()
    .toLowerCase()
    .replace(/[_\s]+/g, '-');
  if (/^pre-?seed$/.test(t)) return 'pre-seed';
  if (t === 'seed') return 'seed';
  const m = /^(?:series-?)?([a-z])(-?plus|\+)?$/.exec(t);
  if (m) {
    const l = m[1];
    if (l === 'a') return 'series-a';
    if (l === 'b') return 'series-b';
    if (l && l >= 'c' && l <= 'h') return 'series-c-plus';
  }
  if (t === 'growth' || t === 'late' || t === 'late-stage' || t === 'series-d-plus') return 'series-c-plus';
  if (t === 'early' || t === 'early-stage') return 'seed';
  return null;
}
