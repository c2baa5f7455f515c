/**
 * GET /v1/stream: the WebSocket upgrade on the service's HTTP server, and each connection's
 * conversation. Authentication is the REST routes' (a Bearer key on the upgrade, or for browsers,
 * which cannot set headers, an `auth` message first); bad credentials spend the client network's
 * keyless budget as on REST. An upgrade is a request of the account's rate-limit windows (it holds
 * no in-flight place while the connection lasts) and one of its connections per ten minutes
 * (limits/connection-window.ts); it is written to the request log as route /v1/stream, status 101 when
 * admitted, else the status a REST request would have had. A refusal after the upgrade closes the
 * connection with a code of api-contract/stream-protocol.ts and a reason naming the error code, after an `error`
 * message carrying the REST error object.
 */
import { randomBytes } from 'node:crypto';
import { ServerResponse, type IncomingMessage, type Server } from 'node:http';
import type { Socket } from 'node:net';
import type { Duplex } from 'node:stream';
import type { RequestHandler } from 'express';
import { WebSocketServer, type RawData, type WebSocket } from 'ws';
import { keyPrefix } from '../api-keys.js';
import type { AuthenticatedAccount } from '../entitlements.js';
import { ApiError } from '../errors.js';
import { newRequestId } from '../ids.js';
import { clientAddress, clientNetwork } from '../limits/rate-limiter.js';
import { keyOpens, type KeyCache } from '../middleware/auth.js';
import { errorBody, sendError, toApiError } from '../middleware/errors.js';
import type { ServiceDeps } from '../service.js';
import { MAX_PRINTS_SYMBOLS } from './channels.js';
import { StreamHub } from './hub.js';
import type { StreamPeers } from './peers.js';
import { CLOSE, closeReason, STREAM_PATH, type StreamLimits } from '../api-contract/stream-protocol.js';
import type { ReplayOptions } from './replay.js';
import { Stream, wire } from './stream.js';
import { refuseUpgrade, WaitingForAuth } from './unauthenticated.js';

export { STREAM_PATH };

/**
 * A plain HTTP request to the stream's path (no WebSocket upgrade, which the server's `upgrade`
 * event takes before express sees it): 426 Upgrade Required, with `Upgrade: websocket` and the
 * error body, for GET and HEAD; 405 with Allow for other methods. Neither spends a request.
 */
export function streamWithoutUpgrade(): RequestHandler {
  return (req, res, next) => {
    if (req.path !== STREAM_PATH && req.path !== `${STREAM_PATH}/`) {
      next();
      return;
    }
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      res.setHeader('Allow', 'GET, HEAD');
      sendError(
        res,
        new ApiError(
          405,
          'method_not_allowed',
          `${req.method} is not allowed on ${STREAM_PATH}: open a WebSocket with GET and Upgrade: websocket.`,
        ),
      );
      return;
    }
    res.setHeader('Upgrade', 'websocket');
    res.setHeader('Connection', 'Upgrade');
    sendError(
      res,
      new ApiError(
        426,
        'upgrade_required',
        `${STREAM_PATH} is a WebSocket endpoint: send GET with Connection: Upgrade and Upgrade: websocket (the protocol is described at /v1/asyncapi.json).`,
      ),
    );
  };
}

/** Why a connection is refused: the close code and the REST error. */
class Refusal extends Error {
  constructor(
    readonly closeCode: number,
    readonly error: ApiError,
  ) {
    super(error.message);
  }
}

function bearerToken(header: string | undefined): string | null {
  if (!header) return null;
  const match = /^Bearer[ ]+(\S+)\s*$/i.exec(header);
  return match ? (match[1] ?? null) : null;
}

interface Upgrade {
  requestId: string;
  receivedAt: number;
  started: number;
  network: string;
  resume: { streamId: string; lastSeq: number } | null;
}

function resumeOf(query: URLSearchParams): Upgrade['resume'] {
  const streamId = query.get('resume');
  if (!streamId) return null;
  return { streamId, lastSeq: Number(query.get('last_seq') ?? 'NaN') };
}

