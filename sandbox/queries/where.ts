/**
 * The WHERE clause of a search, built filter by filter, and the paging fields of its answer.
 */

/** Collects the conditions, their arguments and the filters as read (for the answer). */
export class Where {
  private readonly clauses: string[] = [];
  readonly args: (string | number)[] = [];
  readonly filters: Record<string, unknown> = {};

  /** Adds a condition with its arguments; `filter` records how the search read the parameter. */
  add(condition: string, args: (string | number)[], filter?: [name: string, value: unknown]): this {
    this.clauses.push(condition);
    this.args.push(...args);
    if (filter) this.filters[filter[0]] = filter[1];
    return this;
  }

  /**
   * `column IN (values)` with the list as one JSON argument (one statement text for any list
   * length); the filter is recorded as `shown` (default: the values).
   */
  in(column: string, values: readonly string[], filterName: string, shown: unknown = values): this {
    return this.add(
      `${column} IN (SELECT value FROM json_each(?))`,
      [JSON.stringify(values)],
      [filterName, shown],
    );
  }

  /** The clause (`WHERE a AND b`), empty without conditions. */
  get sql(): string {
    return this.clauses.length ? `WHERE ${this.clauses.join(' AND ')}` : '';
  }
}

/** Paging fields of a page of `shown` rows: next_offset is null on the last page. */
export function pageFields(
  total: number,
  limit: number,
  offset: number,
  shown: number,
): { total: number; limit: number; offset: number; next_offset: number | null } {
  const end = offset + shown;
  return { total, limit, offset, next_offset: end < total ? end : null };
}
