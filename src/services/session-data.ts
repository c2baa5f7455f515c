/**
 * Why a print route found nothing: the trading date's prints may be archived (then a load is asked
 * for and the answer is 503 data_pending, to be retried), or the request matches no print (the
 * caller answers 422 no_data). The state is read from the store (the sessions repository,
 * db/archive.ts); a load is asked of the job queue port, so the request path never loads the
 * ingest pipeline.
 */
import { ApiError } from '../errors.js';
import type { ServiceContext } from './types.js';

/** Suggested wait while an archived session loads. */
export const LOAD_RETRY_AFTER_MS = 5_000;

/** Throws 503 when the trading date's session is archived (asking for its load); returns otherwise. */
export async function explainMissingPrints(
  ctx: Pick<ServiceContext, 'deps' | 'requestId'>,
  tradingDate: string,
  retryAfterMs = LOAD_RETRY_AFTER_MS,
): Promise<void> {
  if ((await ctx.deps.repositories.sessions.sessionState(tradingDate)) !== 'archived') return;
  if (ctx.deps.jobs === null) {
    throw new ApiError(
      503,
      'upstream_busy',
      `The session of ${tradingDate} is archived and no loader is running; retry later.`,
      [],
      retryAfterMs,
    );
  }
  const state = await ctx.deps.jobs.requestSessionLoad(tradingDate);
  ctx.deps.logger.info('session load requested', { request_id: ctx.requestId, date: tradingDate, state });
  throw new ApiError(503, 'data_pending', `The session of ${tradingDate} is being loaded; retry shortly.`, [], retryAfterMs);
}
