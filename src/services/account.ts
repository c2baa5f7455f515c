/** The calling account: who it is, its limits and windows, its usage. */
import { bucketMs, usageBuckets, usageRange } from '../analytics/usage.js';
import type { Config } from '../config.js';
import { countActiveExports, exportFilesHeld } from '../db/exports.js';
import type { Plan } from '../db/schema.js';
import { exportBytesCap } from '../entitlements.js';
import { usageByBucketAndRoute } from '../db/request-log.js';
import { invalidParameters } from '../errors.js';
import { accountOf, withDefault, type DataOf, type QueryOf, type Result, type ServiceContext } from './types.js';

function limitValues(config: Readonly<Config>, plan: Plan): DataOf<'getAccount'>['limits'] {
  const l = config.limits;
  return {
    requests_per_minute: l.requestsPerMinute,
    requests_per_second: l.requestsPerSecond,
    requests_in_flight: l.requestsInFlight,
    keyless_requests_per_minute: l.keylessRequestsPerMinute,
    endpoint_timeout_ms: l.endpointTimeoutMs,
    exports_queued_or_running: l.exportsQueuedOrRunning,
    export_max_rows: l.exportMaxRows,
    export_max_bytes: l.exportMaxBytes,
    export_flat_max_rows: l.exportFlatMaxRows,
    export_flat_max_bytes: l.exportFlatMaxBytes,
    export_max_query_params: l.exportMaxQueryParams,
    export_bytes_held_max: exportBytesCap(l, plan).bytes,
  };
}

export async function getAccount(ctx: ServiceContext): Promise<Result<'getAccount'>> {
  const account = accountOf(ctx);
  const key = account.key;
  if (!key) throw new Error('GET /v1/account reached without a key');
  return {
    data: {
      id: account.id,
      name: account.name,
      plan: account.plan,
      datasets: account.datasets,
      entitlements: { overnight: account.overnight },
      status: account.status,
      created_timestamp: account.created_at.getTime(),
      key: { id: key.id, prefix: key.prefix, name: key.name, created_timestamp: key.created_at.getTime() },
      limits: limitValues(ctx.deps.config, account.plan),
    },
  };
}

export async function getAccountLimits(ctx: ServiceContext): Promise<Result<'getAccountLimits'>> {
  const account = accountOf(ctx);
  const state = await ctx.deps.limiter.state(account.id, ctx.deps.clock());
  return {
    data: {
      limits: limitValues(ctx.deps.config, account.plan),
      minute_window: { limit: state.limit, remaining: state.remaining, reset: state.reset },
      second_window: { limit: state.burstLimit, remaining: state.burstRemaining, reset: state.burstReset },
      in_flight: { limit: ctx.deps.config.limits.requestsInFlight, current: state.inFlight },
      cooldown_until: state.cooldownUntil,
      exports_active: await countActiveExports(ctx.deps.db, account.id),
      export_bytes_held: (await exportFilesHeld(ctx.deps.db, account.id, new Date(ctx.now))).bytes,
    },
  };
}

export async function listAccountUsage(ctx: ServiceContext, query: QueryOf<'listAccountUsage'>): Promise<Result<'listAccountUsage'>> {
  const account = accountOf(ctx);
  const granularity = withDefault(query.granularity, 'granularity');
  const range = usageRange(ctx.now, granularity, query.start_time, query.end_time);
  if (!range) {
    const message = 'start_time must be before end_time and within the seven-day retention window';
    throw invalidParameters([{ parameter: query.start_time !== undefined ? 'start_time' : 'end_time', message }]);
  }
  // Entries of the last moments may still sit in the buffer: write them so the answer is complete.
  await ctx.deps.requestLog.flush();
  const rows = await usageByBucketAndRoute(ctx.deps.db, account.id, range.start, range.end, bucketMs(granularity));
  return {
    data: usageBuckets(range, granularity, rows, withDefault(query.by_route, 'by_route')),
    coverage: { durable: true },
    source: 'derived',
  };
}
