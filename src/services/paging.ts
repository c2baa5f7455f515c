/**
 * Pagination, written once for every paginated route. A page is read from the position the
 * request's cursor names (none on the first page), with `limit + 1` rows asked where the store can
 * tell "more exist" that way; the answer's pagination block carries a cursor for the position after
 * which the next page starts, bound to the same route and query (every parameter but cursor_id), so
 * a cursor cannot be replayed against another query. With read replicas the cursor carries the
 * request's read floor too (db/replicas.ts), so that the next page is never read from older data
 * than this one. The limit is the request's: the contract's
 * default is applied by the validator before a service runs.
 */
import { raiseReadFloor, readFloor } from '../db/replicas.js';
import { CursorCodec } from './cursor.js';
import { withDefault, type PageLink, type Pagination, type ServiceContext } from './types.js';

export interface Paging<Position> {
  /** Where this page starts (after this position); null on the first page. */
  after: Position | null;
  limit: number;
  /** The pagination block of a page of `count` rows; `next` is null when no page follows. */
  pagination(count: number, next: Position | null): Pagination;
}

/** The next page's link: the same query with the cursor set. */
export function nextPageUrl(link: PageLink, cursor: string | null): string | null {
  if (cursor === null) return null;
  const search = new URLSearchParams(link.search);
  search.set('cursor_id', cursor);
  return `${link.path}?${search.toString()}`;
}

/** Opens the paging of one request: decodes its cursor (400 invalid_cursor when forged, stale or of another query). */
export function openPaging<Position>(ctx: ServiceContext, query: { limit?: number; cursor_id?: string }): Paging<Position> {
  const { cursors } = ctx.deps;
  const fingerprint = CursorCodec.queryFingerprint(ctx.operation.path, query);
  const limit = withDefault(query.limit, 'limit');
  const opened = query.cursor_id === undefined ? null : cursors.open<Position>(query.cursor_id, fingerprint, ctx.now);
  const after = opened === null ? null : opened.position;
  // A following page's reads are no older than its first page's (db/replicas.ts: the floor rule).
  raiseReadFloor(opened?.floor);
  return {
    after,
    limit,
    pagination(count, next) {
      const cursor = next === null ? null : cursors.encode(next, fingerprint, ctx.now, readFloor());
      return { count, has_more: cursor !== null, limit, next_cursor_id: cursor, next_url: nextPageUrl(ctx.link, cursor) };
    },
  };
}

/**
 * A page of a read that asked `limit + 1` rows: the rows served, and the position of the last one
 * when more follow (null otherwise).
 */
export function takePage<Row, Position>(
  rows: readonly Row[],
  limit: number,
  positionOf: (row: Row) => Position,
): { page: Row[]; next: Position | null } {
  const page = rows.slice(0, limit);
  const last = page.at(-1);
  return { page, next: rows.length > limit && last !== undefined ? positionOf(last) : null };
}