export class StreamGateway {
  readonly hub: StreamHub;
  private readonly wss: WebSocketServer;
  private readonly heartbeat: NodeJS.Timeout;
  private readonly alive = new WeakSet<WebSocket>();
  /** Each upgrade's permessage-deflate window (bits), as the server's answer stated it; null when not negotiated. */
  private readonly deflateWindows = new WeakMap<IncomingMessage, number | null>();
  private readonly waiting: WaitingForAuth;

  constructor(
    private readonly deps: ServiceDeps,
    private readonly keys: KeyCache,
    readonly limits: StreamLimits,
    replay: ReplayOptions | null,
    private readonly peers: StreamPeers | null = null,
  ) {
    this.hub = new StreamHub(deps, limits, replay, keys);
    this.waiting = new WaitingForAuth(limits.unauthenticatedPerNetwork);
    peers?.serve((claim) => this.hub.handOver(claim));
    // permessage-deflate when the client offers it; the streams compress their bodies themselves (once per body, stream.ts), so ws compresses nothing (threshold).
    this.wss = new WebSocketServer({
      noServer: true,
      maxPayload: limits.maxClientMessageBytes,
      perMessageDeflate: { serverNoContextTakeover: true, threshold: Number.POSITIVE_INFINITY },
    });
    this.wss.on('headers', (headers: string[], req: IncomingMessage) => this.deflateWindows.set(req, deflateWindowOf(headers)));
    this.heartbeat = setInterval(() => this.ping(), limits.pingIntervalMs);
    this.heartbeat.unref();
  }

  async start(server: Server, connectionString: string): Promise<void> {
    await this.hub.start(connectionString);
    server.on('upgrade', (req: IncomingMessage, socket: Duplex, head: Buffer) => {
      if (String(req.headers.upgrade ?? '').toLowerCase() === 'websocket') this.upgrade(req, socket, head);
      else answerWithoutUpgrade(server, req, socket);
    });
  }

  /** Closes every connection (1001) and stops the hub. */
  async stop(): Promise<void> {
    clearInterval(this.heartbeat);
    for (const ws of this.wss.clients) ws.close(CLOSE.goingAway, 'the service is stopping');
    await this.hub.stop();
    // A client that does not answer the close within a second is cut, so the server's stop does not wait on it.
    if (this.wss.clients.size > 0) await new Promise((resolve) => setTimeout(resolve, 1_000));
    for (const ws of this.wss.clients) ws.terminate();
    this.wss.close();
  }

  /** A client that did not answer the previous ping is cut; the others are pinged. */
  private ping(): void {
    for (const ws of this.wss.clients) {
      if (!this.alive.has(ws)) {
        ws.terminate();
        continue;
      }
      this.alive.delete(ws);
      ws.ping();
    }
  }

  private upgrade(req: IncomingMessage, socket: Duplex, head: Buffer): void {
    const url = new URL(req.url ?? '/', 'http://localhost');
    if (url.pathname !== STREAM_PATH) {
      refuseUpgrade(socket, new ApiError(404, 'not_found', 'No such route: streams live at /v1/stream.'), newRequestId(this.deps.clock()));
      return;
    }
    const now = this.deps.clock();
    const upgrade: Upgrade = {
      requestId: newRequestId(now),
      receivedAt: now,
      started: performance.now(),
      network: clientNetwork(
        clientAddress(req.socket.remoteAddress, req.headers['x-forwarded-for'] as string | undefined, this.deps.config.trustProxyHops),
      ),
      resume: resumeOf(url.searchParams),
    };
    const token = bearerToken(req.headers.authorization);
    if (token !== null) {
      this.accept(req, socket, head, upgrade, token, null);
      return;
    }
    const release = this.waiting.hold(upgrade.network);
    if (release === null) {
      const message = `At most ${this.waiting.perNetwork} stream connections per client network may wait for their auth message; send Authorization: Bearer <API_KEY> on the upgrade.`;
      this.refuseUpgrade(socket, upgrade, new ApiError(429, 'rate_limited', message, [], this.limits.authTimeoutMs));
      return;
    }
    // The place is held until the auth message, or until the socket closes whatever happened to it.
    socket.once('close', release);
    // A reset while the budget is asked must not go unheard (the server took its error listener off).
    socket.on('error', () => socket.destroy());
    void Promise.resolve(this.deps.limiter.admitKeyless(upgrade.network, now, 'credentials', false)).then(
      (admission) => {
        if (admission.admitted) {
          this.accept(req, socket, head, upgrade, null, release);
          return;
        }
        release();
        const { message, retryAfterMs } = admission.rejection;
        this.refuseUpgrade(socket, upgrade, new ApiError(429, 'rate_limited', message, [], retryAfterMs));
      },
      (error: unknown) => {
        release();
        this.deps.logger.error('stream upgrade failed', { error: error instanceof Error ? error.message : String(error) });
        this.refuseUpgrade(socket, upgrade, new ApiError(500, 'internal_error', 'Internal error.'));
      },
    );
  }

