/**
 * bench/stream's lean WebSocket client: a plain TCP connection that sends the upgrade, checks the
 * server's Sec-WebSocket-Accept, sends its own frames masked, answers pings, and reads the server's
 * frames from one reused read buffer (net's `onread`) with a FrameReader (frames.ts), which keeps
 * no copy of a message: the head is parsed, the prints counted as their bytes arrive. A client
 * written for speed, in any language, reads so.
 *
 * Why: on a shared 2-core machine the `ws` clients' own costs (a 64 KB buffer allocated per read,
 * each message copied whole, the garbage collection of both) were most of a load's CPU, and the
 * delivery delay they measured was theirs as much as the service's. The bench's checking
 * connection still uses `ws` and JSON-parses every message whole.
 */
import crypto from 'node:crypto';
import net from 'node:net';
import { clientFrame, FrameReader, type ReadMessage } from './frames.js';

const GUID = '258EAFA5-E914-47DA-95CA-C5AB0DC85B11';
/** Bytes one read may bring (the socket's one read buffer). */
export const READ_BUFFER_BYTES = 256 * 1024;

export interface LeanHandlers {
  /** The upgrade was accepted. */
  opened(socket: LeanSocket): void;
  message(message: ReadMessage, received: number): void;
  /** A close frame, a refused upgrade, a frame not understood, or the socket's end or error. */
  closed(reason: string): void;
}

export class LeanSocket {
  private readonly socket: net.Socket;
  private readonly key = crypto.randomBytes(16).toString('base64');
  /** The upgrade's answer read so far; null once it is read. */
  private handshake: Buffer | null = Buffer.alloc(0);
  private readonly reader: FrameReader;

  constructor(
    url: string,
    authorization: string,
    compact: boolean,
    private readonly on: LeanHandlers,
  ) {
    const target = new URL(url);
    this.reader = new FrameReader(compact, {
      message: (message, received) => on.message(message, received),
      control: (opcode, payload) => {
        if (opcode === 0x9) this.socket.write(clientFrame(0xa, payload));
        if (opcode === 0x8) this.end(`close ${payload.length >= 2 ? payload.readUInt16BE(0) : ''}`);
      },
      failed: (reason) => this.end(reason),
    });
    const buffer = Buffer.allocUnsafe(READ_BUFFER_BYTES);
    this.socket = net.connect({
      host: target.hostname,
      port: Number(target.port),
      onread: {
        buffer,
        callback: (n) => {
          this.read(buffer, n, Date.now());
          return true;
        },
      },
    });
    this.socket.setNoDelay(true);
    this.socket.on('connect', () => {
      this.socket.write(
        `GET ${target.pathname} HTTP/1.1\r\nHost: ${target.host}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Key: ${this.key}\r\nSec-WebSocket-Version: 13\r\nAuthorization: ${authorization}\r\n\r\n`,
      );
    });
    this.socket.on('error', (error) => this.end(error.message));
    this.socket.on('end', () => this.end('end'));
  }

  /** Sends a text message (masked, as a client must). */
  send(text: string): void {
    this.socket.write(clientFrame(0x1, Buffer.from(text, 'utf8')));
  }

  private ended = false;

  private end(reason: string): void {
    if (this.ended) return;
    this.ended = true;
    this.on.closed(reason);
    this.socket.destroy();
  }

  /** One read: `n` bytes at the start of the reused buffer, all used before it returns. */
  private read(buf: Buffer, n: number, received: number): void {
    if (this.handshake === null) {
      this.reader.feed(buf, 0, n, received);
      return;
    }
    const seen = Buffer.concat([this.handshake, buf.subarray(0, n)]);
    const end = seen.indexOf('\r\n\r\n');
    if (end < 0) {
      this.handshake = seen;
      return;
    }
    const lines = seen.toString('latin1', 0, end).split('\r\n');
    const accept = crypto
      .createHash('sha1')
      .update(this.key + GUID)
      .digest('base64');
    if (
      !/^HTTP\/1\.1 101 /.test(lines[0] ?? '') ||
      !lines.some((l) => l.toLowerCase() === `sec-websocket-accept: ${accept.toLowerCase()}`)
    ) {
      this.end(`upgrade refused: ${lines[0] ?? ''}`);
      return;
    }
    this.handshake = null;
    this.on.opened(this);
    // What followed the upgrade's answer in the same read is frames.
    this.reader.feed(seen, end + 4, seen.length, received);
  }
}
