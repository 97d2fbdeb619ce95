/**
 * The WHERE clause of a search, built filter by filter, and the paging fields of its answer.
 */
import type { DatabaseSync } from 'node:sqlite';
import { prepared } from './statements.js';

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

  /** How many rows of `from` (a table and the alias the conditions use) match the clause. */
  count(db: DatabaseSync, from: string): number {
    const { total } = prepared(db, `SELECT COUNT(*) AS total FROM ${from} ${this.sql}`).get(...this.args) as {
      total: number;
    };
    return total;
  }
}

/** The paging fields of a search's answer. */
export interface PageFields {
  total: number;
  limit: number;
  offset: number;
  next_offset: number | null;
}

/** A search's answer besides its rows: the paging fields, its order and the filters as read. */
export interface SearchPage extends PageFields {
  /** The order of the list, in words (a total order: ties broken by key). */
  order: string;
  /** The filters as the search read them (canonical countries, types, sectors). */
  filters: Record<string, unknown>;
}

/** Paging fields of a page of `shown` rows: next_offset is null on the last page. */
export function pageFields(total: number, limit: number, offset: number, shown: number): PageFields {
  const end = offset + shown;
  return { total, limit, offset, next_offset: end < total ? end : null };
}
