/** Links for the next page: the same query with the cursor set. */
import type { PageLink } from './types.js';

export function nextPageUrl(link: PageLink, cursor: string | null): string | null {
  if (cursor === null) return null;
  const search = new URLSearchParams(link.search);
  search.set('cursor_id', cursor);
  return `${link.path}?${search.toString()}`;
}
