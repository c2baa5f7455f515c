/**
 * The stream channels, in one list: each names the REST operations whose data it streams (the
 * contract marks exactly those `x-streamable`, and a test holds the two together), and checks a
 * subscription's parameters by those operations' own rules (the query validator and the declared
 * rules between parameters, as an export's query is checked), then the account's entitlements, as
 * a request of the route would be.
 *
 * A stream follows the current session as it grows: the parameters that choose another time or a
 * page (date, start_time, end_time, limit, cursor_id) are not a stream's.
 */
import { indexOf, INDICES } from '../analytics/indices.js';
import type { OperationId, OperationSpec } from '../api-contract/openapi.js';
import { checkEntitlements, type AuthenticatedAccount } from '../entitlements.js';
import { ApiError, invalidParameters, type ErrorDetail } from '../errors.js';
import { echoed } from '../formats.js';
import { parameterRuleProblems, queryProblems, type QueryValidator, type QueryValue } from '../parameters/index.js';

export type ChannelName = 'prints' | 'premium_drift' | 'levels' | 'futures_trades' | 'index_values';

export interface ChannelSpec {
  name: ChannelName;
  /** The REST operations this channel streams: the contract's x-streamable operations. */
  operations: readonly OperationId[];
  /** The operation whose parameter rules a subscription keeps. */
  rules: OperationId;
  summary: string;
}

export const CHANNELS: readonly ChannelSpec[] = [
  {
    name: 'prints',
    operations: ['listOptionTrades', 'listOptionFlow', 'listOvernightOptionFlow'],
    rules: 'listOptionTrades',
    summary:
      'New classified prints as they are loaded, with the filters of /v1/options/trades, for 1 to 50 underlyings or the whole market.',
  },
  {
    name: 'premium_drift',
    operations: ['getPremiumDrift'],
    rules: 'getPremiumDrift',
    summary: 'The buckets of /v1/options/flow/premium-drift of one underlying that new prints changed.',
  },
  {
    name: 'levels',
    operations: ['getExposureLevels'],
    rules: 'getExposureLevels',
    summary: 'Snapshots of the levels object of /v1/options/levels of one underlying, at a fixed cadence and when new prints change it.',
  },
  {
    name: 'futures_trades',
    operations: ['listFuturesTrades'],
    rules: 'listFuturesTrades',
    summary:
      'New futures trades as they are loaded, with the filters of /v1/futures/trades (a contract or a root; size, notional, aggressor side), oldest first.',
  },
  {
    name: 'index_values',
    operations: ['listIndexBars'],
    rules: 'listIndexBars',
    summary:
      'The one-minute values of /v1/indices/bars (interval 1m) of 1 to 10 indices, each minute as it is loaded (only the minutes a load wrote, of the current trading date, in the calculation window).',
  },
];

/** Every operation some channel streams. */
export const STREAMED_OPERATIONS: ReadonlySet<OperationId> = new Set(CHANNELS.flatMap((c) => c.operations));

export function channelNamed(name: unknown): ChannelSpec | undefined {
  return CHANNELS.find((c) => c.name === name);
}

/** Parameters that pick a time, a page or its order: a stream has none (it sends what is loaded, oldest first). */
export const NOT_STREAM_PARAMETERS: ReadonlySet<string> = new Set(['date', 'at', 'start_time', 'end_time', 'limit', 'cursor_id', 'order']);

/**
 * The parameters a `subscribed` message echoes: the checked query without those a stream does not
 * take, which the route's defaults put back (the trades route's limit: 100).
 */
export function subscribedParams(query: Readonly<Record<string, unknown>>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(query).filter(([name]) => !NOT_STREAM_PARAMETERS.has(name)));
}

/** Underlyings of a prints subscription: 1 to this many, or none for the whole market. */
export const MAX_PRINTS_SYMBOLS = 50;
/** The trades route's own bound on a list (its symbols are checked in lists of this many). */
const TRADES_SYMBOLS_PER_CHECK = 10;

/** A subscription's checked parameters: the coerced query, defaults applied. */
export interface CheckedSubscription {
  channel: ChannelSpec;
  operation: OperationSpec;
  query: Record<string, unknown>;
  /** prints: the roots' underlyings as given (null: the whole market). */
  symbols: string[] | null;
}

function listOf(value: QueryValue | undefined): string[] {
  if (value === undefined) return [];
  return (Array.isArray(value) ? value : String(value).split(',')).map(String);
}

function isQueryValue(value: unknown): value is QueryValue {
  const scalar = (v: unknown): boolean => typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean';
  return scalar(value) || (Array.isArray(value) && value.every(scalar));
}

/**
 * Checks a subscription's parameters by its channel's rules; throws the 400 (details naming each
 * bad parameter) or 403 that the REST route would answer.
 */
