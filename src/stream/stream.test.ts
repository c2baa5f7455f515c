import { randomBytes } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Duplex } from 'node:stream';
import { WebSocket, WebSocketServer } from 'ws';
import { describe, expect, it, vi } from 'vitest';
import type { AuthenticatedAccount } from '../entitlements.js';
import { CLOSE, DEFAULT_STREAM_LIMITS } from '../api-contract/stream-protocol.js';
import { deflated, Stream, wire } from './stream.js';

/** A connection whose send buffer holds what was sent and drains only when told (a client that does not read). */
class StalledSocket {
  readonly OPEN = 1;
  readyState = 1;
  bufferedAmount = 0;
  readonly sent: string[] = [];
  /** Each send call: what it sent and whether it ended the message. */
  readonly frames: { data: string | Buffer; fin: boolean }[] = [];
  closed: { code: number; reason: string } | null = null;
  terminated = false;

  private partial = '';

  send(data: string | Buffer, options: { fin?: boolean } = {}): void {
    const fin = options.fin ?? true;
    this.frames.push({ data, fin });
    this.bufferedAmount += data.length;
    this.partial += typeof data === 'string' ? data : data.toString('utf8');
    if (!fin) return;
    this.sent.push(this.partial);
    this.partial = '';
  }

  close(code: number, reason: string): void {
    this.closed = { code, reason };
    this.readyState = 2;
  }

  terminate(): void {
    this.terminated = true;
  }
}

function streamOn(socket: StalledSocket, maxBufferedBytes: number): Stream {
  const stream = new Stream('t1', {} as AuthenticatedAccount, { ...DEFAULT_STREAM_LIMITS, maxBufferedBytes }, () => 0);
  stream.ws = socket as unknown as WebSocket;
  return stream;
}

describe('a stream whose client does not read', () => {
  it('sends while the bytes waiting stay within the limit, then closes as a slow consumer instead of buffering more', () => {
    const socket = new StalledSocket();
    const stream = streamOn(socket, 1_000);
    const body = `"type":"print","data":"${'x'.repeat(80)}"}`;
    // Each message is {"seq":N, plus the body: about 110 bytes, so nine fit in 1,000 and the tenth does not.
    for (let i = 0; i < 20; i += 1) stream.send(body);
    expect(socket.sent.length).toBe(Math.floor(1_000 / socket.sent[0]!.length));
    expect(socket.bufferedAmount).toBeLessThanOrEqual(1_000);
    expect(socket.closed?.code).toBe(CLOSE.slowConsumer);
    expect(socket.closed?.reason).toMatch(/^slow_consumer: more than 1000 bytes/);
    // Messages go on being numbered and kept for a resume.
    expect(stream.seq).toBe(20);
    expect(stream.canResumeFrom(socket.sent.length)).toBe(true);
  });

  it('keeps a client that reads: the buffer drained, every message is sent in order', () => {
    const socket = new StalledSocket();
    const stream = streamOn(socket, 1_000);
    for (let i = 0; i < 50; i += 1) {
      stream.send(`"type":"print","n":${i}}`);
      socket.bufferedAmount = 0;
    }
    expect(socket.closed).toBeNull();
    expect(socket.sent.map((t) => (JSON.parse(t) as { seq: number }).seq)).toEqual(Array.from({ length: 50 }, (_, i) => i + 1));
  });
});