  /** An upgrade refused before the WebSocket: a plain HTTP answer, logged with its status. */
  private refuseUpgrade(socket: Duplex, upgrade: Upgrade, error: ApiError): void {
    refuseUpgrade(socket, error, upgrade.requestId);
    this.log(upgrade, null, error.status);
  }

  /**
   * The WebSocket: with a key from the upgrade's header, opened at once; without one (`release` the
   * place it holds among those waiting, WaitingForAuth), opened by its first message, an auth message.
   */
  private accept(
    req: IncomingMessage,
    socket: Duplex,
    head: Buffer,
    upgrade: Upgrade,
    token: string | null,
    release: (() => void) | null,
  ): void {
    this.wss.handleUpgrade(req, socket, head, (ws) => {
      wire(ws, socket, this.deflateWindows.get(req) ?? null);
      this.alive.add(ws);
      ws.on('pong', () => this.alive.add(ws));
      ws.on('error', () => ws.terminate());
      const inbox = new Inbox(ws);
      if (token !== null) {
        void this.open(ws, upgrade, token, inbox);
        return;
      }
      // A browser's first message authenticates.
      const timer = setTimeout(
        () =>
          this.refuse(
            ws,
            upgrade,
            null,
            new Refusal(
              CLOSE.authTimeout,
              new ApiError(401, 'unauthorized', 'No auth message: send {"type":"auth","key":"<API_KEY>"} first.'),
            ),
          ),
        this.limits.authTimeoutMs,
      );
      // Without a key to the end, the connection spends the network's keyless budget as a request without a valid key does.
      let keyed = false;
      ws.once('close', () => {
        clearTimeout(timer);
        if (!keyed)
          void Promise.resolve(this.deps.limiter.admitKeyless(upgrade.network, this.deps.clock(), 'credentials', true)).catch(() => {});
      });
      inbox.take((raw: RawData) => {
        clearTimeout(timer);
        inbox.take(null);
        const message = parse(raw);
        if (message?.type !== 'auth' || typeof message.key !== 'string') {
          this.refuse(
            ws,
            upgrade,
            null,
            new Refusal(
              CLOSE.unauthorized,
              new ApiError(
                401,
                'unauthorized',
                'Missing API key: send Authorization: Bearer <API_KEY> on the upgrade, or {"type":"auth","key":"<API_KEY>"} first.',
              ),
            ),
          );
          return;
        }
        if (typeof message.resume === 'string') upgrade.resume = { streamId: message.resume, lastSeq: Number(message.last_seq) };
        keyed = true;
        release?.();
        void this.open(ws, upgrade, message.key, inbox);
      });
    });
  }

