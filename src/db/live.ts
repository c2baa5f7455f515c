/**
 * What the live market (src/live/runner.ts) reads back from the store: where a trading date it
 * loads minute by minute stands.
 */
import { sql } from 'kysely';
import type { Queryable } from './connection.js';

const MINUTE_MS = 60_000;

/**
 * The start of the newest minute within [from, to) that holds an underlying bar, or null. A live
 * minute's bars load before its quotes and prints, so every minute before this one is complete.
 */
export async function newestBarMinute(db: Queryable, from: number, to: number): Promise<number | null> {
  const result = await sql<{ ts: number | null }>`select max(ts)::int8 as ts from underlying_bars where ts >= ${from} and ts < ${to}`.execute(db);
  const ts = result.rows[0]?.ts ?? null;
  return ts === null ? null : Math.floor(Number(ts) / MINUTE_MS) * MINUTE_MS;
}
