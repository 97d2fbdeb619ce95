/**
 * Laying a document out within a page budget: each budget (how much of the long lists it
 * prints) in turn, the first whose layout fits, else the last one's.
 */

/**
 * Builds with each of `budgets` in turn and returns the first build `fits` accepts, or the
 * last build when none does. Throws when there is no budget.
 *
 * @example const pdf = firstFitting(BRIEF_BUDGETS, (b) => buildBrief(summary, b), (p) => p.pageCount <= 3);
 */
export function firstFitting<B, T>(
  budgets: readonly B[],
  build: (budget: B) => T,
  fits: (built: T) => boolean,
): T {
  let last: T | undefined;
  for (const budget of budgets) {
    last = build(budget);
    if (fits(last)) return last;
  }
  if (last === undefined) throw new Error('no layout budget');
  return last;
}
