/**
 * The index_values channel of GET /v1/stream on a running service: index bars files written here
 * are loaded through the ingest path while a stream is subscribed, and the stream receives exactly
 * the minutes each load wrote of the indices it follows, as /v1/indices/bars?interval=1m serves
 * them: nothing loaded before it subscribed, no minute outside the calculation window or of an
 * earlier date, no index it does not follow, each minute once. Every message validates against the
 * AsyncAPI document.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getAsyncApiDocument, listIndexBars } from '../../generated/client/index.js';
import type { Client } from '../../generated/client/client/index.js';
import type { IndexBar } from '../../generated/client/types.gen.js';
import { loadMarketFile } from '../../src/ingest/market.js';
import { startTestService, type TestService } from '../support/service.js';
import { MessageSchemas, StreamClient, type StreamMessage } from '../support/stream-client.js';

const MINUTE = 60_000;
/** Friday 2026-11-20 09:30 ET. */
const OPEN = Date.parse('2026-11-20T14:30:00Z');
/** The service clock starts at 12:30 ET that day. */
const START = Date.parse('2026-11-20T17:30:00Z');

const value = (symbol: string, ts: number): number =>
  Math.round(({ SPX: 6000, NDX: 21000, RUT: 2400 }[symbol] ?? 100) * (1 + (ts - OPEN) / 1e9) * 100) / 100;
const line = (symbol: string, ts: number): string =>
  `${symbol},${ts},${value(symbol, ts) - 0.25},${value(symbol, ts) + 0.5},${value(symbol, ts) - 0.5},${value(symbol, ts)},0`;
const minutes = (from: number, count: number): number[] => Array.from({ length: count }, (_, i) => from + i * MINUTE);

describe('index_values stream channel', () => {
  let service: TestService;
  let key: string;
  let client: Client;
  let stream: StreamClient;
  let dir: string;
  let n = 0;
  const load = async (lines: readonly string[]) => {
    n += 1;
    const file = path.join(dir, `${n}-index-bars.csv`);
    fs.writeFileSync(file, `symbol,timestamp,open,high,low,close,volume\n${lines.join('\n')}\n`);
    const result = await loadMarketFile(service.database.admin, 'underlying_bars', file);
    expect(result.rejected).toEqual([]);
  };
  const valuesOf = (symbol: string): StreamMessage[] => stream.messages.filter((m) => m.type === 'index_values' && m.symbol === symbol);
  const barsOf = (symbol: string): IndexBar[] => valuesOf(symbol).flatMap((m) => m.data as IndexBar[]);
  const route = async (symbol: string, from: number, to: number): Promise<IndexBar[]> => {
    const r = await listIndexBars({ client, query: { symbol, interval: '1m', start_time: from, end_time: to } });
    expect(r.response.status).toBe(200);
    return r.data!.data;
  };

  beforeAll(async () => {
    const started = Date.now();
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'stream-index-values-'));
    service = await startTestService({ clock: () => START + (Date.now() - started) });
    ({ key, client } = await service.newAccount({ plan: 'pro' }));
    // Loaded before the stream subscribes: never streamed.
    await load(['SPX', 'NDX', 'RUT'].flatMap((s) => minutes(OPEN, 10).map((ts) => line(s, ts))));
    const doc = await getAsyncApiDocument({ client: service.client() });
    stream = await StreamClient.open(service.url, { key, schemas: new MessageSchemas(doc.data as unknown as Record<string, unknown>) });
    await stream.next((m) => m.type === 'welcome');
  });
  afterAll(async () => {
    stream?.close();
    await service?.stop();
    if (dir) fs.rmSync(dir, { recursive: true, force: true });
  });

  it('refuses unknown indices and intervals other than 1m, naming the parameter', async () => {
    stream.send({ type: 'subscribe', id: 'bad', channel: 'index_values', params: { symbols: 'SPX,FOO', interval: '5m' } });
    const answer = await stream.next((m) => m.request === 'bad');
    expect(answer.type).toBe('error');
    const details = (answer.error as { details: { parameter: string }[] }).details.map((d) => d.parameter).sort();
    expect(details).toEqual(['interval', 'symbols']);
  });

  it('streams exactly the minutes each load wrote of the followed indices, as the bars route serves them', async () => {
    stream.send({ type: 'subscribe', id: 'ix', channel: 'index_values', params: { symbols: 'spx,NDX' } });
    const subscribed = await stream.next((m) => m.request === 'ix');
    expect(subscribed.type, JSON.stringify(subscribed)).toBe('subscribed');
    expect(subscribed.params).toEqual({ symbols: ['SPX', 'NDX'], interval: '1m' });

    // The second load: ten new minutes of each index, a minute before the open, a minute of the day before.
    const second = minutes(OPEN + 10 * MINUTE, 10);
    await load([
      ...['SPX', 'NDX', 'RUT'].flatMap((s) => second.map((ts) => line(s, ts))),
      line('SPX', OPEN - 30 * MINUTE),
      line('SPX', OPEN - 86_400_000 + 90 * MINUTE),
    ]);
    await stream.next(() => barsOf('SPX').length >= 10 && barsOf('NDX').length >= 10);
    for (const symbol of ['SPX', 'NDX']) {
      expect(valuesOf(symbol)).toHaveLength(1);
      expect(valuesOf(symbol)[0]).toMatchObject({ channel: 'index_values', subscription: subscribed.subscription, replay: false });
      expect(barsOf(symbol)).toEqual(await route(symbol, second[0]!, second.at(-1)! + MINUTE));
    }

    // The third load: one minute of SPX and of RUT; only SPX's comes, once.
    const third = OPEN + 20 * MINUTE;
    await load([line('SPX', third), line('RUT', third)]);
    await stream.next(() => valuesOf('SPX').length >= 2);
    expect(valuesOf('SPX')[1]!.data).toEqual(await route('SPX', third, third + MINUTE));
    expect(barsOf('SPX')).toEqual(await route('SPX', OPEN + 10 * MINUTE, third + MINUTE));
    expect(valuesOf('NDX')).toHaveLength(1);
    expect(valuesOf('RUT')).toEqual([]);
    expect(stream.invalid).toEqual([]);
  });
});