  /** Authenticates and admits the connection, then starts or resumes its stream. */
  private async open(ws: WebSocket, upgrade: Upgrade, token: string, inbox: Inbox): Promise<void> {
    let account: AuthenticatedAccount | null = null;
    try {
      account = await this.authenticate(upgrade, token);
      await this.admit(account, upgrade);
    } catch (error) {
      this.refuse(
        ws,
        upgrade,
        account,
        error instanceof Refusal
          ? error
          : new Refusal(CLOSE.internal, toApiError(error) ?? new ApiError(500, 'internal_error', 'The connection could not be opened.')),
      );
      return;
    }
    if (ws.readyState !== ws.OPEN) return;
    let stream: Stream;
    if (upgrade.resume !== null) {
      const held = await this.resumed(ws, upgrade, account, upgrade.resume);
      if (held === null) return;
      stream = held;
    } else {
      stream = new Stream(randomBytes(12).toString('base64url'), account, this.limits, this.deps.clock);
      this.hub.streams.set(stream.id, stream);
    }
    stream.ws = ws;
    stream.detachedAt = null;
    this.log(upgrade, account, 101);
    if (upgrade.resume !== null) stream.resendAfter(upgrade.resume.lastSeq);
    this.welcome(stream, upgrade);
    inbox.take((raw: RawData) => void this.onMessage(stream, ws, raw));
    ws.on('close', () => {
      if (stream.ws === ws) {
        stream.ws = null;
        stream.detachedAt = this.deps.clock();
      }
    });
  }

  /**
   * The stream a connection resumes, held here or handed over by the worker of the cluster that
   * holds it, its previous connection replaced; null when it cannot be resumed (the connection is
   * refused) or the client left meanwhile (the stream stays, resumable).
   */
  private async resumed(
    ws: WebSocket,
    upgrade: Upgrade,
    account: AuthenticatedAccount,
    resume: { streamId: string; lastSeq: number },
  ): Promise<Stream | null> {
    let held = this.hub.streams.get(resume.streamId);
    // Held by another worker of the cluster: handed over here.
    if (!held && this.peers && Number.isInteger(resume.lastSeq)) {
      const handed = await this.peers.claim({ streamId: resume.streamId, accountId: account.id, lastSeq: resume.lastSeq });
      if (handed) held = await this.hub.adopt(handed, account);
      // The client left meanwhile: the stream stays here, resumable.
      if (ws.readyState !== ws.OPEN) return null;
    }
    if (!held || held.account.id !== account.id || !held.canResumeFrom(resume.lastSeq)) {
      this.refuse(
        ws,
        upgrade,
        account,
        new Refusal(
          CLOSE.resumeUnavailable,
          new ApiError(400, 'invalid_parameter', 'This stream cannot be resumed from that sequence: open a new stream.', [
            { parameter: 'resume', message: "unknown stream, another account's, or its resume window has passed" },
          ]),
        ),
        101,
      );
      return null;
    }
    held.account = account;
    // One connection per stream: the one it had is replaced.
    const previous = held.ws;
    held.ws = null;
    previous?.close(CLOSE.replaced, 'replaced: the stream was resumed by another connection');
    return held;
  }

  /** The welcome message: the stream's id, whether it was resumed, whether the tape is a replay, the limits. */
  private welcome(stream: Stream, upgrade: Upgrade): void {
    const limits = {
      max_client_message_bytes: this.limits.maxClientMessageBytes,
      max_server_message_bytes: this.limits.maxServerMessageBytes,
      max_subscriptions: this.limits.maxSubscriptions,
      max_symbols: MAX_PRINTS_SYMBOLS,
      max_buffered_bytes: this.limits.maxBufferedBytes,
      heartbeat_ms: this.limits.pingIntervalMs,
      resume_window_ms: this.limits.resumeWindowMs,
      levels_cadence_ms: this.limits.levelsCadenceMs,
    };
    const resumed = upgrade.resume !== null;
    stream.send(
      `"type":"welcome","stream_id":${JSON.stringify(stream.id)},"resumed":${resumed},"replay":${this.hub.replaying},"request_id":${JSON.stringify(upgrade.requestId)},"limits":${JSON.stringify(limits)}}`,
    );
  }

