/**
 * The AsyncAPI document at /v1/asyncapi.json: served without a key, parsed and validated by
 * @asyncapi/parser without an error or warning, one channel per stream channel (the list the
 * catalog's `streamable` flags come from), each channel's messages resolvable, and the messages of
 * a live connection valid against it.
 */
import { Parser } from '@asyncapi/parser';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getAsyncApiDocument, listCatalog } from '../../generated/client/index.js';
import { CHANNELS } from '../../src/stream/channels.js';
import { startTestService, type TestService } from '../support/service.js';
import { MessageSchemas, StreamClient } from '../support/stream-client.js';

describe('AsyncAPI document', () => {
  let service: TestService;
  let document: Record<string, unknown>;

  beforeAll(async () => {
    service = await startTestService();
    const served = await getAsyncApiDocument({ client: service.client() });
    expect(served.response.status).toBe(200);
    document = served.data as unknown as Record<string, unknown>;
  });
  afterAll(async () => service?.stop());

  it('parses and validates with @asyncapi/parser, one channel per stream channel', async () => {
    const { document: parsed, diagnostics } = await new Parser().parse(JSON.stringify(document));
    expect(diagnostics.filter((d) => Number(d.severity) <= 1).map((d) => `${d.code}: ${d.message} at ${d.path.join('/')}`)).toEqual([]);
    expect(parsed).toBeDefined();
    const ids = parsed
      ?.channels()
      .all()
      .map((c) => c.id())
      .sort();
    expect(ids).toEqual(['control', ...CHANNELS.map((c) => c.name)].sort());
    for (const channel of CHANNELS) {
      const messages = parsed
        ?.channels()
        .get(channel.name)
        ?.messages()
        .all()
        .map((m) => m.id())
        .sort();
      // The prints channel also says when stored prints were cancelled, and when an earlier session was loaded again.
      expect(messages).toEqual(
        [channel.name, `subscribe_${channel.name}`, ...(channel.name === 'prints' ? ['print_cancelled', 'archive_loaded'] : [])].sort(),
      );
    }
  });

  it('gives every message one example, valid against its payload', () => {
    const ajv = new Ajv2020({ strict: false, allErrors: true });
    addFormats.default(ajv);
    ajv.addFormat('strike', true);
    ajv.addSchema({ ...document, $id: 'asyncapi' });
    const messages = (document.components as { messages: Record<string, { examples?: { name: string; payload: unknown }[] }> }).messages;
    expect(Object.keys(messages).length).toBeGreaterThanOrEqual(14);
    for (const [name, m] of Object.entries(messages)) {
      expect(m.examples, name).toHaveLength(1);
      const validate = ajv.compile({ $ref: `asyncapi#/components/messages/${name}/payload` });
      const valid = validate(m.examples?.[0]?.payload);
      expect(valid ? [] : (validate.errors ?? []).map((e) => `${e.instancePath} ${e.message ?? ''}`), name).toEqual([]);
    }
    // A data message's example carries the data its route answers (the captured REST answers).
    const prints = messages.prints?.examples?.[0]?.payload as { data: { id: string }[] };
    expect(prints.data[0]?.id).toMatch(/^[A-Z]+:\d{4}-\d{2}-\d{2}:/);
  });

  it('agrees with the catalog: streamable exactly where a channel streams the route', async () => {
    const { key } = await service.newAccount();
    const catalog = await listCatalog({ client: service.client(key) });
    const streamable = (catalog.data?.data ?? [])
      .filter((e) => e.streamable)
      .map((e) => e.id)
      .sort();
    expect(streamable).toEqual(CHANNELS.flatMap((c) => c.operations).sort());
    const described = JSON.stringify(document.channels);
    for (const id of streamable) expect(described).toContain(id);
  });

  it('describes the messages a connection receives', async () => {
    const { key } = await service.newAccount();
    const schemas = new MessageSchemas(document);
    const stream = await StreamClient.open(service.url, { key, schemas });
    try {
      await stream.next((m) => m.type === 'welcome');
      stream.send({ type: 'subscribe', id: 1, channel: 'prints', params: { underlying_symbols: ['SPY'] } });
      stream.send({ type: 'subscribe', id: 2, channel: 'levels', params: { underlying_symbol: 'SPX', greek: 'nope' } });
      await stream.next((m) => m.request === '2');
      stream.send({ type: 'unsubscribe', id: 3, subscription: 's1' });
      await stream.next((m) => m.request === '3');
      expect(stream.messages.map((m) => m.type)).toEqual(['welcome', 'subscribed', 'error', 'unsubscribed']);
      expect(stream.invalid).toEqual([]);
      // The echo holds the defaults a stream takes (session), not the trades route's limit.
      const params = stream.messages.find((m) => m.type === 'subscribed')?.params as Record<string, unknown>;
      expect(params).toMatchObject({ underlying_symbols: ['SPY'], session: 'rth' });
      expect(Object.keys(params)).not.toContain('limit');
    } finally {
      stream.close();
    }
  });
});
