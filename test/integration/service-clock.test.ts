/**
 * The service's clock set by CLOCK_START (src/clock.ts), in one process: the answers' meta.as_of
 * and /v1/status read it; and outside market hours by that clock the streams' replay loops over
 * the last completed session, so a stream opened long after its first pass ended gets replayed
 * prints, round after round, each message marked replay. (The cluster's one clock:
 * cluster.test.ts.)
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getStatus, listOptionTrades } from '../../generated/client/index.js';
import { loadSimulatedMarket, MARKET_NOW } from '../support/market.js';
import { startTestService, type TestService } from '../support/service.js';
import { StreamClient, type StreamMessage } from '../support/stream-client.js';

const DAY = '2026-11-20';
/** Friday 2026-11-20 18:00 ET, two hours after the regular close (the small market's "now"). */
const CLOCK_START = '2026-11-20T18:00:00-05:00';
const REPLAY_SPEED = 10_000;
/** The replayed session: the open to the index options' close and an hour of late reports. */
const OPEN = Date.parse('2026-11-20T14:30:00Z');
const CLOSE = Date.parse('2026-11-20T21:00:00Z');
const END = Date.parse('2026-11-20T22:15:00Z');

describe('CLOCK_START: the service clock', () => {
  let service: TestService;
  let startedBefore: number;
  let startedAfter: number;

  beforeAll(async () => {
    expect(Date.parse(CLOCK_START)).toBe(MARKET_NOW);
    startedBefore = Date.now();
    service = await startTestService({ env: { CLOCK_START, LIVE_MODE: 'live', REPLAY_SPEED: String(REPLAY_SPEED) } });
    startedAfter = Date.now();
    await loadSimulatedMarket(service.database.admin, { dates: [DAY] });
  }, 300_000);
  afterAll(async () => service?.stop());

  /** The clock's reading at a wall time between `before` and `after`, by the bounds of its start. */
  const bounds = (before: number, after: number): [number, number] => [
    MARKET_NOW + before - startedAfter,
    MARKET_NOW + after - startedBefore,
  ];

  it("answers with meta.as_of and /v1/status stamps of the set clock, which runs on from the service's start", async () => {
    const { client } = await service.newAccount({ plan: 'pro' });
    const before = Date.now();
    const status = await getStatus({ client: service.client() });
    // No date: the route's default, the session of the set clock's "now".
    const trades = await listOptionTrades({ client, query: { underlying_symbol: 'SPY', limit: 5 } });
    const after = Date.now();
    expect(status.response.status).toBe(200);
    expect(trades.response.status).toBe(200);
    const [low, high] = bounds(before, after);
    for (const asOf of [status.data!.meta.as_of, trades.data!.meta.as_of]) {
      expect(asOf).toBeGreaterThanOrEqual(low);
      expect(asOf).toBeLessThanOrEqual(high);
    }
    expect(status.data!.data.started_timestamp).toBeGreaterThanOrEqual(MARKET_NOW);
    expect(status.data!.data.started_timestamp).toBeLessThanOrEqual(bounds(startedAfter, startedAfter)[1]);
    // Prints of the set clock's session (the trading date is the fifth part of a print's id).
    expect(trades.data!.data).toHaveLength(5);
    expect(new Set(trades.data!.data.map((p) => p.id.split(':')[4]))).toEqual(new Set([DAY]));
  });

  it('replays the last completed session round after round outside market hours: prints long after the first pass, the same print in two rounds, all marked replay', async () => {
    const { key } = await service.newAccount({ plan: 'pro' });
    const viewer = await StreamClient.open(service.url, { key });
    try {
      await viewer.next((m) => m.type === 'welcome');
      viewer.send({ type: 'subscribe', id: 'p', channel: 'prints', params: { underlying_symbols: ['SPY'] } });
      const sub = String((await viewer.next((m) => m.request === 'p')).subscription);
      // The first pass began at the close and ended (END - OPEN) / REPLAY_SPEED ms later, by the set clock: hours ago.
      expect(service.deps.clock() - CLOSE).toBeGreaterThan((END - OPEN) / REPLAY_SPEED);
      const prints = (m: StreamMessage): { id: string; timestamp: number }[] =>
        m.type === 'prints' && m.subscription === sub ? (m.data as { id: string; timestamp: number }[]) : [];
      // A print of the session sent twice: the replay went round at least once more while the stream watched.
      const twice = (): boolean => {
        const seen = new Set<string>();
        for (const m of viewer.messages)
          for (const p of prints(m))
            if (seen.has(p.id)) return true;
            else seen.add(p.id);
        return false;
      };
      await viewer.next(() => twice(), 60_000);
      const sent = viewer.messages.filter((m) => prints(m).length > 0);
      expect(sent.every((m) => m.replay === true && m.trading_date === DAY)).toBe(true);
      for (const p of sent.flatMap(prints)) {
        expect(p.timestamp).toBeGreaterThanOrEqual(OPEN);
        expect(p.timestamp).toBeLessThan(END);
      }
    } finally {
      viewer.close();
    }
  });
});
