/** Links for the next page: the same query with the cursor set. */
import type { Request } from 'express';

export function nextPageUrl(req: Request, cursor: string | null): string | null {
  if (cursor === null) return null;
  const search = new URLSearchParams(req.originalUrl.includes('?') ? req.originalUrl.slice(req.originalUrl.indexOf('?') + 1) : '');
  search.set('cursor_id', cursor);
  return `${req.path}?${search.toString()}`;
}
