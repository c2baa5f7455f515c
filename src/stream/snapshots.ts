/** The snapshot channels' sends (premium_drift, levels): a group's answer computed once, each subscription sent what changed. */
import { ApiError } from '../errors.js';
import { newRequestId } from '../ids.js';
import { errorBody, toApiError } from '../middleware/errors.js';
import type { ServiceDeps } from '../service.js';
import { getPremiumDrift } from '../services/premium-drift.js';
import { getExposureLevels } from '../services/positioning.js';
import type { QueryOf, ServiceContext } from '../services/types.js';
import { sendDrift, sendLevels } from './messages.js';
import type { Subscription } from './stream.js';

/** Computes each group's snapshot once and sends each subscription what changed (levels: or all, when `always`). */
export async function refreshSnapshots(deps: ServiceDeps, subs: readonly Subscription[], always: boolean): Promise<void> {
  const byKey = new Map<string, Subscription[]>();
  for (const sub of subs) byKey.set(sub.key, [...(byKey.get(sub.key) ?? []), sub]);
  for (const group of byKey.values()) {
    const first = group[0];
    if (!first) continue;
    const ctx: ServiceContext = {
      deps: deps,
      operation: first.operation,
      account: first.stream.account,
      requestId: newRequestId(deps.clock()),
      now: deps.clock(),
      link: { path: first.operation.path, search: '' },
    };
    let data: unknown;
    try {
      data =
        first.channel.name === 'premium_drift'
          ? (await getPremiumDrift(ctx, first.query as QueryOf<'getPremiumDrift'>)).data
          : (await getExposureLevels(ctx, first.query as QueryOf<'getExposureLevels'>)).data;
    } catch (error) {
      const apiError = toApiError(error);
      // No data yet (422), a session still loading (503): nothing to send until a load changes it.
      if (apiError && (apiError.status === 422 || apiError.status === 503)) continue;
      for (const sub of group)
        sub.stream.send(
          `"type":"error","subscription":${JSON.stringify(sub.id)},"request":null,${JSON.stringify(errorBody(apiError ?? new ApiError(500, 'internal_error', 'The snapshot could not be computed.'), ctx.requestId)).slice(1)}`,
        );
      if (!apiError)
        deps.logger.error('stream snapshot failed', {
          channel: first.channel.name,
          error: error instanceof Error ? error.message : String(error),
        });
      continue;
    }
    for (const sub of group) {
      if (sub.channel.name === 'premium_drift') sendDrift(sub, data as Array<{ timestamp: number }>);
      else sendLevels(sub, data as { levels: unknown; trading_date: string }, always);
    }
  }
}
