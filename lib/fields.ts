/** Field paths as error messages name them. */

/** A zod issue path as a person reads it: `paging.maxInvestorsPerCountry`, `questions[2]`. */
export function fieldOf(path: readonly PropertyKey[]): string {
  return path
    .map((p) => (typeof p === 'number' ? `[${p}]` : String(p)))
    .join('.')
    .replace(/\.\[/g, '[');
}
