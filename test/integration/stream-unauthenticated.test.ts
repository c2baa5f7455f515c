/**
 * Upgrades to /v1/stream without a key (issue 34, section 7): a client network (/24 of IPv4, as the
 * keyless HTTP budget counts, here told by X-Forwarded-For behind one trusted proxy) may have only so
 * many connections waiting for their auth message at once, and an unauthenticated upgrade needs room
 * in the network's budget of requests without a valid key, which such a connection spends when it
 * ends without a key. Beyond either the upgrade is answered HTTP 429 with the error body and
 * Retry-After, before any WebSocket; an upgrade with a key is not concerned.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { startTestService, type TestService } from '../support/service.js';
import { settled } from '../support/settled.js';

type Answer =
  | { opened: true; ws: WebSocket }
  | { opened: false; status: number; retryAfter: string | null; body: { error: { code: string; message: string; status: number } } };

/** An upgrade to the stream: the open WebSocket, or the HTTP answer that refused it. */
async function upgrade(url: string, headers: Record<string, string>): Promise<Answer> {
  const ws = new WebSocket(`${url.replace(/^http/, 'ws')}/v1/stream`, { headers });
  return await new Promise<Answer>((resolve, reject) => {
    ws.once('open', () => resolve({ opened: true, ws }));
    ws.once('unexpected-response', (_req, res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (text += chunk));
      res.on('end', () =>
        resolve({
          opened: false,
          status: res.statusCode ?? 0,
          retryAfter: res.headers['retry-after'] ?? null,
          body: JSON.parse(text) as Extract<Answer, { opened: false }>['body'],
        }),
      );
    });
    ws.once('error', reject);
  });
}

const from = (address: string, extra: Record<string, string> = {}) => ({ 'x-forwarded-for': address, ...extra });

async function closed(ws: WebSocket): Promise<void> {
  if (ws.readyState === WebSocket.CLOSED) return;
  await new Promise((resolve) => ws.once('close', resolve));
}

describe('unauthenticated stream upgrades', () => {
  const PER_NETWORK = 4;
  let service: TestService;
  let key: string;
  const open: WebSocket[] = [];
  beforeAll(async () => {
    service = await startTestService({
      streamLimits: { unauthenticatedPerNetwork: PER_NETWORK, authTimeoutMs: 30_000 },
      limits: { keylessRequestsPerMinute: 8 },
      env: { TRUST_PROXY: '1' },
    });
    ({ key } = await service.newAccount());
  });
  afterAll(async () => {
    for (const ws of open) ws.terminate();
    await service.stop();
  });

  it('holds at most the cap of connections waiting for their key per client network, refusing more 429 on the upgrade', async () => {
    for (let i = 0; i < PER_NETWORK; i += 1) {
      const answer = await upgrade(service.url, from(`10.1.1.${10 + i}`));
      expect(answer.opened).toBe(true);
      if (answer.opened) open.push(answer.ws);
    }
    // Another address of the same /24: refused before any WebSocket.
    const refused = await upgrade(service.url, from('10.1.1.200'));
    expect(refused).toMatchObject({ opened: false, status: 429, retryAfter: '30' });
    if (refused.opened) throw new Error('opened');
    expect(refused.body.error).toMatchObject({ code: 'rate_limited', status: 429 });
    expect(refused.body.error.message).toContain(`At most ${PER_NETWORK} stream connections per client network`);

    // Another network, and an upgrade with a key from the full one, are not concerned.
    const other = await upgrade(service.url, from('10.1.2.10'));
    expect(other.opened).toBe(true);
    if (other.opened) open.push(other.ws);
    const keyed = await upgrade(service.url, from('10.1.1.201', { authorization: `Bearer ${key}` }));
    expect(keyed.opened).toBe(true);
    if (keyed.opened) open.push(keyed.ws);

    // A waiting connection that authenticates gives its place back.
    const first = open[0]!;
    const welcome = new Promise<Record<string, unknown>>((resolve) =>
      first.once('message', (raw: Buffer) => resolve(JSON.parse(raw.toString()) as Record<string, unknown>)),
    );
    first.send(JSON.stringify({ type: 'auth', key }));
    expect((await welcome).type).toBe('welcome');
    const next = await settled(
      () => upgrade(service.url, from('10.1.1.201')),
      (a) => a.opened,
      { what: 'a place of the network to be given back' },
    );
    if (next.opened) open.push(next.ws);
  });

  it("spends the network's keyless budget with each connection that ends without a key; refuses 429 once spent", async () => {
    // A fresh network: its connections end without a key, spending a budget of 8.
    for (let i = 0; i < 8; i += 1) {
      const answer = await upgrade(service.url, from(`10.9.9.${i + 1}`));
      if (!answer.opened) throw new Error(`refused: ${JSON.stringify(answer)}`);
      answer.ws.close();
      await closed(answer.ws);
    }
    // The last closes may still be on their way: an upgrade admitted meanwhile is closed at once (spending too).
    const spent = await settled(
      async () => {
        const answer = await upgrade(service.url, from('10.9.9.100'));
        if (answer.opened) {
          answer.ws.close();
          await closed(answer.ws);
        }
        return answer;
      },
      (a) => !a.opened,
      { what: "the network's keyless budget to be spent" },
    );
    if (spent.opened) throw new Error('opened');
    expect(spent.status).toBe(429);
    expect(spent.body.error.code).toBe('rate_limited');
    expect(spent.body.error.message).toBe('Requests without a valid key are limited to 8 per minute per client network.');
    expect(Number(spent.retryAfter)).toBeGreaterThan(0);

    // A key on the upgrade still opens the stream from that network.
    const keyed = await upgrade(service.url, from('10.9.9.100', { authorization: `Bearer ${key}` }));
    expect(keyed.opened).toBe(true);
    if (keyed.opened) open.push(keyed.ws);
  });
});
