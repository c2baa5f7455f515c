/**
 * The deployment's request limits in the store (migration 20261128T120000, LIMIT_SCOPE=deployment):
 * each call one statement (a function of the migration that locks the account's row), so machines
 * leasing the same account at once are counted exactly. The lessor (src/limits/deployment-lessor.ts)
 * sees them through its LimitStore port. Holders' leases expire by the database's clock (now()).
 */
import { sql } from 'kysely';
import pg from 'pg';
import type { Queryable } from './connection.js';

/** Asks the holders of an account's places to give back what they are not using (payload: `holder account`, the asker's name first). */
export const RECALL_CHANNEL = 'oads_limit_recall';
/** A holder has given back an account's places (payload: account). */
export const GIVEN_CHANNEL = 'oads_limit_given';

/** An account's windows, leased places counted as taken (wall-clock ms). */
export interface StoreWindows {
  minuteUsed: number;
  secondUsed: number;
  seated: number;
  minuteNext: number | null;
  secondNext: number | null;
  cooldownUntil: number;
}

export interface StoreLease {
  slots: number;
  seats: number;
  refusal: 'cooldown' | 'in_flight' | 'second' | 'minute' | null;
  /** Places of the account (window places and seats) held by other holders. */
  others: number;
  windows: StoreWindows;
}

interface WindowRow {
  minute_used: number;
  second_used: number;
  seated: number;
  minute_next: number | null;
  second_next: number | null;
  cooldown_until_ms: number;
}

function windowsOf(row: WindowRow): StoreWindows {
  return {
    minuteUsed: row.minute_used,
    secondUsed: row.second_used,
    seated: row.seated,
    minuteNext: row.minute_next === null ? null : Number(row.minute_next),
    secondNext: row.second_next === null ? null : Number(row.second_next),
    cooldownUntil: Number(row.cooldown_until_ms),
  };
}

/** The statements of the deployment's limits (the lessor's LimitStore port: limits/deployment-lessor.ts). */
export interface LimitStatements {
  lease(r: {
    account: string;
    holder: string;
    now: number;
    consume: boolean;
    slots: number;
    seats: number;
    share: number;
    perMinute: number;
    perSecond: number;
    inFlight: number;
  }): Promise<StoreLease>;
  settle(r: {
    account: string;
    holder: string;
    now: number;
    used: number[];
    unused: number;
    seats: number;
    unserved: number[];
  }): Promise<StoreWindows>;
  refuse(account: string, now: number, after: number, cooldownMs: number): Promise<number>;
  beat(holder: string, now: number, ttlMs: number): Promise<{ alive: boolean; holders: number }>;
  leave(holder: string): Promise<void>;
  recall(account: string, from: string): Promise<void>;
  given(account: string): Promise<void>;
  listen(handlers: {
    onRecall(account: string, from: string): void;
    onGiven(account: string): void;
    onLost(error: Error): void;
  }): Promise<{ end(): Promise<void> }>;
}

/** The statements on a database: `db` for the statements, `connectionString` for the LISTEN connection. */
export function limitStore(db: Queryable, connectionString: string): LimitStatements {
  return {
    async lease(r) {
      const result = await sql<WindowRow & { slots: number; seats: number; refusal: string | null; others: number }>`
        select * from limit_lease(${r.account}, ${r.holder}, ${r.now}::int8, ${r.consume}, ${r.slots}::int4, ${r.seats}::int4,
          ${r.share}::int4, ${r.perMinute}::int4, ${r.perSecond}::int4, ${r.inFlight}::int4)`.execute(db);
      const row = result.rows[0];
      if (!row) throw new Error('limit_lease returned no row');
      return {
        slots: row.slots,
        seats: row.seats,
        refusal: row.refusal as StoreLease['refusal'],
        others: row.others,
        windows: windowsOf(row),
      };
    },
    async settle(r) {
      const result = await sql<WindowRow>`
        select * from limit_settle(${r.account}, ${r.holder}, ${r.now}::int8, ${r.used}::int8[], ${r.unused}::int4,
          ${r.seats}::int4, ${r.unserved}::int8[])`.execute(db);
      const row = result.rows[0];
      if (!row) throw new Error('limit_settle returned no row');
      return windowsOf(row);
    },
    async refuse(account, now, after, cooldownMs) {
      const result = await sql<{ until: number }>`
        select limit_refuse(${account}, ${now}::int8, ${after}::int4, ${cooldownMs}::int4) as until`.execute(db);
      return Number(result.rows[0]?.until ?? 0);
    },
    async beat(holder, now, ttlMs) {
      // Renewed while alive; a holder past its expiry (its leases may have been reaped) is told so.
      const result = await sql<{ alive: boolean; holders: number }>`
        with before as (select expires_at >= now() as alive from limit_holders where holder = ${holder}),
        beat as (
          insert into limit_holders (holder, expires_at, beat_ms)
          values (${holder}, now() + make_interval(secs => ${ttlMs / 1000}), ${now}::int8)
          on conflict (holder) do update set expires_at = excluded.expires_at, beat_ms = excluded.beat_ms
          returning holder
        ),
        gone as (delete from limit_holders where expires_at < now() - interval '1 hour' and holder <> ${holder})
        select coalesce((select alive from before), true) as alive,
          (select count(*)::int4 from limit_holders where expires_at >= now() and holder <> ${holder}) + 1 as holders`.execute(db);
      const row = result.rows[0];
      return { alive: row?.alive ?? true, holders: Number(row?.holders ?? 1) };
    },
    async leave(holder) {
      // Expired now: the next statement on each of its accounts reaps its leases.
      await sql`update limit_holders set expires_at = now() - interval '1 millisecond' where holder = ${holder}`.execute(db);
    },
    async recall(account, from) {
      await sql`select pg_notify(${RECALL_CHANNEL}::text, ${`${from} ${account}`}::text)`.execute(db);
    },
    async given(account) {
      await sql`select pg_notify(${GIVEN_CHANNEL}::text, ${account}::text)`.execute(db);
    },
    async listen(handlers) {
      const client = new pg.Client({ connectionString, application_name: 'oads-limits' });
      client.on('notification', (message) => {
        if (!message.payload) return;
        if (message.channel === RECALL_CHANNEL) {
          const space = message.payload.indexOf(' ');
          if (space > 0) handlers.onRecall(message.payload.slice(space + 1), message.payload.slice(0, space));
        }
        if (message.channel === GIVEN_CHANNEL) handlers.onGiven(message.payload);
      });
      client.on('error', (error) => {
        handlers.onLost(error);
        client.end().catch(() => undefined);
      });
      await client.connect();
      await client.query(`listen ${RECALL_CHANNEL}`);
      await client.query(`listen ${GIVEN_CHANNEL}`);
      return { end: () => client.end() };
    },
  };
}
