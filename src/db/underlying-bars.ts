/** One-minute bars of the underlyings, and the session bars made of them. */
import { sql } from 'kysely';
import { numberArrayLiteral, textArrayLiteral } from './array-literals.js';
import type { Queryable } from './connection.js';
import { recordMarketDataChange, utcDate } from './market-data-changes.js';
import { earliestOf } from './quote-samples.js';
import { notifyBarsLoaded } from './index-events.js';

export interface BarRow {
  symbol: string;
  ts: number;
  open: number;
  high: number;
  low: number;
  close: number;
  volume: number | null;
}

export async function upsertUnderlyingBars(db: Queryable, rows: readonly BarRow[]): Promise<number> {
  let written = 0;
  for (let start = 0; start < rows.length; start += 20_000) {
    const c = rows.slice(start, start + 20_000);
    const result = await sql`
      insert into underlying_bars (symbol, ts, open, high, low, close, volume)
      select * from unnest(${textArrayLiteral(c.map((r) => r.symbol))}::text[], ${numberArrayLiteral(c.map((r) => r.ts))}::int8[],
        ${numberArrayLiteral(c.map((r) => r.open))}::float8[], ${numberArrayLiteral(c.map((r) => r.high))}::float8[], ${numberArrayLiteral(c.map((r) => r.low))}::float8[],
        ${numberArrayLiteral(c.map((r) => r.close))}::float8[], ${numberArrayLiteral(c.map((r) => r.volume))}::int8[])
      on conflict (symbol, ts) do update set open = excluded.open, high = excluded.high, low = excluded.low, close = excluded.close, volume = excluded.volume`.execute(
      db,
    );
    written += Number(result.numAffectedRows ?? 0);
  }
  if (written > 0) {
    await recordMarketDataChange(db, barDates(rows), earliestOf(rows.map((r) => r.ts)));
    // The index_values stream channel reads back what this write stored, once it commits (db/index-events.ts).
    let from = Infinity;
    let to = -Infinity;
    for (const r of rows) {
      if (r.ts < from) from = r.ts;
      if (r.ts > to) to = r.ts;
    }
    await notifyBarsLoaded(db, new Set(rows.map((r) => r.symbol)), from, to);
  }
  return written;
}

/** The UTC dates of the bars' starts (utcDate), each formatted once per day however many bars it has. */
function barDates(rows: readonly BarRow[]): Set<string> {
  const days = new Set<number>();
  for (const r of rows) days.add(Math.floor(r.ts / 86_400_000));
  return new Set([...days].map((day) => utcDate(day * 86_400_000)));
}

/** Bars of some symbols with from <= ts <= to, by symbol and time. */
export async function underlyingBarsBetween(db: Queryable, symbols: readonly string[], from: number, to: number): Promise<BarRow[]> {
  if (symbols.length === 0) return [];
  return await db
    .selectFrom('underlying_bars')
    .select(['symbol', 'ts', 'open', 'high', 'low', 'close', 'volume'])
    .where('symbol', '=', sql<string>`any(${[...symbols]}::text[])`)
    .where('ts', '>=', from)
    .where('ts', '<=', to)
    .orderBy('symbol')
    .orderBy('ts')
    .execute();
}

/** The bar of a session window made of its one-minute bars. */
export interface SessionBar {
  /** The trading date the window belongs to. */
  date: string;
  /** First bar's open, highest high, lowest low, last bar's close. */
  open: number;
  high: number;
  low: number;
  close: number;
  /** Summed volume (null when no bar has one). */
  volume: number | null;
  /** One-minute bars in the window. */
  minutes: number;
  /** Start of the first and of the last bar, Unix ms. */
  firstTs: number;
  lastTs: number;
}

/**
 * Daily bars of one symbol built from its one-minute bars, one per window ([start, end) on the
 * bar's start; the caller gives each trading date's session, e.g. the regular session from the
 * calendar), ascending by date; a window without bars has no row.
 */
export async function sessionBars(
  db: Queryable,
  symbol: string,
  windows: readonly { date: string; start: number; end: number }[],
): Promise<SessionBar[]> {
  if (windows.length === 0) return [];
  const result = await sql<{
    date: string;
    open: number;
    high: number;
    low: number;
    close: number;
    volume: number | null;
    minutes: number;
    first_ts: number;
    last_ts: number;
  }>`
    select w.d::text as date, (array_agg(b.open order by b.ts))[1] as open, max(b.high) as high, min(b.low) as low,
      (array_agg(b.close order by b.ts desc))[1] as close, sum(b.volume)::int8 as volume, count(*)::int as minutes,
      min(b.ts) as first_ts, max(b.ts) as last_ts
    from unnest(${windows.map((w) => w.date)}::date[], ${windows.map((w) => w.start)}::int8[], ${windows.map((w) => w.end)}::int8[]) as w(d, s, e)
    join underlying_bars b on b.symbol = ${symbol} and b.ts >= w.s and b.ts < w.e
    group by w.d order by w.d`.execute(db);
  return result.rows.map((r) => ({
    date: r.date,
    open: r.open,
    high: r.high,
    low: r.low,
    close: r.close,
    volume: r.volume === null ? null : Number(r.volume),
    minutes: r.minutes,
    firstTs: Number(r.first_ts),
    lastTs: Number(r.last_ts),
  }));
}