export function checkSubscription(
  channel: ChannelSpec,
  raw: unknown,
  ctx: { operations: ReadonlyMap<OperationId, OperationSpec>; queries: QueryValidator; account: AuthenticatedAccount; now: number },
): CheckedSubscription {
  const operation = ctx.operations.get(channel.rules);
  if (!operation) throw new Error(`channel ${channel.name}: operation ${channel.rules} is not in the contract`);
  const details: ErrorDetail[] = [];
  if (raw !== undefined && (typeof raw !== 'object' || raw === null || Array.isArray(raw)))
    throw invalidParameters([{ parameter: 'params', message: 'must be an object of parameters' }]);
  const params: Record<string, QueryValue> = {};
  for (const [name, value] of Object.entries((raw ?? {}) as Record<string, unknown>)) {
    if (NOT_STREAM_PARAMETERS.has(name))
      details.push({ parameter: echoed(name), message: 'is not a stream parameter (a stream follows the current session as it grows)' });
    else if (!isQueryValue(value))
      details.push({ parameter: echoed(name), message: 'must be a string, number, boolean or a list of those' });
    else params[name] = value;
  }

  let symbols: string[] | null = null;
  if (channel.name === 'prints') {
    // The trades route's filters; its symbol lists hold 1 to 10, a stream's 1 to 50 or none.
    if (params.underlying_symbol !== undefined && params.underlying_symbols !== undefined) {
      details.push({ parameter: 'underlying_symbols', message: 'give underlying_symbol or underlying_symbols, not both' });
    }
    const given = [...listOf(params.underlying_symbol), ...listOf(params.underlying_symbols)];
    delete params.underlying_symbol;
    delete params.underlying_symbols;
    if (given.length > MAX_PRINTS_SYMBOLS)
      details.push({ parameter: 'underlying_symbols', message: `must hold 1 to ${MAX_PRINTS_SYMBOLS} underlyings` });
    for (let i = 0; i < given.length && i < MAX_PRINTS_SYMBOLS; i += TRADES_SYMBOLS_PER_CHECK) {
      const checked = ctx.queries.check('listOptionTrades', { underlying_symbols: given.slice(i, i + TRADES_SYMBOLS_PER_CHECK) });
      if (!checked.ok) details.push(...checked.details);
    }
    symbols = given.length > 0 ? [...new Set(given.map((s) => s.toUpperCase()))] : null;
  }
  if (channel.name === 'index_values') {
    const given = indexValuesSymbols(params, details);
    symbols = given;
    // The bars route's own checks, on its one symbol: the first given (each of the others is checked above).
    if (given.length > 0) params.symbol = given[0]!;
  }
  const checked = ctx.queries.check(channel.rules, params);
  if (!checked.ok) details.push(...checked.details);
  if (details.length > 0 || !checked.ok) throw invalidParameters(dedupe(details));

  const query = checked.query;
  // The prints channel's symbols were checked above; the rule naming them does not apply to the whole market.
  const problems =
    channel.name === 'prints'
      ? parameterRuleProblems(
          operation.facts.parameterRules.filter((r) => r.kind !== 'exactly_one_of'),
          query,
        )
      : queryProblems(operation, query);
  if (problems.length > 0) throw invalidParameters(problems);
  if (channel.name === 'index_values') {
    delete query.symbol;
    query.symbols = symbols;
  } else if (symbols !== null) query.underlying_symbols = symbols;
  checkEntitlements(operation, ctx.account, query);
  if (ctx.account.status === 'suspended') throw new ApiError(403, 'account_suspended', 'This account is suspended.');
  return { channel, operation, query, symbols };
}

/** Indices of an index_values subscription: 1 to this many. */
export const MAX_INDEX_SYMBOLS = 10;

/**
 * An index_values subscription's indices (`symbol`, or `symbols` as a list or comma-separated),
 * upper-cased, each an index of this service; and its interval, which is 1m (the one-minute values).
 * Problems are added to `details`; `symbols` and `interval` are taken out of `params`.
 */
function indexValuesSymbols(params: Record<string, QueryValue>, details: ErrorDetail[]): string[] {
  if (params.symbol !== undefined && params.symbols !== undefined)
    details.push({ parameter: 'symbols', message: 'give symbol or symbols, not both' });
  const given = [...new Set([...listOf(params.symbol), ...listOf(params.symbols)].map((s) => s.trim().toUpperCase()))];
  delete params.symbol;
  delete params.symbols;
  if (given.length === 0 || given.length > MAX_INDEX_SYMBOLS)
    details.push({ parameter: 'symbols', message: `must hold 1 to ${MAX_INDEX_SYMBOLS} indices` });
  const unknown = given.filter((s) => indexOf(s) === null);
  if (unknown.length > 0)
    details.push({
      parameter: 'symbols',
      message: `${unknown.join(', ')}: not an index of this service (the indices: ${INDICES.map((i) => i.symbol).join(', ')})`,
    });
  if (params.interval !== undefined && params.interval !== '1m')
    details.push({ parameter: 'interval', message: 'the channel streams the one-minute values: 1m only' });
  delete params.interval;
  return given;
}

function dedupe(details: ErrorDetail[]): ErrorDetail[] {
  const seen = new Set<string>();
  return details.filter((d) => {
    const key = `${d.parameter}\u0000${d.message}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}
