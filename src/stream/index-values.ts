/**
 * The index_values channel: each committed load of one-minute bars (db/index-events.ts) is read
 * back once for the indices any subscription follows, and each subscription is sent, per index,
 * the minutes that load wrote as /v1/indices/bars?interval=1m serves them: minutes of the current
 * trading date inside its calculation window (09:30 to 16:00 ET, 13:00 on an early close). A load
 * of an earlier date (a backfill) is not news and sends nothing; a minute loaded again (a
 * correction) is sent again with its new values.
 */
import { calculationWindow } from '../analytics/indices.js';
import { newYorkDate } from '../analytics/new-york-time.js';
import type { BarsLoaded, LoadedMinute } from '../db/index-events.js';
import type { Subscription } from './stream.js';

/** The indices a load concerns among those the subscriptions follow. */
export function wantedSymbols(subs: readonly Subscription[], loaded: BarsLoaded): string[] {
  const wanted = new Set(subs.flatMap((s) => s.symbols ?? []));
  return [...wanted].filter((s) => loaded.symbols === null || loaded.symbols.includes(s)).sort();
}

/** A minute as /v1/indices/bars serves a 1m bar (an IndexBar). */
function barOf(m: LoadedMinute, tradingDate: string): Record<string, unknown> {
  return {
    timestamp: m.ts,
    trading_date: tradingDate,
    open: m.open,
    high: m.high,
    low: m.low,
    close: m.close,
    volume: null,
    minutes: 1,
    close_timestamp: m.ts,
  };
}

/** Sends each subscription, per index it follows, the load's minutes of the current trading date in its calculation window. */
export function sendIndexValues(subs: readonly Subscription[], minutes: readonly LoadedMinute[], currentDate: string): void {
  const window = calculationWindow(currentDate);
  if (window === null) return;
  const bySymbol = new Map<string, string[]>();
  for (const m of minutes) {
    if (m.ts < window.start || m.ts >= window.end || newYorkDate(m.ts) !== currentDate) continue;
    const list = bySymbol.get(m.symbol) ?? [];
    list.push(JSON.stringify(barOf(m, currentDate)));
    bySymbol.set(m.symbol, list);
  }
  for (const sub of subs) {
    if (!sub.stream.subscriptions.has(sub.id)) continue;
    for (const symbol of sub.symbols ?? []) {
      const bars = bySymbol.get(symbol);
      if (bars === undefined) continue;
      sub.stream.send(
        `"type":"index_values","channel":"index_values","subscription":${JSON.stringify(sub.id)},"symbol":${JSON.stringify(symbol)},"replay":false,"data":[${bars.join(',')}]}`,
      );
    }
  }
}
