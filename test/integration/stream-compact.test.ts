/**
 * The prints channel's compact format on the small simulated market of 2026-11-20 (the tests'
 * shared one, copied from its template): one connection subscribes to the whole market as full (the
 * REST bodies), another as compact, and the session is replayed into the streams (the hub's
 * replay, many steps). The compact prints, each rebuilt from the message's fields and its values,
 * are the full ones, in the same order; every message validates against the AsyncAPI document; a
 * format the channel lacks is a 400 naming `format`. Both connections negotiate permessage-deflate
 * (the `ws` client's default), so the shared deflated bodies are read here too.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getAsyncApiDocument } from '../../generated/client/index.js';
import { MARKET_NOW } from '../support/market.js';
import { startTestService, type TestService } from '../support/service.js';
import { MessageSchemas, StreamClient, type StreamMessage } from '../support/stream-client.js';

const DAY = '2026-11-20';

describe('the prints channel, format compact', () => {
  let service: TestService;
  let key: string;
  let schemas: MessageSchemas;
  const clients: StreamClient[] = [];
  const streamIds = new Map<StreamClient, string>();

  beforeAll(async () => {
    const started = Date.now();
    service = await startTestService({ market: { dates: [DAY] }, clock: () => MARKET_NOW + (Date.now() - started) });
    ({ key } = await service.newAccount({ plan: 'pro' }));
    // The service's own replay (outside market hours by its clock) stops: the test starts its own.
    service.streams?.hub.stopReplay();
    await service.streams?.hub.settled();
    schemas = new MessageSchemas((await getAsyncApiDocument({ client: service.client() })).data as unknown as Record<string, unknown>);
  }, 300_000);
  afterAll(async () => {
    for (const client of clients) client.close();
    await service?.stop();
  });

  async function subscribed(params: Record<string, unknown>, format?: string): Promise<{ client: StreamClient; subscription: string }> {
    const client = await StreamClient.open(service.url, { key, schemas });
    clients.push(client);
    const welcome = await client.next((m) => m.type === 'welcome');
    streamIds.set(client, String(welcome.stream_id));
    client.send({ type: 'subscribe', id: 'a', channel: 'prints', params, ...(format ? { format } : {}) });
    const answer = await client.next((m) => m.request === 'a');
    expect(answer.type, JSON.stringify(answer)).toBe('subscribed');
    return { client, subscription: String(answer.subscription) };
  }

  it('sends each print as its values in the order of fields: the full bodies, rebuilt, in the same order', async () => {
    const full = await subscribed({ session: 'all' });
    const compact = await subscribed({ session: 'all' }, 'compact');
    // A format the channel lacks: 400 naming it.
    compact.client.send({ type: 'subscribe', id: 'b', channel: 'levels', params: { underlying_symbol: 'SPX' }, format: 'compact' });
    const refused = await compact.client.next((m) => m.request === 'b');
    expect(refused.type).toBe('error');
    expect((refused.error as { details: { parameter: string }[] }).details.map((d) => d.parameter)).toEqual(['format']);

    service.streams?.hub.startReplay({ speed: 10 * 60 * 1000, when: 'always', stepMs: 20 });
    const printsOf = (messages: StreamMessage[]): StreamMessage[] => messages.filter((m) => m.type === 'prints');
    const count = (messages: StreamMessage[]): number => printsOf(messages).reduce((n, m) => n + (m.data as unknown[]).length, 0);
    await full.client.next(() => count(full.client.messages) >= 1000, 60_000);
    service.streams?.hub.stopReplay();
    await service.streams?.hub.settled();
    // Every message the service sent each of them has arrived (the last may still be on its way).
    for (const client of [full.client, compact.client]) {
      const sent = service.streams?.hub.streams.get(streamIds.get(client) ?? '')?.seq;
      await client.next((m) => m.seq === sent);
    }
    expect(printsOf(full.client.messages).length).toBeGreaterThan(1);
    const bodies = printsOf(full.client.messages).flatMap((m) => m.data as Record<string, unknown>[]);
    const rebuilt = printsOf(compact.client.messages).flatMap((m) => {
      expect(m.format).toBe('compact');
      const fields = m.fields as string[];
      return (m.data as unknown[][]).map((values) => Object.fromEntries(fields.map((f, i) => [f, values[i]])));
    });
    expect(rebuilt.length).toBeGreaterThanOrEqual(1000);
    expect(rebuilt).toEqual(bodies);
    // The same fields, in the same order, as the full bodies'.
    expect(printsOf(compact.client.messages)[0]?.fields).toEqual(Object.keys(bodies[0] ?? {}));
    expect(JSON.stringify(rebuilt)).toBe(JSON.stringify(bodies));
    for (const client of [full.client, compact.client]) {
      expect(client.messages.map((m) => m.seq)).toEqual(client.messages.map((_, i) => i + 1));
      expect(client.invalid).toEqual([]);
    }
  });
});
