/** Durations a deck-triage job writes as `90s`, `30m` or `2h` (pure: the workflow reads them too). */

/** Milliseconds of a duration like `30m` (the job's schema checks its form). */
export function durationMs(d: string): number {
  const n = Number(d.slice(0, -1));
  return n * ({ s: 1000, m: 60_000, h: 3600_000 }[d.slice(-1)] ?? 0);
}
