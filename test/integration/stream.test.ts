/**
 * GET /v1/stream on a small simulated market: everything of 2026-11-20 but its prints is loaded
 * first; streams then subscribe and 2026-11-20's prints file
 * is loaded through the ordinary ingest path. The prints arrive in the trades route's order with its
 * bodies; premium drift and levels follow the REST routes; every message validates against the
 * AsyncAPI document; authentication, the connection cooldown, resume and replay. The slow-consumer
 * close is a unit test (src/stream/stream.test.ts): over a real socket, whether a client that does not
 * read passes the limit depends on how much the kernel's socket buffers take (up to tens of MB here).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  getAsyncApiDocument,
  getExposureLevels,
  getPremiumDrift,
  listAccountUsage,
  listOptionFlow,
  listOptionTrades,
} from '../../generated/client/index.js';
import type { Client } from '../../generated/client/client/index.js';
import type { OptionPrint as Print } from '../../generated/client/types.gen.js';
import { formatOccSymbol } from '../../src/analytics/occ.js';
import { optionsRegularClose } from '../../src/analytics/sessions.js';
import type { IngestKind } from '../../src/ingest/layouts.js';
import { loadMarketFile } from '../../src/ingest/market.js';
import { loadFilesInOrder } from '../../src/ingest/seed-market.js';
import { keyPrefix } from '../../src/api-keys.js';
import { revokeKey, setAccountPlan } from '../../src/db/accounts.js';
import { StreamHub } from '../../src/stream/hub.js';
import type { Replay } from '../../src/stream/replay.js';
import { DEFAULT_STREAM_LIMITS } from '../../src/api-contract/stream-protocol.js';
import { Stream } from '../../src/stream/stream.js';
import { MARKET_NOW, smallMarketSimulation } from '../support/market.js';
import { startTestService, type TestService } from '../support/service.js';
import { MessageSchemas, StreamClient, type StreamMessage } from '../support/stream-client.js';

const DAY = '2026-11-20';

type Page = { data?: { data: Print[]; pagination: { next_cursor_id: string | null } }; response: Response };

async function walk(call: (cursor: string | undefined) => Promise<Page>): Promise<Print[]> {
  const rows: Print[] = [];
  let cursor: string | undefined;
  for (let i = 0; i < 1000; i += 1) {
    const page = await call(cursor);
    expect(page.response.status).toBe(200);
    rows.push(...(page.data?.data ?? []));
    cursor = page.data?.pagination.next_cursor_id ?? undefined;
    if (cursor === undefined) return rows;
  }
  throw new Error('walk did not end');
}

const printsOf = (messages: StreamMessage[], subscription: string, replay = false): Print[] =>
  messages.filter((m) => m.type === 'prints' && m.subscription === subscription && m.replay === replay).flatMap((m) => m.data as Print[]);

describe('streams', () => {
  let service: TestService;
  let key: string;
  let client: Client;
  let schemas: MessageSchemas;
  let dayPrints: string[];
  let earlierPrints: string[];
  let main: StreamClient;
  const subs: Record<string, string> = {};

  beforeAll(async () => {
    // The market's clock, moving on from its instant (the usage route counts what came before now).
    const started = Date.now();
    service = await startTestService({
      clock: () => MARKET_NOW + (Date.now() - started),
      streamLimits: { maxBufferedBytes: 256 * 1024, authTimeoutMs: 500 },
      env: { METRICS_PORT: '0' },
    });
    ({ key, client } = await service.newAccount({ plan: 'pro' }));
    // The run's simulation of the small market (its files of DAY are those of a simulation with DAY's snapshots alone).
    const summary = await smallMarketSimulation();
    const files: Partial<Record<IngestKind, string[]>> = {};
    for (const [kind, list] of Object.entries(summary.files) as [IngestKind, string[]][]) {
      const wanted = kind === 'contracts' ? list : list.filter((f) => path.basename(f).includes(DAY));
      files[kind] = kind === 'prints' ? wanted.filter((f) => !path.basename(f).includes(DAY)) : wanted;
    }
    dayPrints = (summary.files.prints ?? []).filter((f) => path.basename(f).includes(DAY));
    earlierPrints = (summary.files.prints ?? []).filter((f) => path.basename(f).includes('2026-11-19'));
    await loadFilesInOrder(service.database.admin, files);
    const doc = await getAsyncApiDocument({ client: service.client() });
    schemas = new MessageSchemas(doc.data as unknown as Record<string, unknown>);
    // The day's quotes with chain snapshots (for levels) are most of the time: tens of seconds on a quiet machine, minutes on a busy one.
  }, 300_000);
  afterAll(async () => {
    main?.close();
    await service?.stop();
  });

  it("streams a load's prints in the trades route's order with its bodies, and drift and levels as REST serves them", async () => {
    main = await StreamClient.open(service.url, { key, schemas });
    const welcome = await main.next((m) => m.type === 'welcome');
    expect(welcome.seq).toBe(1);
    const subscribe = async (id: string, channel: string, params: Record<string, unknown>): Promise<string> => {
      main.send({ type: 'subscribe', id, channel, params });
      const answer = await main.next((m) => m.request === id);
      expect(answer.type, JSON.stringify(answer)).toBe('subscribed');
      return String(answer.subscription);
    };
    subs.market = await subscribe('market', 'prints', { session: 'all' });
    subs.spy = await subscribe('spy', 'prints', { underlying_symbols: 'SPY,QQQ', min_size: 2, trade_type: ['sweep', 'single'] });
    subs.drift = await subscribe('drift', 'premium_drift', { underlying_symbol: 'SPY', interval: '15m' });
    subs.levels = await subscribe('levels', 'levels', { underlying_symbol: 'SPX' });

    for (const file of dayPrints) await loadMarketFile(service.database.admin, 'prints', file);
    await service.streams?.hub.settled();

    const market = await walk((cursor) => listOptionFlow({ client, query: { date: DAY, session: 'all', limit: 500, cursor_id: cursor } }));
    expect(market.length).toBeGreaterThan(1000);
    await main.next(() => printsOf(main.messages, subs.market ?? '').length >= market.length);
    expect(printsOf(main.messages, subs.market ?? '')).toEqual([...market].reverse());

    const spy = await walk((cursor) =>
      listOptionTrades({
        client,
        query: {
          underlying_symbols: ['SPY', 'QQQ'],
          date: DAY,
          min_size: 2,
          trade_type: ['sweep', 'single'],
          limit: 500,
          cursor_id: cursor,
        },
      }),
    );
    expect(spy.length).toBeGreaterThan(10);
    await main.next(() => printsOf(main.messages, subs.spy ?? '').length >= spy.length);
    expect(printsOf(main.messages, subs.spy ?? '')).toEqual([...spy].reverse());

    // Premium drift: the buckets sent, latest of each, are the route's.
    const drift = await getPremiumDrift({ client, query: { underlying_symbol: 'SPY', interval: '15m' } });
    await main.next((m) => m.type === 'premium_drift' && m.replay === false);
    const buckets = new Map<number, unknown>();
    for (const m of main.messages.filter((x) => x.type === 'premium_drift' && x.replay === false))
      for (const b of m.data as { timestamp: number }[]) buckets.set(b.timestamp, b);
    expect([...buckets.values()].sort((a, b) => (a as { timestamp: number }).timestamp - (b as { timestamp: number }).timestamp)).toEqual(
      drift.data?.data,
    );

    const levels = await getExposureLevels({ client, query: { underlying_symbol: 'SPX' } });
    const lastLevels = await main.next((m) => m.type === 'levels');
    expect(levels.response.status).toBe(200);
    expect(main.messages.filter((m) => m.type === 'levels').at(-1)?.data).toEqual(levels.data?.data);
    void lastLevels;

    // Sequence numbers without gaps; every message as the AsyncAPI document describes it.
    expect(main.messages.map((m) => m.seq)).toEqual(main.messages.map((_, i) => i + 1));
    expect(main.invalid).toEqual([]);
    // Each of the day's loads, and only those (not the earlier dates'), in the stream delivery histogram.
    const metrics = await (await fetch(service.metricsUrl ?? '')).text();
    expect(Number(/^oads_stream_load_delivery_seconds_count (\d+)$/m.exec(metrics)?.[1])).toBe(dayPrints.length);
  });

  it("tells the subscriptions a print matched when a later load cancels it, in the load's place in the stream; premium drift follows the route", async () => {
    // Two stored single SPY prints at the ask (of the rth session, streamed by the first test's load;
    // premium drift counts them), each with a size above 1 and alone on its contract at its instant.
    const spy = await walk((cursor) =>
      listOptionTrades({ client, query: { underlying_symbol: 'SPY', date: DAY, limit: 500, cursor_id: cursor } }),
    );
    const alone = (p: Print): boolean =>
      spy.filter(
        (o) => o.id.split(':').slice(0, 4).join(':') === p.id.split(':').slice(0, 4).join(':') && Math.abs(o.timestamp - p.timestamp) <= 5,
      ).length === 1;
    const [first, second] = spy.filter(
      (p) => p.side === 'at_ask' && p.trade_type === 'single' && p.size > 1 && p.group_id === null && alone(p),
    );
    if (!first || !second) throw new Error('the market has no two lone SPY prints at the ask');
    const occ = (p: Print): string =>
      formatOccSymbol({ root: p.underlying_symbol, dateOfExpiry: p.date_of_expiry, type: p.contract_type, strike: p.strike });
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'oads-cancel-'));
    const header =
      'option_symbol,timestamp,sequence,price,size,exchange_code,condition_code,extended_conditions,aggressor_side,bid,ask,quote_timestamp';
    // A cancel record (condition 201) of the same contract, exchange, price and size, just after the print.
    const cancelOf = (p: Print, sequence: number): string =>
      `${occ(p)},${p.timestamp + 1},${sequence},${p.price},${p.size},${p.exchange_code},201,,,,,`;
    const file = (name: string, lines: string[]): string => {
      const f = path.join(dir, name);
      fs.writeFileSync(f, [header, ...lines].join('\n'));
      return f;
    };
    const pick = (p: Print): Record<string, unknown> =>
      Object.fromEntries(
        [
          'id',
          'timestamp',
          'session',
          'underlying_symbol',
          'contract_type',
          'strike',
          'date_of_expiry',
          'exchange',
          'price',
          'size',
          'premium',
        ].map((k) => [k, p[k as keyof Print]]),
      );

    const viewer = await StreamClient.open(service.url, { key, schemas });
    try {
      await viewer.next((m) => m.type === 'welcome');
      const subscribe = async (id: string, channel: string, params: Record<string, unknown>): Promise<string> => {
        viewer.send({ type: 'subscribe', id, channel, params });
        return String((await viewer.next((m) => m.request === id && m.type === 'subscribed')).subscription);
      };
      const matching = await subscribe('m', 'prints', { underlying_symbols: 'SPY' });
      // Not matching: another underlying; SPY prints larger than both.
      const other = await subscribe('o', 'prints', { underlying_symbols: 'QQQ' });
      const larger = await subscribe('l', 'prints', { underlying_symbols: 'SPY', min_size: Math.max(first.size, second.size) + 1 });
      const drift = await subscribe('d', 'premium_drift', { underlying_symbol: 'SPY', interval: '15m' });
      await viewer.next((m) => m.type === 'premium_drift' && m.subscription === drift && m.replay === false);
      const start = viewer.messages.length;
      // The drift buckets the stream sent, the latest of each, against the route's after the load (which the cancel changed).
      let served: unknown = (await getPremiumDrift({ client, query: { underlying_symbol: 'SPY', interval: '15m' } })).data?.data;
      const driftAgrees = async (): Promise<void> => {
        const buckets = new Map<number, unknown>();
        for (const m of viewer.messages.filter((x) => x.type === 'premium_drift' && x.subscription === drift && x.replay === false))
          for (const b of m.data as { timestamp: number }[]) buckets.set(b.timestamp, b);
        const rest = (await getPremiumDrift({ client, query: { underlying_symbol: 'SPY', interval: '15m' } })).data?.data;
        expect(rest).not.toEqual(served);
        served = rest;
        expect(
          [...buckets.values()].sort((a, b) => (a as { timestamp: number }).timestamp - (b as { timestamp: number }).timestamp),
        ).toEqual(rest);
      };
      // A load is handled once its notification has come: the cancels are its last prints message, its drift follows in the same turn.
      const handled = async (cancels: number): Promise<void> => {
        await viewer.next(() => viewer.messages.filter((m) => m.type === 'print_cancelled').length >= cancels);
        await service.streams?.hub.settled();
      };

      // Load 1 holds only the cancel of the first print (it writes no print).
      const one = await loadMarketFile(service.database.admin, 'prints', file('cancel-1.csv', [cancelOf(first, 900_000_001)]));
      expect(one).toMatchObject({ loaded: 0, cancelsOfStored: 1 });
      await handled(1);
      await driftAgrees();

      // Load 2: a new print of the second print's contract, then the cancel of the second print.
      const added = `${occ(second)},${second.timestamp + 2},900000003,${second.price},1,${second.exchange_code},209,,,,,`;
      const two = await loadMarketFile(service.database.admin, 'prints', file('cancel-2.csv', [cancelOf(second, 900_000_002), added]));
      expect(two).toMatchObject({ loaded: 1, cancelsOfStored: 1 });
      await handled(2);
      await driftAgrees();

      // REST no longer serves either print.
      const after = await walk((cursor) =>
        listOptionTrades({ client, query: { underlying_symbol: 'SPY', date: DAY, limit: 500, cursor_id: cursor } }),
      );
      expect(after.map((p) => p.id)).not.toContain(first.id);
      expect(after.map((p) => p.id)).not.toContain(second.id);
      const newPrint = after.find((p) => p.id.endsWith(':900000003'));
      expect(newPrint).toBeDefined();

      // In stream order, live messages only (the service's own replay goes on meanwhile): each load's
      // own prints, then the cancels, then its drift; to the matching subscription only.
      const live = viewer.messages.slice(start).filter((m) => m.replay !== true);
      expect(live.map((m) => [m.type, m.subscription])).toEqual([
        ['print_cancelled', matching],
        ['premium_drift', drift],
        ['prints', matching],
        ['print_cancelled', matching],
        ['premium_drift', drift],
      ]);
      expect(live[0]).toMatchObject({ channel: 'prints', trading_date: DAY, data: [pick(first)] });
      expect(live[2]?.data).toEqual([newPrint]);
      expect(live[3]).toMatchObject({ channel: 'prints', trading_date: DAY, data: [pick(second)] });
      // (Besides the replay, which the non-matching subscriptions get as well.)
      expect(
        viewer.messages.filter((m) => m.replay !== true && (m.subscription === other || m.subscription === larger)).map((m) => m.type),
      ).toEqual(['subscribed', 'subscribed']);
      expect(viewer.messages.map((m) => m.seq)).toEqual(viewer.messages.map((_, i) => i + 1));
      expect(viewer.invalid).toEqual([]);
    } finally {
      viewer.close();
    }
  });

  it('resumes a stream from the last sequence read, without duplicates or gaps', async () => {
    const welcome = main.messages[0];
    const before = main.messages.length;
    expect(before).toBeGreaterThan(10);
    const lastRead = Math.floor(before / 2);
    main.close();
    await main.closedWith();
    // What the connection read before it closed (the stream may go on sending meanwhile: the
    // service's replay, messages kept for the resume).
    const read = main.messages.length;
    const resumed = await StreamClient.open(service.url, {
      key,
      schemas,
      query: `resume=${String(welcome?.stream_id)}&last_seq=${lastRead}`,
    });
    try {
      const hello = await resumed.next((m) => m.type === 'welcome');
      expect(hello.resumed).toBe(true);
      // The messages after lastRead, as first sent and without gaps, then the welcome of the new connection.
      const helloAt = resumed.messages.findIndex((m) => m.type === 'welcome');
      const resent = resumed.messages.slice(0, helloAt);
      expect(resent.length).toBeGreaterThanOrEqual(read - lastRead);
      expect(resent.map((m) => m.seq)).toEqual(resent.map((_, i) => lastRead + 1 + i));
      expect(resent.slice(0, read - lastRead)).toEqual(main.messages.slice(lastRead));
      expect(hello.seq).toBe(lastRead + resent.length + 1);
      // The stream goes on: a subscription answered, every message numbered on from the welcome.
      resumed.send({ type: 'unsubscribe', id: 'u', subscription: subs.levels });
      const unsubscribed = await resumed.next((m) => m.request === 'u');
      expect(unsubscribed).toMatchObject({ type: 'unsubscribed' });
      const after = resumed.messages.slice(helloAt);
      expect(after.map((m) => m.seq)).toEqual(after.map((_, i) => Number(hello.seq) + i));
      expect(resumed.invalid).toEqual([]);

      const unknown = await StreamClient.open(service.url, { key, query: 'resume=nope&last_seq=3' });
      expect((await unknown.closedWith()).code).toBe(4410);
    } finally {
      resumed.close();
    }
  });

  it("closes a connection without a valid key with a clear code and reason; checks subscriptions by the routes' rules", async () => {
    const none = await StreamClient.open(service.url);
    const timedOut = await none.closedWith();
    expect(timedOut.code).toBe(4408);
    expect(timedOut.reason).toMatch(/^unauthorized/);

    const bad = await StreamClient.open(service.url, { key: 'oads_notakey_0000000000000000000000' });
    const badClose = await bad.closedWith();
    expect(badClose).toEqual({ code: 4401, reason: 'unauthorized: Invalid API key.' });
    expect(bad.messages[0]).toMatchObject({ type: 'error', error: { code: 'unauthorized', status: 401 } });

    const browserBad = await StreamClient.open(service.url);
    browserBad.send({ type: 'auth', key: 'wrong' });
    expect((await browserBad.closedWith()).code).toBe(4401);

    const browser = await StreamClient.open(service.url, { schemas });
    browser.send({ type: 'auth', key });
    await browser.next((m) => m.type === 'welcome');
    browser.send({
      type: 'subscribe',
      id: 'x',
      channel: 'prints',
      params: { min_size: -1, date: DAY, underlying_symbols: Array.from({ length: 51 }, (_, i) => `S${i}`) },
    });
    const refused = await browser.next((m) => m.request === 'x');
    expect(refused).toMatchObject({ type: 'error', error: { code: 'invalid_parameter', status: 400 } });
    const named = (refused.error as { details: { parameter: string }[] }).details.map((d) => d.parameter).sort();
    expect(named).toEqual(['date', 'min_size', 'underlying_symbols']);
    browser.send({ type: 'subscribe', id: 'y', channel: 'quotes' });
    expect(await browser.next((m) => m.request === 'y')).toMatchObject({ type: 'error', error: { code: 'invalid_parameter' } });
    expect(browser.invalid).toEqual([]);
    browser.close();

    // A client that subscribes at once, before its welcome (while its key is checked), is answered in order.
    const eager = await StreamClient.open(service.url, { key, schemas });
    eager.send({ type: 'subscribe', id: 'e', channel: 'prints', params: { underlying_symbols: 'SPY' } });
    await eager.next((m) => m.request === 'e');
    expect(eager.messages.map((m) => [m.seq, m.type])).toEqual([
      [1, 'welcome'],
      [2, 'subscribed'],
    ]);
    eager.close();

    // Overnight data needs the entitlement, as on REST.
    const basic = await service.newAccount({ plan: 'basic', overnight: false });
    const stream = await StreamClient.open(service.url, { key: basic.key, schemas });
    await stream.next((m) => m.type === 'welcome');
    stream.send({ type: 'subscribe', id: 'g', channel: 'prints', params: { session: 'gth' } });
    expect(await stream.next((m) => m.request === 'g')).toMatchObject({ type: 'error', error: { code: 'forbidden', status: 403 } });
    stream.send({ type: 'subscribe', id: 'r', channel: 'prints', params: { session: 'rth' } });
    expect(await stream.next((m) => m.request === 'r')).toMatchObject({ type: 'subscribed' });
    stream.close();
  });

  it('answers a plain GET /v1/stream (no upgrade) 426 with Upgrade: websocket and the error body; other methods 405', async () => {
    for (const headers of [{}, { authorization: `Bearer ${key}` }] as Record<string, string>[]) {
      const plain = await fetch(`${service.url}/v1/stream`, { headers });
      expect(plain.status).toBe(426);
      expect(plain.headers.get('upgrade')).toBe('websocket');
      const body = (await plain.json()) as { error: Record<string, unknown> };
      expect(body.error).toMatchObject({ code: 'upgrade_required', status: 426, details: [], retry_after_ms: null });
      expect(body.error.request_id).toBe(plain.headers.get('x-request-id'));
      expect(Object.keys(body.error).sort()).toEqual(['code', 'details', 'message', 'request_id', 'retry_after_ms', 'status']);
    }
    const head = await fetch(`${service.url}/v1/stream`, { method: 'HEAD' });
    expect(head.status).toBe(426);
    const post = await fetch(`${service.url}/v1/stream`, { method: 'POST' });
    expect(post.status).toBe(405);
    expect(post.headers.get('allow')).toBe('GET, HEAD');
    expect(((await post.json()) as { error: { code: string } }).error.code).toBe('method_not_allowed');
  });

  it('checks the entitlements again before each load: a subscription whose account lost overnight data ends with 403; a revoked key closes the stream', async () => {
    const account = await service.newAccount({ plan: 'pro' });
    const stream = await StreamClient.open(service.url, { key: account.key, schemas });
    try {
      await stream.next((m) => m.type === 'welcome');
      const ask = async (id: string, message: Record<string, unknown>) => {
        stream.send({ id, ...message });
        return await stream.next((m) => m.request === id);
      };
      const gth = String((await ask('g', { type: 'subscribe', channel: 'prints', params: { session: 'gth' } })).subscription);
      const rth = String((await ask('r', { type: 'subscribe', channel: 'prints', params: { session: 'rth' } })).subscription);
      const hub = service.streams!.hub;
      // A load (of nothing new) after the change: the REST routes' key cache read again (its TTL passed).
      const load = async (id: string): Promise<void> => {
        service.app.keys.clear();
        hub.enqueue(() => hub.handlePrints({ tradingDate: DAY, selection: { kind: 'window', from: 0, to: 1 }, replay: false, at: 0, id }));
        await hub.settled();
      };
      await load('unchanged');
      expect(stream.messages.filter((m) => m.type === 'error')).toEqual([]);

      await setAccountPlan(service.database.admin, account.id, { plan: 'basic', overnight_entitlement: false });
      await load('downgraded');
      const ended = await stream.next((m) => m.type === 'error' && m.subscription === gth);
      expect(ended).toMatchObject({ request: null, error: { code: 'forbidden', status: 403 } });
      expect(await ask('u1', { type: 'unsubscribe', subscription: gth })).toMatchObject({
        type: 'error',
        error: { code: 'invalid_parameter' },
      });
      expect(stream.messages.filter((m) => m.type === 'error' && m.subscription === rth)).toEqual([]);

      await revokeKey(service.database.admin, keyPrefix(account.key) ?? '');
      await load('revoked');
      expect(await stream.closedWith()).toMatchObject({ code: 4401 });
      expect(stream.messages.at(-1)).toMatchObject({ type: 'error', subscription: null, error: { code: 'unauthorized', status: 401 } });
      expect(stream.invalid).toEqual([]);
    } finally {
      stream.close();
    }
  });

  it('counts upgrades in the limits and the usage log; the 21st connection in ten minutes starts the cooldown', async () => {
    const account = await service.newAccount({ plan: 'pro' });
    const open: StreamClient[] = [];
    try {
      for (let i = 0; i < 20; i += 1) {
        const c = await StreamClient.open(service.url, { key: account.key });
        await c.next((m) => m.type === 'welcome');
        open.push(c);
      }
      for (let i = 0; i < 2; i += 1) {
        const refused = await StreamClient.open(service.url, { key: account.key, schemas });
        const closed = await refused.closedWith();
        expect(closed.code).toBe(4429);
        expect(closed.reason).toMatch(/^cooldown: retry_after_ms=\d+/);
        expect(refused.messages[0]).toMatchObject({ type: 'error', error: { code: 'cooldown', status: 429 } });
      }
    } finally {
      for (const c of open) c.close();
    }
    await service.deps.requestLog.flush();
    const usage = await listAccountUsage({ client: account.client, query: { granularity: 'day', by_route: true } });
    const routes = (usage.data?.data ?? []).flatMap((b) => (b as { routes?: { route: string; requests: number }[] }).routes ?? []);
    const stream = routes.filter((r) => r.route === '/v1/stream').reduce((n, r) => n + r.requests, 0);
    expect(stream).toBe(22);
  });

  it('replays the last completed session from its open, marked replay, leaving the store as it was', async () => {
    const count = async (): Promise<number> =>
      Number(
        (
          await service.database.admin
            .selectFrom('prints')
            .select((eb) => eb.fn.countAll().as('n'))
            .executeTakeFirstOrThrow()
        ).n,
      );
    const before = await count();
    // The service's own replay (outside market hours by its clock) stops, so that only this one's steps reach the viewer.
    service.streams?.hub.stopReplay();
    await service.streams?.hub.settled();
    const viewer = await StreamClient.open(service.url, { key, schemas });
    await viewer.next((m) => m.type === 'welcome');
    viewer.send({ type: 'subscribe', id: 'q', channel: 'prints', params: { underlying_symbols: ['QQQ'] } });
    const sub = String((await viewer.next((m) => m.request === 'q')).subscription);
    viewer.send({ type: 'subscribe', id: 'd', channel: 'premium_drift', params: { underlying_symbol: 'SPY', interval: '15m' } });
    const driftSub = String((await viewer.next((m) => m.request === 'd')).subscription);
    // One step, by hand, of a whole session of replayed time from its open (the replay's clock moved on by that much).
    let now = service.deps.clock();
    const replay = service.streams?.hub.startReplay({ speed: 1, when: 'always', stepMs: 3_600_000, anchor: now, clock: () => now });
    now += (optionsRegularClose(DAY, 'index_or_etf') ?? 0) + 60 * 60_000 - Date.parse('2026-11-20T14:30:00Z');
    replay?.step();
    const rest = await walk((cursor) =>
      listOptionTrades({ client, query: { underlying_symbol: 'QQQ', date: DAY, limit: 500, cursor_id: cursor } }),
    );
    const open = Date.parse('2026-11-20T14:30:00Z');
    const end = (optionsRegularClose(DAY, 'index_or_etf') ?? 0) + 60 * 60_000;
    const expected = [...rest].reverse().filter((p) => p.timestamp >= open && p.timestamp < end);
    await viewer.next(() => printsOf(viewer.messages, sub, true).length >= expected.length, 30_000);
    // The step replays the whole session: its drift is the session's, as REST serves it.
    await viewer.next((m) => m.type === 'premium_drift' && m.replay === true, 30_000);
    service.streams?.hub.stopReplay();
    await service.streams?.hub.settled();
    const replayed = new Map<number, unknown>();
    for (const m of viewer.messages.filter((x) => x.type === 'premium_drift' && x.subscription === driftSub && x.replay === true))
      for (const b of m.data as { timestamp: number }[]) replayed.set(b.timestamp, b);
    const drift = await getPremiumDrift({ client, query: { underlying_symbol: 'SPY', interval: '15m', date: DAY } });
    expect([...replayed.values()].sort((x, y) => (x as { timestamp: number }).timestamp - (y as { timestamp: number }).timestamp)).toEqual(
      drift.data?.data,
    );
    expect(printsOf(viewer.messages, sub, true).slice(0, expected.length)).toEqual(expected);
    // (The drift subscription's first message, the current state on subscribing, is not a replay's.)
    expect(viewer.messages.filter((m) => m.type === 'prints').every((m) => m.replay === true)).toBe(true);
    expect(viewer.invalid).toEqual([]);
    expect(await count()).toBe(before);
    viewer.close();
  });

  it('hands a stream between workers in their own event order: re-sends what the new one handled since, skips what it has not reached', async () => {
    // Three workers' hubs over the one store, driven by hand with the same loads (windows of the
    // day's stored prints, named as loads are); a stream moves A -> B (B ahead of A) -> C (C behind B).
    const limits = { ...DEFAULT_STREAM_LIMITS };
    const [r, a, b, c] = [0, 1, 2, 3].map(() => new StreamHub(service.deps, limits, null));
    const account = (await service.app.keys.lookup(keyPrefix(key) ?? '', service.deps.clock()))?.account;
    if (!r || !a || !b || !c || !account) throw new Error('setup');
    const span = await service.database.admin
      .selectFrom('prints')
      .select((eb) => [eb.fn.min('ts').as('from'), eb.fn.max('ts').as('to')])
      .where('trading_date', '=', DAY)
      .executeTakeFirstOrThrow();
    const from = Number(span.from);
    const step = Math.ceil((Number(span.to) + 1 - from) / 5);
    const loads = Array.from({ length: 5 }, (_, i) => ({
      tradingDate: DAY,
      selection: { kind: 'window' as const, from: from + i * step, to: from + (i + 1) * step },
      replay: false,
      at: 0,
      id: `load${i + 1}`,
    }));
    const printsOf = (messages: { body: Buffer; head: string; seq: number }[]): string[] =>
      messages.flatMap((m) => {
        const message = JSON.parse(`{"seq":${m.seq},${m.head}${m.body.toString('utf8')}`) as { type: string; data?: { id: string }[] };
        return message.type === 'prints' ? (message.data ?? []).map((p) => p.id) : [];
      });
    const opened = async (hub: StreamHub, id: string): Promise<Stream> => {
      const stream = new Stream(id, account, limits, service.deps.clock);
      hub.streams.set(id, stream);
      await hub.subscribe(stream, 'prints', { session: 'all' }, null);
      return stream;
    };

    // The reference: a stream that never moves gets every load once.
    const reference = await opened(r, 'reference');
    for (const load of loads) await r.handlePrints(load);
    const expected = printsOf(reference.heldAfter(0));
    expect(expected.length).toBeGreaterThan(1000);

    // The stream opens on A, which handles load1 and load2; B has handled load1 to load3, C load1 only.
    const onA = await opened(a, 'moving');
    for (const load of loads.slice(0, 2)) await a.handlePrints(load);
    for (const load of loads.slice(0, 3)) await b.handlePrints(load);
    await c.handlePrints(loads[0]!);
    const received: string[] = printsOf(onA.heldAfter(0));

    // To B, which has handled load3 already: it sends load3 to the stream as it adopts it.
    const lastA = onA.seq;
    const toB = await a.handOver({ streamId: onA.id, accountId: account.id, lastSeq: lastA });
    expect(toB).not.toBeNull();
    expect(a.streams.has(onA.id)).toBe(false);
    const onB = await b.adopt(toB!, account);
    expect(onB.seq).toBeGreaterThan(lastA);
    await b.handlePrints(loads[3]!);
    received.push(...printsOf(onB.heldAfter(lastA)));
    expect(onB.heldAfter(lastA).map((m) => m.seq)).toEqual(onB.heldAfter(lastA).map((_, i) => lastA + 1 + i));

    // To C, which has handled only load1: it skips the stream for load2 to load4, then sends load5.
    const lastB = onB.seq;
    const toC = await b.handOver({ streamId: onB.id, accountId: account.id, lastSeq: lastB });
    const onC = await c.adopt(toC!, account);
    expect(onC.seq).toBe(lastB);
    for (const load of loads.slice(1)) await c.handlePrints(load);
    received.push(...printsOf(onC.heldAfter(lastB)));
    expect(onC.heldAfter(lastB).map((m) => m.seq)).toEqual(onC.heldAfter(lastB).map((_, i) => lastB + 1 + i));

    // Every print once, in order, as the stream that never moved got them.
    expect(received).toEqual(expected);
    // Another account, or a sequence no longer held, is not handed over.
    expect(await c.handOver({ streamId: onC.id, accountId: 'someone-else', lastSeq: lastB })).toBeNull();
    expect(await c.handOver({ streamId: onC.id, accountId: account.id, lastSeq: onC.seq + 1 })).toBeNull();
  });

  it("hands a stream between workers during a replay: it goes on from the message after the client's last, on the cluster's one replay clock", async () => {
    // Three workers' hubs over the one store replaying on one clock, moved by hand in sixths of the
    // session; the workers step at different moments. A stream moves A -> B (B's replay one step
    // behind A's), then B -> A (A's replay already past the stream's position); a reference stream never moves.
    const limits = { ...DEFAULT_STREAM_LIMITS };
    const [r, a, b] = [0, 1, 2].map(() => new StreamHub(service.deps, limits, null));
    const account = (await service.app.keys.lookup(keyPrefix(key) ?? '', service.deps.clock()))?.account;
    if (!r || !a || !b || !account) throw new Error('setup');
    const length = (optionsRegularClose(DAY, 'index_or_etf') ?? 0) + 60 * 60_000 - Date.parse('2026-11-20T14:30:00Z');
    const anchor = service.deps.clock();
    let now = anchor;
    const options = { speed: 1, when: 'always' as const, stepMs: 3_600_000, anchor, clock: () => now };
    const opened = async (hub: StreamHub, id: string): Promise<Stream> => {
      const stream = new Stream(id, account, limits, service.deps.clock);
      hub.streams.set(id, stream);
      await hub.subscribe(stream, 'prints', { underlying_symbols: 'SPY', session: 'all' }, null);
      await hub.subscribe(stream, 'premium_drift', { underlying_symbol: 'SPY', interval: '15m' }, null);
      await hub.settled();
      return stream;
    };
    const reference = await opened(r, 'reference');
    const onA = await opened(a, 'moving');
    const [replayR, replayA, replayB] = [r, a, b].map((hub) => hub.startReplay(options));
    const at = (sixths: number): void => {
      now = anchor + Math.round((length * sixths) / 6);
    };
    const step = async (...hubs: [StreamHub, Replay | undefined][]): Promise<void> => {
      for (const [hub, replay] of hubs) {
        replay?.step();
        await hub.settled();
      }
    };
    const parsed = (held: { body: Buffer; head: string; seq: number }[]): StreamMessage[] =>
      held.map((m) => JSON.parse(`{"seq":${m.seq},${m.head}${m.body.toString('utf8')}`) as StreamMessage);
    try {
      at(1);
      await step([r, replayR], [a, replayA], [b, replayB]);
      at(2);
      await step([r, replayR], [a, replayA]);
      const lastA = onA.seq;
      const onB = await b.adopt((await a.handOver({ streamId: onA.id, accountId: account.id, lastSeq: lastA }))!, account);
      at(2.5);
      await step([b, replayB]);
      at(3);
      await step([r, replayR], [b, replayB]);
      at(3.5);
      await step([a, replayA]);
      const lastB = onB.seq;
      const onA2 = await a.adopt((await b.handOver({ streamId: onB.id, accountId: account.id, lastSeq: lastB }))!, account);
      at(4);
      await step([a, replayA]);
      // Past the session's end: the rest of it, then the next round from the open.
      at(7);
      await step([r, replayR], [a, replayA]);

      const moving = [...parsed(onA.heldAfter(0)), ...parsed(onB.heldAfter(lastA)), ...parsed(onA2.heldAfter(lastB))];
      expect(moving.map((m) => m.seq)).toEqual(moving.map((_, i) => i + 1));
      const replayed = (messages: StreamMessage[]): string[] => printsOf(messages, 's1', true).map((p) => p.id);
      const expected = replayed(parsed(reference.heldAfter(0)));
      expect(expected.length).toBeGreaterThan(200);
      // Every replayed print once, in order, as the stream that never moved got them (a second round after the end).
      expect(replayed(moving)).toEqual(expected);
      // The replayed drift: the same buckets in the end, and none sent again unchanged.
      const drift = (messages: StreamMessage[]): { timestamp: number }[][] =>
        messages.filter((m) => m.type === 'premium_drift' && m.replay === true).map((m) => m.data as { timestamp: number }[]);
      const latest = (sent: { timestamp: number }[][]): Map<number, string> =>
        new Map(sent.flat().map((x) => [x.timestamp, JSON.stringify(x)]));
      expect(latest(drift(moving))).toEqual(latest(drift(parsed(reference.heldAfter(0)))));
      const previous = new Map<number, string>();
      for (const bucket of drift(moving).flat()) {
        expect(previous.get(bucket.timestamp)).not.toBe(JSON.stringify(bucket));
        previous.set(bucket.timestamp, JSON.stringify(bucket));
      }
    } finally {
      for (const hub of [r, a, b]) hub.stopReplay();
    }
  });

  it('tells each prints subscription when an earlier session is loaded again, without streaming its prints', async () => {
    expect(earlierPrints.length).toBeGreaterThan(0);
    const viewer = await StreamClient.open(service.url, { key, schemas });
    try {
      await viewer.next((m) => m.type === 'welcome');
      viewer.send({ type: 'subscribe', id: 'a', channel: 'prints', params: { session: 'all' } });
      const sub = String((await viewer.next((m) => m.request === 'a')).subscription);
      let rows = 0;
      for (const file of earlierPrints) rows += (await loadMarketFile(service.database.admin, 'prints', file)).loaded;
      expect(rows).toBeGreaterThan(0);
      await service.streams?.hub.settled();
      const told = await viewer.next((m) => m.type === 'archive_loaded');
      expect(told).toMatchObject({ channel: 'prints', subscription: sub, trading_date: '2026-11-19', rows });
      expect(viewer.messages.filter((m) => m.type === 'prints')).toEqual([]);
      expect(viewer.invalid).toEqual([]);
    } finally {
      viewer.close();
    }
  });
});
