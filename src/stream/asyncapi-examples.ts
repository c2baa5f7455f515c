/** The AsyncAPI document's message examples (asyncapi.ts), built from the REST routes' captured answers. */
import { CANCELLED_PRINT_FIELDS } from '../db/print-events.js';
import { examplesDir, loadExamples } from '../docs/enrich.js';
import { MAX_PRINTS_SYMBOLS } from './channels.js';
import type { StreamLimits } from '../api-contract/stream-protocol.js';

type Json = Record<string, unknown>;

/**
 * The data the examples of the data messages carry: a print, premium drift buckets and key levels
 * as the REST routes answered them (openapi/examples, captured from the simulated market and held
 * to the contract by scripts/capture-examples.ts).
 */
export interface StreamExampleData {
  print: Json;
  driftBuckets: Json[];
  levels: Json;
  futuresTrade: Json;
  /** One-minute index bars as /v1/indices/bars answered them. */
  indexBars: Json[];
}

/** The captured answers of the routes the channels stream, read from openapi/examples. */
export function capturedExampleData(dir = examplesDir): StreamExampleData {
  const examples = loadExamples(dir);
  const data = (operationId: string): unknown => {
    const value = examples.get(operationId)?.value as { data?: unknown } | undefined;
    if (value?.data === undefined) throw new Error(`openapi/examples has no ${operationId} answer with data`);
    return value.data;
  };
  const prints = data('listOptionTrades') as Json[];
  const buckets = data('getPremiumDrift') as Json[];
  if (prints.length === 0 || buckets.length === 0) throw new Error('openapi/examples: the trades or premium drift answer is empty');
  const futuresTrades = data('listFuturesTrades') as Json[];
  if (futuresTrades.length === 0) throw new Error('openapi/examples: the futures trades answer is empty');
  return {
    print: prints[0]!,
    driftBuckets: buckets.slice(-2),
    levels: data('getExposureLevels') as Json,
    futuresTrade: futuresTrades[0]!,
    indexBars: (data('listIndexBars') as Json[]).slice(0, 1).map((bar) => ({ ...bar, minutes: 1, close_timestamp: bar.timestamp })),
  };
}

/** Each message's one example (AsyncAPI `examples`), by message name; the contract tests validate them against the payloads. */
export function messageExamples(limits: StreamLimits, sample: StreamExampleData): Record<string, Json> {
  // The print's New York calendar date: a regular-hours print's trading date.
  const tradingDate = new Date(Number(sample.print.timestamp)).toLocaleDateString('en-CA', { timeZone: 'America/New_York' });
  const loadedAt = Number(sample.print.timestamp) + 1500;
  const cancelled = Object.fromEntries(CANCELLED_PRINT_FIELDS.map((f) => [f, sample.print[f]]));
  const examples: Record<string, Json> = {
    auth: { type: 'auth', key: 'oads_k3x9q2ab_N4fR8sT1uV6wX2yZ0aB5cD7eF9gH3jK1m' },
    subscribe_prints: {
      type: 'subscribe',
      id: 'r1',
      channel: 'prints',
      params: { underlying_symbols: ['SPY', 'QQQ'], side: ['ask', 'above_ask'], min_premium: 25_000 },
      format: 'full',
    },
    subscribe_premium_drift: {
      type: 'subscribe',
      id: 'r2',
      channel: 'premium_drift',
      params: { underlying_symbol: 'SPY', interval: '5m' },
    },
    subscribe_levels: { type: 'subscribe', id: 'r3', channel: 'levels', params: { underlying_symbol: 'SPX', greek: 'gamma' } },
    subscribe_index_values: { type: 'subscribe', id: 'r5', channel: 'index_values', params: { symbols: ['SPX', 'NDX'] } },
    unsubscribe: { type: 'unsubscribe', id: 'r4', subscription: 's1' },
    welcome: {
      seq: 1,
      type: 'welcome',
      stream_id: 'Zk3v9QmX2pLr7TnA',
      resumed: false,
      replay: false,
      request_id: 'req_01M8GAYVW3CXC20H1K00000008',
      limits: {
        max_client_message_bytes: limits.maxClientMessageBytes,
        max_server_message_bytes: limits.maxServerMessageBytes,
        max_subscriptions: limits.maxSubscriptions,
        max_symbols: MAX_PRINTS_SYMBOLS,
        max_buffered_bytes: limits.maxBufferedBytes,
        heartbeat_ms: limits.pingIntervalMs,
        resume_window_ms: limits.resumeWindowMs,
        levels_cadence_ms: limits.levelsCadenceMs,
      },
    },
    subscribed: {
      seq: 2,
      type: 'subscribed',
      subscription: 's1',
      channel: 'prints',
      request: 'r1',
      params: { underlying_symbols: ['SPY', 'QQQ'], side: ['ask', 'above_ask'], min_premium: 25_000, session: 'rth' },
    },
    unsubscribed: { seq: 9, type: 'unsubscribed', subscription: 's1', request: 'r4' },
    error: {
      seq: 3,
      type: 'error',
      subscription: null,
      request: 'r3',
      error: {
        code: 'invalid_parameter',
        message: 'Invalid parameters: greek.',
        status: 400,
        request_id: 'req_01M8GAYVW3CXC20H1K00000009',
        details: [{ parameter: 'greek', message: 'must be equal to one of the allowed values: gamma, delta, vanna, charm' }],
        retry_after_ms: null,
      },
    },
    prints: {
      seq: 4,
      type: 'prints',
      channel: 'prints',
      subscription: 's1',
      replay: false,
      trading_date: tradingDate,
      loaded_at: loadedAt,
      data: [sample.print],
    },
    print_cancelled: {
      seq: 7,
      type: 'print_cancelled',
      channel: 'prints',
      subscription: 's1',
      trading_date: tradingDate,
      loaded_at: loadedAt + 60_000,
      data: [cancelled],
    },
    archive_loaded: {
      seq: 8,
      type: 'archive_loaded',
      channel: 'prints',
      subscription: 's1',
      trading_date: '2026-11-19',
      rows: 182_460,
      loaded_at: loadedAt,
    },
    premium_drift: {
      seq: 5,
      type: 'premium_drift',
      channel: 'premium_drift',
      subscription: 's2',
      replay: false,
      data: sample.driftBuckets,
    },
    levels: { seq: 6, type: 'levels', channel: 'levels', subscription: 's3', replay: false, data: sample.levels },
    subscribe_futures_trades: {
      type: 'subscribe',
      id: 'r5',
      channel: 'futures_trades',
      params: { root: 'ES', min_notional: 1_000_000, aggressor_side: 'buy' },
    },
    futures_trades: {
      seq: 10,
      type: 'futures_trades',
      channel: 'futures_trades',
      subscription: 's4',
      trade_date: sample.futuresTrade.trade_date,
      loaded_at: Number(sample.futuresTrade.timestamp) + 1500,
      data: [sample.futuresTrade],
    },
    index_values: {
      seq: 7,
      type: 'index_values',
      channel: 'index_values',
      subscription: 's5',
      symbol: 'SPX',
      replay: false,
      data: sample.indexBars,
    },
  };
  return examples;
}
