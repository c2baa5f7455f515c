import type { WebSocket } from 'ws';
import { describe, expect, it } from 'vitest';
import type { AuthenticatedAccount } from '../entitlements.js';
import { CLOSE, DEFAULT_STREAM_LIMITS } from './protocol.js';
import { Stream } from './stream.js';

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
  it('is sent by each stream as its own sequence and head, then the one shared Buffer ending the message', () => {
    const sockets = [new StalledSocket(), new StalledSocket()];
    const streams = sockets.map((socket) => streamOn(socket, 1 << 20));
    // A welcome first on the second stream: the streams' numbers differ.
    streams[1]!.send('"type":"welcome"}');
    const body = Buffer.from(`"type":"prints","data":[${Array.from({ length: 100 }, (_, i) => `{"id":"p${i}","size":${i}}`).join(',')}]}`);
    for (const stream of streams) stream.send(body, '"subscription":"s1",');
    const messages = sockets.map((socket) => JSON.parse(socket.sent.at(-1)!) as { seq: number; subscription: string; data: unknown[] });
    expect(messages.map((m) => [m.seq, m.subscription, m.data.length])).toEqual([
      [1, 's1', 100],
      [2, 's1', 100],
    ]);
    for (const socket of sockets) {
      const [start, end] = socket.frames.slice(-2);
      expect(start).toMatchObject({ fin: false });
      // The very Buffer, not a copy.
      expect(end?.data).toBe(body);
      expect(end?.fin).toBe(true);
    }
    // A short body goes as one frame.
    expect(sockets[1]!.frames[0]).toEqual({ data: '{"seq":1,"type":"welcome"}', fin: true });
    // Kept for a resume as sent.
    sockets[0]!.sent.length = 0;
    streams[0]!.resendAfter(0);
    expect(JSON.parse(sockets[0]!.sent[0]!)).toEqual(messages[0]);
  });
});
