/**
 * The futures_trades channel: each committed futures trades load (db/futures-trade-events.ts) is
 * read once per group of subscriptions with the same query, with the filters of GET
 * /v1/futures/trades (services/futures-trades.ts), and sent as the bodies that route serves,
 * oldest first by (timestamp, sequence, match, contract). Loads of a trade date before the route's
 * default one (the trade date trading now, else the last one closed) are not streamed: a backfill
 * of an old date is not news, and the route serves it.
 */
import { currentOrLastGlobexTradeDate } from '../analytics/futures/trade-window.js';
import type { FuturesTradesLoaded } from '../db/futures-trade-events.js';
import { streamFuturesTrades } from '../db/futures-trade-events.js';
import { newRequestId } from '../ids.js';
import { toApiError } from '../middleware/errors.js';
import type { ServiceDeps } from '../service.js';
import { futuresTradeFilterOf, futuresTradeOf } from '../services/futures-trades.js';
import type { ServiceContext } from '../services/types.js';
import { batches } from './messages.js';
import type { Subscription } from './stream.js';

/** Whether a load of `tradeDate` is streamed at `now`: the route's default trade date or a later one. */
export function isStreamedTradeDate(tradeDate: string, now: number): boolean {
  const current = currentOrLastGlobexTradeDate(now);
  return current !== null && tradeDate >= current;
}

/** Sends one load's trades to each group's subscriptions whose filters they pass. */
export async function streamFuturesTradesLoad(
  deps: ServiceDeps,
  groups: Iterable<readonly Subscription[]>,
  loaded: Pick<FuturesTradesLoaded, 'trade_date' | 'xid' | 'from' | 'to' | 'loaded_at'>,
  maxServerMessageBytes: number,
): Promise<void> {
  if (!isStreamedTradeDate(loaded.trade_date, deps.clock())) return;
  for (const group of groups) {
    const first = group[0];
    if (!first) continue;
    const ctx: ServiceContext = {
      deps,
      operation: first.operation,
      account: first.stream.account,
      requestId: newRequestId(deps.clock()),
      now: deps.clock(),
      link: { path: first.operation.path, search: '' },
    };
    let filter;
    try {
      filter = await futuresTradeFilterOf(ctx, first.query, loaded.trade_date, { from: null, to: null });
    } catch (error) {
      // A contract not defined in the store has no trades to send.
      if (toApiError(error)?.status === 422) continue;
      throw error;
    }
    const rows = await streamFuturesTrades(deps.db, filter, loaded);
    if (rows.length === 0) continue;
    const head = `"type":"futures_trades","channel":"futures_trades","trade_date":${JSON.stringify(loaded.trade_date)},"loaded_at":${loaded.loaded_at},"data":[`;
    const bodies = batches(
      rows.map((r) => JSON.stringify(futuresTradeOf(r))),
      maxServerMessageBytes,
    ).map((batch) => Buffer.from(`${head}${batch}]}`, 'utf8'));
    for (const sub of group) {
      const own = `"subscription":${JSON.stringify(sub.id)},`;
      sub.stream.together(() => {
        for (const body of bodies) sub.stream.send(body, own);
      });
    }
  }
}
