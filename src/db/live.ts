/**
 * What the live market (src/live/runner.ts) reads back from the store: where a trading date it
 * loads minute by minute stands.
 */
import { sql } from 'kysely';
import type { Queryable } from './connection.js';

const MINUTE_MS = 60_000;

const minuteOf = (ts: number | string | null | undefined): number | null =>
  ts === null || ts === undefined ? null : Math.floor(Number(ts) / MINUTE_MS) * MINUTE_MS;

/**
 * The start of the newest minute of a trading date (its windows within [from, to)) up to which
 * every kind is stored: the oldest of the newest bar, quote sample and print minutes, or null when
 * a kind has none. Each load of minutes writes bars, then quotes, then prints, so every minute
 * before this one is complete; this one, and the few after it that hold bars but no prints (a quiet
 * overnight minute), are loaded again on a start, which changes nothing when they were complete.
 */
export async function newestCompleteMinute(db: Queryable, tradingDate: string, from: number, to: number): Promise<number | null> {
  const bars = await sql<{ ts: string | null }>`select max(ts) as ts from underlying_bars where ts >= ${from} and ts < ${to}`.execute(db);
  const quotes = await sql<{ ts: string | null }>`select max(minute) as ts from quote_samples where trading_date = ${tradingDate}`.execute(
    db,
  );
  const prints = await sql<{ ts: string | null }>`select max(ts) as ts from prints where trading_date = ${tradingDate}`.execute(db);
  const newest = [bars, quotes, prints].map((r) => minuteOf(r.rows[0]?.ts));
  if (newest.some((m) => m === null)) return null;
  return Math.min(...(newest as number[]));
}