describe('a body shared by many streams', () => {
  /** A WebSocket server whose connections are wired as the gateway wires them, and `count` clients (offering permessage-deflate or not) each with its stream. */
  async function connections(
    offers: readonly (boolean | { serverMaxWindowBits: number })[],
  ): Promise<{ streams: Stream[]; sockets: Duplex[]; clients: WebSocket[]; received: string[][]; close: () => Promise<void> }> {
    const server = http.createServer();
    const wss = new WebSocketServer({
      noServer: true,
      perMessageDeflate: { serverNoContextTakeover: true, threshold: Number.POSITIVE_INFINITY },
    });
    const windows = new WeakMap<http.IncomingMessage, number | null>();
    wss.on('headers', (headers, req) => {
      const line = headers.find((h) => /^sec-websocket-extensions:/i.test(h));
      windows.set(req, line === undefined ? null : Number(/server_max_window_bits=(\d+)/.exec(line)?.[1] ?? 15));
    });
    const accepted: WebSocket[] = [];
    const sockets: Duplex[] = [];
    server.on('upgrade', (req, socket, head) =>
      wss.handleUpgrade(req, socket, head, (ws) => {
        wire(ws, socket, windows.get(req) ?? null);
        accepted.push(ws);
        sockets.push(socket);
      }),
    );
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    const received: string[][] = [];
    const clients: WebSocket[] = [];
    for (const offer of offers) {
      const client = new WebSocket(`ws://127.0.0.1:${port}`, { perMessageDeflate: offer });
      const messages: string[] = [];
      received.push(messages);
      client.on('message', (raw: Buffer) => messages.push(raw.toString('utf8')));
      await new Promise((resolve) => client.once('open', resolve));
      clients.push(client);
    }
    while (accepted.length < offers.length) await new Promise((resolve) => setTimeout(resolve, 5));
    const streams = accepted.map((ws, i) => {
      const stream = new Stream(`t${i}`, {} as AuthenticatedAccount, DEFAULT_STREAM_LIMITS, () => 0);
      stream.ws = ws;
      return stream;
    });
    return {
      streams,
      sockets,
      clients,
      received,
      close: async () => {
        for (const client of clients) client.terminate();
        wss.close();
        await new Promise((resolve) => server.close(resolve));
      },
    };
  }

  it('reaches each connection as one message of its own sequence and head and the shared body, deflated once for those that negotiated permessage-deflate', async () => {
    // Raw, deflate, deflate with a small window.
    const { streams, sockets, received, close } = await connections([false, true, { serverMaxWindowBits: 10 }]);
    try {
      // A welcome first on the second stream: the streams' numbers differ.
      streams[1]!.send('"type":"welcome"}');
      const data = Array.from({ length: 2000 }, (_, i) => ({ id: `p${i}`, size: i % 7, side: i % 3 === 0 ? 'at_ask' : 'at_bid' }));
      const body = Buffer.from(`"type":"prints","data":${JSON.stringify(data)}}`);
      const short = Buffer.from('"type":"prints","data":[{"id":"q"}]}');
      for (const stream of streams) {
        stream.send(body, '"subscription":"s1",');
        stream.send(short, '"subscription":"s1",');
      }
      await vi.waitFor(() => expect(received.map((r) => r.length)).toEqual([2, 3, 2]), { timeout: 5_000 });
      const prints = received.map((r) => JSON.parse(r.at(-2)!) as { seq: number; subscription: string; type: string; data: unknown[] });
      expect(prints.map((m) => [m.seq, m.subscription])).toEqual([
        [1, 's1'],
        [2, 's1'],
        [1, 's1'],
      ]);
      for (const m of prints) expect(m.data).toEqual(data);
      expect(received.map((r) => JSON.parse(r.at(-1)!) as unknown)).toEqual([
        { seq: 2, subscription: 's1', type: 'prints', data: [{ id: 'q' }] },
        { seq: 3, subscription: 's1', type: 'prints', data: [{ id: 'q' }] },
        { seq: 2, subscription: 's1', type: 'prints', data: [{ id: 'q' }] },
      ]);
      // The deflated connections were sent far fewer bytes.
      const written = sockets.map((socket) => (socket as Duplex & { bytesWritten: number }).bytesWritten);
      expect(written[1]).toBeLessThan(written[0]! / 5);
      expect(written[2]).toBeLessThan(written[0]! / 5);
      // Deflated once per window: the same Buffer on every call, much smaller than the body.
      expect(deflated(body, 15)).toBe(deflated(body, 15));
      expect(deflated(body, 15).length).toBeLessThan(body.length / 5);
      // Kept for a resume as sent, and sent again the same way.
      streams[1]!.resendAfter(1);
      await vi.waitFor(() => expect(received[1]!.length).toBe(5));
      expect(received[1]!.slice(3)).toEqual(received[1]!.slice(1, 3));
    } finally {
      await close();
    }
  });

  it('closes a connection whose client does not read as a slow consumer, its frames written straight to the socket', async () => {
    const { streams, clients, close } = await connections([true]);
    try {
      const stream = new Stream('slow', {} as AuthenticatedAccount, { ...DEFAULT_STREAM_LIMITS, maxBufferedBytes: 64 * 1024 }, () => 0);
      const ws = streams[0]!.ws!;
      stream.ws = ws;
      const closing = vi.spyOn(ws, 'close');
      clients[0]!.pause();
      // Incompressible bodies, so that the kernel's buffers fill.
      const noise = Buffer.from(`"type":"prints","data":["${randomBytes(1 << 19).toString('base64')}"]}`);
      for (let i = 0; i < 400 && ws.readyState === ws.OPEN; i += 1) {
        stream.send(noise);
        await new Promise((resolve) => setImmediate(resolve));
      }
      expect(closing).toHaveBeenCalledTimes(1);
      expect(closing.mock.calls[0]?.[0]).toBe(CLOSE.slowConsumer);
      // What waits is at most the limit and one message.
      expect(ws.bufferedAmount).toBeLessThanOrEqual(64 * 1024 + noise.length + 64);
      // Messages go on being numbered and kept for a resume.
      stream.send(noise);
      expect(stream.canResumeFrom(1)).toBe(true);
    } finally {
      await close();
    }
  });
});
