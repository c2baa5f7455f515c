/**
 * Loads an archived trading session back into the hot store, on request of the trades endpoint
 * (which answers 503 data_pending meanwhile). One job per date: the queue's `stately` policy with
 * the date as singleton key keeps at most one load queued and one running per date, however many
 * requests ask. The handler is idempotent (reloadSession).
 */
import type PgBoss from 'pg-boss';
import type { Database } from '../db/connection.js';
import { reloadSession, sessionState, type SessionState } from '../ingest/archive.js';
import type { JobDefinition } from './types.js';

export interface SessionLoadData {
  /** Trading date, YYYY-MM-DD. */
  date: string;
}

export const SESSION_LOAD_QUEUE = 'session-load';

export const sessionLoad: JobDefinition<SessionLoadData> = {
  name: SESSION_LOAD_QUEUE,
  options: { policy: 'stately', retryLimit: 2, retryDelay: 30, retryBackoff: true, expireInSeconds: 3600 },
  handler: async (deps, data) => {
    if (!/^\d{4}-\d{2}-\d{2}$/.test(data.date)) throw new Error(`session-load: bad date ${JSON.stringify(data.date)}`);
    const outcome = await reloadSession(deps.admin, data.date, { now: deps.clock(), log: (line) => deps.logger.info(line) });
    deps.logger.info('session load finished', { date: data.date, outcome });
  },
};

/**
 * Asks for an archived session to be loaded back. 'started' when this call queued the load,
 * 'running' when a load of that date is already queued or running.
 */
export async function requestSessionLoad(boss: PgBoss, date: string): Promise<'started' | 'running'> {
  const id = await boss.send(SESSION_LOAD_QUEUE, { date } satisfies SessionLoadData, { singletonKey: date });
  return id === null ? 'running' : 'started';
}

/** True when the trading date's prints are in the hot store. */
export async function isSessionHot(db: Database, date: string): Promise<boolean> {
  return (await sessionState(db, date)) === 'hot';
}

export { sessionState, type SessionState };