  private async onMessage(stream: Stream, ws: WebSocket, raw: RawData): Promise<void> {
    if (stream.ws !== ws) return;
    const message = parse(raw);
    const requestId = typeof message?.id === 'string' || typeof message?.id === 'number' ? String(message.id) : null;
    try {
      if (message === null)
        throw new ApiError(400, 'invalid_parameter', 'A message is a JSON object with a type.', [
          { parameter: 'type', message: 'must be subscribe or unsubscribe' },
        ]);
      if (message.type === 'subscribe') await this.hub.subscribe(stream, message.channel, message.params, requestId, message.format);
      else if (message.type === 'unsubscribe') {
        if (!this.hub.unsubscribe(stream, message.subscription, requestId))
          throw new ApiError(400, 'invalid_parameter', 'No such subscription.', [
            { parameter: 'subscription', message: 'not a subscription of this stream' },
          ]);
      } else
        throw new ApiError(400, 'invalid_parameter', 'Unknown message type.', [
          { parameter: 'type', message: 'must be subscribe or unsubscribe' },
        ]);
    } catch (error) {
      const apiError = toApiError(error) ?? new ApiError(500, 'internal_error', 'The message could not be handled.');
      if (apiError.status === 500)
        this.deps.logger.error('stream message failed', { error: error instanceof Error ? error.message : String(error) });
      stream.send(
        `"type":"error","subscription":null,"request":${JSON.stringify(requestId)},${JSON.stringify(errorBody(apiError, newRequestId(this.deps.clock()))).slice(1)}`,
      );
    }
  }

  /** The account of a key, or a refusal (401, or 429 when the network's keyless budget is spent). */
  private async authenticate(upgrade: Upgrade, token: string): Promise<AuthenticatedAccount> {
    const now = this.deps.clock();
    const prefix = keyPrefix(token);
    const keyless = async (consume: boolean): Promise<void> => {
      const admission = await this.deps.limiter.admitKeyless(upgrade.network, now, 'credentials', consume);
      if (!admission.admitted)
        throw new Refusal(
          CLOSE.rateLimited,
          new ApiError(429, 'rate_limited', admission.rejection.message, [], admission.rejection.retryAfterMs),
        );
    };
    let cached = null;
    if (prefix !== null) {
      if (this.keys.fresh(prefix, now) === undefined && !this.keys.knownValid(prefix)) await keyless(false);
      cached = await this.keys.lookup(prefix, now);
    }
    if (cached === null || !keyOpens(cached, token)) {
      await keyless(true);
      throw new Refusal(CLOSE.unauthorized, new ApiError(401, 'unauthorized', 'Invalid API key.'));
    }
    return cached.account;
  }

  /** The account's request windows (one request), then its connection window. */
  private async admit(account: AuthenticatedAccount, upgrade: Upgrade): Promise<void> {
    const now = this.deps.clock();
    const { admission } = await this.deps.limiter.admitWithState(account.id, now, true);
    if (!admission.admitted) {
      const { code, message, retryAfterMs } = admission.rejection;
      throw new Refusal(CLOSE.rateLimited, new ApiError(429, code, message, [], retryAfterMs));
    }
    admission.release();
    if (account.status === 'suspended')
      throw new Refusal(CLOSE.forbidden, new ApiError(403, 'account_suspended', 'This account is suspended.'));
    const connection = await this.deps.limiter.admitConnection(account.id, now, this.limits);
    if (!connection.admitted) {
      throw new Refusal(
        CLOSE.rateLimited,
        new ApiError(
          429,
          'cooldown',
          `More than ${this.limits.connectionsPerWindow} stream connections in ${Math.round(this.limits.connectionWindowMs / 60_000)} minutes: cooling down.`,
          [],
          connection.retryAfterMs,
        ),
      );
    }
    void upgrade;
  }

