import { describe, expect, it } from 'vitest';
import { loadApiContract } from '../api-contract/openapi.js';
import type { ServiceDeps } from '../service.js';
import { CursorCodec } from './cursor.js';
import { nextPageUrl, openPaging, takePage } from './paging.js';
import type { ServiceContext } from './types.js';

const contract = loadApiContract();
const splits = contract.byId.get('listStockSplits')!;
const trades = contract.byId.get('listOptionTrades')!;
const NOW = Date.parse('2026-11-25T15:00:00Z');

function context(operation = splits, search = 'symbol=AAPL&limit=2'): ServiceContext {
  const deps = { cursors: new CursorCodec(Buffer.alloc(32, 7)) } as unknown as ServiceDeps;
  return { deps, operation, account: null, requestId: 'req_test', now: NOW, link: { path: operation.path, search } };
}

describe('takePage', () => {
  const position = (n: number) => ({ n });
  it('serves limit rows and names the last one when limit + 1 were read', () => {
    expect(takePage([1, 2, 3], 2, position)).toEqual({ page: [1, 2], next: { n: 2 } });
  });
  it('ends when no more than limit rows were read', () => {
    expect(takePage([1, 2], 2, position)).toEqual({ page: [1, 2], next: null });
    expect(takePage([], 2, position)).toEqual({ page: [], next: null });
  });
});

describe('nextPageUrl', () => {
  it('keeps the query and sets the cursor, replacing a given one', () => {
    expect(nextPageUrl({ path: '/v1/stocks/splits', search: 'symbol=AAPL&cursor_id=old' }, 'new.sig')).toBe(
      '/v1/stocks/splits?symbol=AAPL&cursor_id=new.sig',
    );
    expect(nextPageUrl({ path: '/v1/stocks/splits', search: '' }, null)).toBeNull();
  });
});

describe('openPaging', () => {
  it('starts at the first page and issues a cursor that the next page of the same query opens', () => {
    const ctx = context();
    const first = openPaging<{ d: string }>(ctx, { symbol: 'AAPL', limit: 2 } as never);
    expect(first.after).toBeNull();
    expect(first.limit).toBe(2);
    const block = first.pagination(2, { d: '2020-08-31' });
    expect(block).toMatchObject({ count: 2, has_more: true, limit: 2 });
    expect(block.next_url).toBe(`/v1/stocks/splits?symbol=AAPL&limit=2&cursor_id=${block.next_cursor_id}`);
    const second = openPaging<{ d: string }>(ctx, { symbol: 'AAPL', limit: 2, cursor_id: block.next_cursor_id! } as never);
    expect(second.after).toEqual({ d: '2020-08-31' });
    expect(second.pagination(1, null)).toEqual({ count: 1, has_more: false, limit: 2, next_cursor_id: null, next_url: null });
  });

  it('refuses the cursor with another query or on another route', () => {
    const ctx = context();
    const cursor = openPaging(ctx, { symbol: 'AAPL', limit: 2 } as never).pagination(2, { d: 'x' }).next_cursor_id!;
    expect(() => openPaging(ctx, { symbol: 'MSFT', limit: 2, cursor_id: cursor } as never)).toThrow(/different query/);
    expect(() => openPaging(context(trades), { symbol: 'AAPL', limit: 2, cursor_id: cursor } as never)).toThrow(/different query/);
  });

  it('needs the limit the validator fills in from the contract', () => {
    expect(() => openPaging(context(), {})).toThrow(/default in the contract/);
  });
});