  /** Sends the error object, closes with the refusal's code, and logs the upgrade with the REST status. */
  private refuse(ws: WebSocket, upgrade: Upgrade, account: AuthenticatedAccount | null, refusal: Refusal, loggedStatus?: number): void {
    const { error } = refusal;
    if (ws.readyState === ws.OPEN) {
      ws.send(JSON.stringify({ seq: 0, type: 'error', subscription: null, request: null, ...errorBody(error, upgrade.requestId) }));
      const wait = error.retryAfterMs !== null ? ` retry_after_ms=${error.retryAfterMs}` : '';
      ws.close(refusal.closeCode, closeReason(`${error.code}:${wait} ${error.message}`));
    }
    this.log(upgrade, account, loggedStatus ?? error.status);
  }

  private log(upgrade: Upgrade, account: AuthenticatedAccount | null, status: number): void {
    const durationMs = Math.round((performance.now() - upgrade.started) * 100) / 100;
    this.deps.requestLog.record({
      ts: new Date(upgrade.receivedAt),
      request_id: upgrade.requestId,
      account_id: account?.id ?? null,
      key_id: account?.key?.id ?? null,
      network: upgrade.network,
      method: 'GET',
      route: STREAM_PATH,
      status,
      duration_ms: durationMs,
      bytes_out: 0,
    });
    this.deps.logger.info('request', {
      request_id: upgrade.requestId,
      method: 'GET',
      route: STREAM_PATH,
      status,
      duration_ms: durationMs,
      account: account?.id ?? null,
    });
  }
}

/** Messages that arrive before the connection is admitted. */
const EARLY_MESSAGES = 64;

/**
 * A connection's messages to whoever takes them: those that arrive while nobody does (a client
 * that subscribes before its welcome, while its key is checked) wait, in order, up to EARLY_MESSAGES.
 */
class Inbox {
  private readonly early: RawData[] = [];
  private handler: ((raw: RawData) => void) | null = null;

  constructor(ws: WebSocket) {
    ws.on('message', (raw: RawData) => {
      if (this.handler) this.handler(raw);
      else if (this.early.length < EARLY_MESSAGES) this.early.push(raw);
      else ws.close(CLOSE.badMessage, closeReason(`invalid_parameter: more than ${EARLY_MESSAGES} messages before the welcome`));
    });
  }

  /** Hands the waiting messages, then each new one, to `handler` (null: they wait). */
  take(handler: ((raw: RawData) => void) | null): void {
    this.handler = handler;
    while (this.handler !== null && this.early.length > 0) {
      const raw = this.early.shift();
      if (raw !== undefined) this.handler(raw);
    }
  }
}

/** The window of the permessage-deflate the server's handshake answer accepted (15 unless it states server_max_window_bits), or null. */
function deflateWindowOf(headers: readonly string[]): number | null {
  const line = headers.find((h) => /^sec-websocket-extensions:/i.test(h));
  if (line === undefined || !/permessage-deflate/i.test(line)) return null;
  const bits = /server_max_window_bits=(\d+)/i.exec(line);
  return bits ? Number(bits[1]) : 15;
}

function parse(raw: RawData): Record<string, unknown> | null {
  try {
    const text = Array.isArray(raw) ? Buffer.concat(raw).toString('utf8') : Buffer.from(raw as ArrayBuffer).toString('utf8');
    const value: unknown = JSON.parse(text);
    return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}

/**
 * A request that asks to upgrade to anything but WebSocket is answered as the plain HTTP/1.1
 * request it also is, the upgrade declined (a server may ignore Upgrade, RFC 9110 §7.8): Java's
 * java.net.http.HttpClient asks `Upgrade: h2c` on every plain-HTTP request by default, and Node
 * hands any request with an Upgrade header to the `upgrade` listeners instead of the app. The
 * connection closes after the answer.
 */
function answerWithoutUpgrade(server: Server, req: IncomingMessage, socket: Duplex): void {
  const res = new ServerResponse(req);
  res.shouldKeepAlive = false;
  res.assignSocket(socket as Socket);
  res.on('finish', () => {
    res.detachSocket(socket as Socket);
    socket.end();
  });
  server.emit('request', req, res);
}
