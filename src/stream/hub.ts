/**
 * The streams of one process and what feeds them. One PostgreSQL connection LISTENs for committed
 * prints loads (db/print-events.ts); each load, and each step of a replay, is handled in turn, in
 * the order PostgreSQL delivered them:
 * - prints: the subscriptions are grouped by their query, and each group reads the new prints once,
 *   in the trades route's order read forward, as the bodies GET /v1/options/trades serves;
 * - premium_drift: each group's drift (services/premium-drift.ts) is computed again, and each
 *   subscription gets the buckets that differ from those it was last sent (a replay step: the
 *   replayed date's drift up to the replayed instant, marked replay);
 * - levels: each group's levels (services/positioning.ts) are computed again, sent when they
 *   changed, and at the stated cadence in any case.
 * - print_cancelled: a load that cancelled prints stored by earlier loads (and so already streamed)
 *   tells each prints subscription whose filters those prints passed, after the load's own prints:
 *   their ids and identifying fields, so a client can drop them from its tape (a subscription made
 *   after a print was streamed is told too: which subscription was sent which print is not kept). premium_drift needs
 *   nothing of its own: its drift is computed again after the load, without the cancelled prints as
 *   the route leaves them out, and the buckets they changed are sent.
 * A load of a date before the current session's (an archived session loaded again) is not news:
 * its prints are not streamed, but each prints subscription is told (`archive_loaded`: the date and
 * the rows), so that a client holding that date's data can read it again.
 *
 * For each load (and each levels cadence) the streams' keys are looked up again (the REST routes'
 * key cache, so within AUTH_CACHE_TTL_MS of a change), while the load's prints are read, and what
 * changed is applied before anything of the load is sent: a subscription whose account lost
 * the entitlement it needs (overnight data) ends with a 403 error message; a revoked key or a
 * suspended account closes the connection (4401, 4403) and the stream is no longer resumable.
 *
 * Every worker of a cluster handles the same loads in the same order (PostgreSQL delivers the
 * notifications in commit order to every listener), each named by its transaction and date. A
 * stream resumed on another worker is handed over there (peers.ts) with the name of the last load
 * handled for it: the new worker sends it the loads it handled since, or, when it has not reached
 * that load yet, skips the stream until it has. A replay runs on one clock for the cluster and each
 * stream keeps its position in it, handed over too (replay.ts): the new worker's replay steps go on
 * from that position.
 */
import { defaultTradingDate, rootsOf, selectSides, sessionSpan, type SessionChoice } from '../analytics/print-filters.js';
import type { OperationId, OperationSpec } from '../api-contract/openapi.js';
import { listenForBarsLoads, minutesOfLoad, type BarsLoaded, type BarsListener } from '../db/index-events.js';
import { listenForPrintsLoads, streamCancelledPrints, streamPrints, type PrintsListener } from '../db/print-events.js';
import { ApiError } from '../errors.js';
import { newRequestId } from '../ids.js';
import { toApiError } from '../middleware/errors.js';
import type { ServiceDeps } from '../service.js';
import { getPremiumDrift } from '../services/premium-drift.js';
import { feedSession, printFilterOf, type FeedQuery } from '../services/print-feeds.js';
import type { QueryOf, ServiceContext } from '../services/types.js';
import { CHANNELS, channelNamed, checkSubscription, subscribedParams } from './channels.js';
import { streamFuturesTradesLoad } from './futures-trades.js';
import { sendIndexValues, wantedSymbols } from './index-values.js';
import { CLOSE, type StreamLimits } from '../api-contract/stream-protocol.js';
import { adoptedStream, handedStream } from './handover.js';
import type { HandedStream, StreamClaim } from './peers.js';
import { batches, compactPrint, printFieldsOf, sendDrift, type PrintFields } from './messages.js';
import { Replay, replayStart, replayWindows, type ReplayOptions, type ReplayPosition, type ReplayStep } from './replay.js';
import { recheckStreams, type AccountLookup } from './recheck.js';
import type { PrintsFormat, Stream, Subscription } from './stream.js';
import type { PrintsEvent } from './events.js';
import { refreshSnapshots } from './snapshots.js';

/** Loads remembered for streams handed over from a worker that was ahead of this one. */
const HISTORY_EVENTS = 10_000;

const RECONNECT_MS = 1_000;

export class StreamHub {
  readonly streams = new Map<string, Stream>();
  private readonly operations: ReadonlyMap<OperationId, OperationSpec>;
  private listener: PrintsListener | null = null;
  /** The index_values channel's: committed loads of one-minute bars (db/index-events.ts). */
  private barsListener: BarsListener | null = null;
  private queue: Promise<void> = Promise.resolve();
  private stopped = false;
  private cadence: NodeJS.Timeout | null = null;
  private sweeper: NodeJS.Timeout | null = null;
  private replay: Replay | null = null;
  /** Loads handled since the start (tests and benchmarks wait on it). */
  eventsHandled = 0;
  /** The last load handled, and the loads handled within the resume window, oldest first. */
  private lastEvent: string | null = null;
  private readonly history: { event: PrintsEvent; handledAt: number }[] = [];
  /** Streams handed over from a worker that had handled loads this one has not yet: skipped up to that load (until the deadline). */
  private readonly skipping = new Map<Stream, { until: string; deadline: number }>();
  /** Each stream's position in the replay (replay.ts), handed over with it. */
  private readonly replayed = new WeakMap<Stream, ReplayPosition>();
  /** The compact format's `fields` (messages.ts). */
  private readonly printFields: PrintFields;

  constructor(
    private readonly deps: ServiceDeps,
    readonly limits: StreamLimits,
    private readonly replayOptions: ReplayOptions | null,
    private readonly accounts: AccountLookup | null = null,
  ) {
    this.operations = new Map(deps.apiContract.operations.map((o) => [o.operationId, o]));
    this.printFields = printFieldsOf(deps.apiContract);
  }

  async start(connectionString: string): Promise<void> {
    await this.listen(connectionString);
    await this.listenBars(connectionString);
    this.cadence = setInterval(() => this.enqueue(() => this.levelsCadence()), this.limits.levelsCadenceMs);
    this.cadence.unref();
    this.sweeper = setInterval(() => this.sweep(), Math.min(this.limits.resumeWindowMs, 10_000));
    this.sweeper.unref();
    if (this.replayOptions) this.startReplay(this.replayOptions);
  }

  /** Starts replaying (LIVE_MODE; a test starts one on a running service). */
  startReplay(options: ReplayOptions): Replay {
    this.replay?.stop();
    // A step still queued when its replay stops is dropped.
    const replay: Replay = new Replay(
      options,
      options.clock ?? this.deps.clock,
      (step) =>
        new Promise<void>((handled) =>
          this.enqueue(async () => {
            try {
              if (this.replay === replay) await this.handleReplay(step);
            } finally {
              handled();
            }
          }),
        ),
    );
    this.replay = replay;
    replay.start();
    return replay;
  }

  stopReplay(): void {
    this.replay?.stop();
    this.replay = null;
  }

  get replaying(): boolean {
    return this.replay?.active ?? false;
  }

  private async listen(connectionString: string): Promise<void> {
    this.listener = await listenForPrintsLoads(connectionString, {
      onLoaded: (loaded) => {
        // A committed load can change the answers at "now" the levels channel is computed from: they
        // are dropped before it is, whichever of this notice and the answers' own arrives first.
        this.deps.memos.now.bump();
        const event: PrintsEvent = {
          tradingDate: loaded.trading_date,
          selection: { kind: 'load', xid: loaded.xid, from: loaded.from, to: loaded.to },
          replay: false,
          at: loaded.loaded_at,
          id: `${loaded.xid}:${loaded.trading_date}`,
          rows: loaded.rows,
          cancelled: loaded.cancelled,
        };
        this.enqueue(() => this.handlePrints(event));
      },
      onFuturesTrades: (loaded) => {
        const event: PrintsEvent = {
          tradingDate: loaded.trade_date,
          selection: { kind: 'load', xid: loaded.xid, from: loaded.from, to: loaded.to },
          replay: false,
          at: loaded.loaded_at,
          id: `futures:${loaded.xid}:${loaded.trade_date}`,
          rows: loaded.rows,
          futures: true,
        };
        this.enqueue(() => this.handlePrints(event));
      },
      // The database went away: listen again once it is back (db-server/watch.ts restarts it).
      onLost: (error) => {
        this.deps.logger.error('stream listener lost its connection', { error: error.message });
        this.listener = null;
        this.relisten(connectionString);
      },
    });
  }

  private async listenBars(connectionString: string): Promise<void> {
    this.barsListener = await listenForBarsLoads(connectionString, {
      onLoaded: (loaded) => this.enqueue(() => this.handleBars(loaded)),
      onLost: (error) => {
        this.deps.logger.error('stream bars listener lost its connection', { error: error.message });
        this.barsListener = null;
        this.relistenBars(connectionString);
      },
    });
  }

  private relistenBars(connectionString: string): void {
    if (this.stopped) return;
    setTimeout(() => {
      if (this.stopped || this.barsListener !== null) return;
      this.listenBars(connectionString).catch(() => this.relistenBars(connectionString));
    }, RECONNECT_MS).unref();
  }

  /** Streams a committed load of one-minute bars to the index_values subscriptions (stream/index-values.ts). */
  async handleBars(loaded: BarsLoaded): Promise<void> {
    const subs = [...this.subscriptions('index_values')];
    const symbols = wantedSymbols(subs, loaded);
    if (symbols.length === 0) return;
    const minutes = await minutesOfLoad(this.deps.db, symbols, loaded.xid, loaded.from, loaded.to);
    sendIndexValues(subs, minutes, defaultTradingDate(this.deps.clock(), 'rth'));
  }

  private relisten(connectionString: string): void {
    if (this.stopped) return;
    setTimeout(() => {
      if (this.stopped || this.listener !== null) return;
      this.listen(connectionString).catch(() => this.relisten(connectionString));
    }, RECONNECT_MS).unref();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    this.replay?.stop();
    if (this.cadence) clearInterval(this.cadence);
    if (this.sweeper) clearInterval(this.sweeper);
    const listener = this.listener;
    this.listener = null;
    await listener?.end().catch(() => undefined);
    const bars = this.barsListener;
    this.barsListener = null;
    await bars?.end().catch(() => undefined);
    await this.queue;
  }

  /** Handles events one after another, in arrival order. */
  enqueue(task: () => Promise<void>): void {
    this.queue = this.queue.then(task).catch((error: unknown) => {
      this.deps.logger.error('stream event failed', { error: error instanceof Error ? error.message : String(error) });
    });
  }

  /** Waits for the events received so far (tests). */
  async settled(): Promise<void> {
    await this.queue;
  }

  /** Forgets streams closed longer ago than the resume window. */
  private sweep(): void {
    const now = this.deps.clock();
    for (const [id, stream] of this.streams) {
      if (stream.detachedAt !== null && now - stream.detachedAt > this.limits.resumeWindowMs) this.streams.delete(id);
    }
  }

  private *subscriptions(channel: string): Iterable<Subscription> {
    for (const stream of this.streams.values())
      for (const sub of stream.subscriptions.values()) if (sub.channel.name === channel) yield sub;
  }

  private groups(channel: string): Map<string, Subscription[]> {
    const groups = new Map<string, Subscription[]>();
    for (const sub of this.subscriptions(channel)) {
      const group = groups.get(sub.key);
      if (group) group.push(sub);
      else groups.set(sub.key, [sub]);
    }
    return groups;
  }

  /** Adds a subscription (its parameters checked as the route checks a query); throws the route's 400 or 403. */
  async subscribe(
    stream: Stream,
    channelName: unknown,
    params: unknown,
    requestId: string | null,
    format: unknown = undefined,
  ): Promise<void> {
    const channel = channelNamed(channelName);
    if (!channel)
      throw new ApiError(400, 'invalid_parameter', 'Unknown channel.', [
        { parameter: 'channel', message: `must be one of ${CHANNELS.map((c) => c.name).join(', ')}` },
      ]);
    if (!(format === undefined || format === 'full' || (format === 'compact' && channel.name === 'prints'))) {
      throw new ApiError(400, 'invalid_parameter', 'Unknown format.', [
        {
          parameter: 'format',
          message: channel.name === 'prints' ? 'must be full or compact' : 'must be full (compact is a prints format)',
        },
      ]);
    }
    if (stream.subscriptions.size >= this.limits.maxSubscriptions) {
      throw new ApiError(400, 'invalid_parameter', `A connection holds at most ${this.limits.maxSubscriptions} subscriptions.`, [
        { parameter: 'channel', message: `at most ${this.limits.maxSubscriptions} subscriptions per connection` },
      ]);
    }
    const checked = checkSubscription(channel, params, {
      operations: this.operations,
      queries: this.deps.queries,
      account: stream.account,
      now: this.deps.clock(),
    });
    const id = stream.newSubscriptionId();
    const sub: Subscription = {
      ...checked,
      id,
      stream,
      key: `${channel.name}:${JSON.stringify(checked.query)}`,
      format: format === 'compact' ? 'compact' : 'full',
      last: null,
    };
    stream.subscriptions.set(id, sub);
    stream.send(
      `"type":"subscribed","subscription":${JSON.stringify(id)},"channel":${JSON.stringify(channel.name)},"request":${JSON.stringify(requestId)},"params":${JSON.stringify(subscribedParams(checked.query))}}`,
    );
    // The snapshot channels start with the current state.
    if (channel.name === 'premium_drift' || channel.name === 'levels')
      this.enqueue(() => refreshSnapshots(this.deps, [sub], channel.name === 'levels'));
  }

  unsubscribe(stream: Stream, id: unknown, requestId: string | null): boolean {
    if (typeof id !== 'string' || !stream.subscriptions.delete(id)) return false;
    stream.send(`"type":"unsubscribed","subscription":${JSON.stringify(id)},"request":${JSON.stringify(requestId)}}`);
    return true;
  }

  /** The current session's trading date: loads of earlier dates are not streamed. */
  private isCurrent(tradingDate: string): boolean {
    return tradingDate >= defaultTradingDate(this.deps.clock(), 'rth');
  }

  /**
   * Streams one load, or one replay step, to the prints subscriptions (`only`: to one stream's, a
   * stream handed over behind this worker), then refreshes the snapshot channels.
   */
  async handlePrints(event: PrintsEvent, only: ReadonlySet<Stream> | null = null): Promise<void> {
    let skipped: ReadonlySet<Stream> = new Set();
    // The streams' keys are looked up again while the first group's prints are read; what changed is applied before anything is sent.
    let recheck: Promise<void> = Promise.resolve();
    if (only === null) {
      this.eventsHandled += 1;
      skipped = this.passed(event);
      recheck = this.recheckAccounts();
      recheck.catch(() => undefined);
    }
    if (event.futures === true) {
      await recheck;
      if (event.selection.kind === 'load') {
        const { xid, from, to } = event.selection;
        const live = (sub: Subscription) =>
          (only === null || only.has(sub.stream)) && !skipped.has(sub.stream) && sub.stream.subscriptions.get(sub.id) === sub;
        const groups = [...this.groups('futures_trades').values()].map((group) => group.filter(live));
        await streamFuturesTradesLoad(
          this.deps,
          groups,
          { trade_date: event.tradingDate, xid, from, to, loaded_at: event.at },
          this.limits.maxServerMessageBytes,
        );
      }
      return;
    }
    if (!event.replay && !this.isCurrent(event.tradingDate)) {
      await recheck;
      if (event.selection.kind === 'load') this.announceArchive(event, only);
      return;
    }
    for (const all of this.groups('prints').values()) {
      const first = all.find((sub) => (only === null || only.has(sub.stream)) && !skipped.has(sub.stream));
      if (!first) continue;
      const q = first.query as FeedQuery;
      const session: SessionChoice = q.session ?? 'rth';
      const sides = q.side ? selectSides(q.side) : null;
      // The route's filter of the date's session (an overnight read bounded by its window).
      const filter = printFilterOf(
        q,
        { tradingDate: event.tradingDate, from: null, to: null },
        session,
        first.symbols ? rootsOf(first.symbols) : null,
        sides,
      );
      const scan = { exchanges: q.exchange ?? null, sides: sides?.exact ?? null };
      const rows = event.rows === 0 ? [] : await streamPrints(this.deps.db, filter, event.selection, scan);
      await recheck;
      // A subscription the re-check ended (or a stream it closed) is not sent the load.
      const group = all.filter(
        (sub) => (only === null || only.has(sub.stream)) && !skipped.has(sub.stream) && sub.stream.subscriptions.get(sub.id) === sub,
      );
      // Each batch's message body is encoded once for the group, in each format asked for; a stream adds its sequence and subscription id.
      const head = `"type":"prints","channel":"prints","replay":${event.replay},"trading_date":${JSON.stringify(event.tradingDate)},"loaded_at":${event.at},`;
      const encoded = new Map<PrintsFormat, Buffer[]>();
      const bodiesOf = (format: PrintsFormat): Buffer[] => {
        let bodies = encoded.get(format);
        if (bodies === undefined) {
          const start = format === 'full' ? `${head}"data":[` : `${head}"format":"compact","fields":${this.printFields.text},"data":[`;
          const items = format === 'full' ? rows.map((r) => r.body) : rows.map((r) => compactPrint(this.printFields, r.body));
          bodies = batches(items, this.limits.maxServerMessageBytes).map((batch) => Buffer.from(`${start}${batch}]}`, 'utf8'));
          encoded.set(format, bodies);
        }
        return bodies;
      };
      // Then the stored prints the load cancelled that this group was sent (print_cancelled), the same in every format.
      let cancelledBodies: Buffer[] = [];
      if (event.selection.kind === 'load' && (event.cancelled ?? 0) > 0) {
        const cancelled = await streamCancelledPrints(this.deps.db, filter, event.selection.xid, scan);
        const told = `"type":"print_cancelled","channel":"prints","trading_date":${JSON.stringify(event.tradingDate)},"loaded_at":${event.at},"data":[`;
        cancelledBodies = batches(cancelled, this.limits.maxServerMessageBytes).map((batch) => Buffer.from(`${told}${batch}]}`, 'utf8'));
      }
      for (const sub of group) {
        const own = `"subscription":${JSON.stringify(sub.id)},`;
        sub.stream.together(() => {
          for (const body of bodiesOf(sub.format)) sub.stream.send(body, own);
          for (const body of cancelledBodies) sub.stream.send(body, own);
        });
      }
    }
    await recheck;
    // The real clock against the database's (event.at): the service's own clock may be a test's.
    if (only === null && event.selection.kind === 'load')
      this.deps.metrics.streamLoadDelay.observe(Math.max(0, Date.now() - event.at) / 1000);
    if (event.replay) {
      await this.replayDrift(event, only);
      return;
    }
    const drift = [...this.subscriptions('premium_drift')].filter((sub) => only === null || only.has(sub.stream));
    const levels = [...this.subscriptions('levels')].filter((sub) => only === null || only.has(sub.stream));
    if (drift.length + levels.length > 0) await refreshSnapshots(this.deps, [...drift, ...levels], false);
  }

  /**
   * A replay step's premium drift: each group's drift of the replayed date up to the replayed
   * instant (its prints to then, its buckets to then), the buckets that changed since the last
   * replayed ones sent, marked replay. Nothing before the session opens, or when it has no data.
   */
  private async replayDrift(event: PrintsEvent, only: ReadonlySet<Stream> | null): Promise<void> {
    const byKey = new Map<string, Subscription[]>();
    for (const sub of this.subscriptions('premium_drift'))
      if (only === null || only.has(sub.stream)) byKey.set(sub.key, [...(byKey.get(sub.key) ?? []), sub]);
    for (const group of byKey.values()) {
      const first = group[0];
      if (!first) continue;
      const query = first.query as QueryOf<'getPremiumDrift'>;
      const span = sessionSpan(event.tradingDate, feedSession('getPremiumDrift', query));
      if (span === null || event.at <= span.start) continue;
      const end = Math.min(event.at, span.end);
      const ctx: ServiceContext = {
        deps: this.deps,
        operation: first.operation,
        account: first.stream.account,
        requestId: newRequestId(this.deps.clock()),
        now: end,
        link: { path: first.operation.path, search: '' },
      };
      let buckets: Array<{ timestamp: number }>;
      try {
        buckets = (await getPremiumDrift(ctx, { ...query, date: event.tradingDate, end_time: end })).data;
      } catch (error) {
        if (toApiError(error)) continue;
        throw error;
      }
      for (const sub of group) sendDrift(sub, buckets, true);
    }
  }

  /**
   * One replay step: each stream gets the replayed prints (and drift) from its own position to the
   * step's end (replay.ts), the streams that start at the same point together, so a stream handed
   * over from another worker goes on from exactly where it stopped.
   */
  private async handleReplay(step: ReplayStep): Promise<void> {
    this.eventsHandled += 1;
    await this.recheckAccounts();
    const byStart = new Map<number, Set<Stream>>();
    for (const stream of this.streams.values()) {
      const start = replayStart(this.replayed.get(stream) ?? null, step);
      if (start === null) continue;
      this.replayed.set(stream, { date: step.date, anchor: step.anchor, speed: step.speed, at: step.to });
      const streams = byStart.get(start);
      if (streams) streams.add(stream);
      else byStart.set(start, new Set([stream]));
    }
    for (const [start, streams] of byStart) {
      for (const w of replayWindows(step, start, step.to)) {
        await this.handlePrints(
          { tradingDate: step.date, selection: { kind: 'window', from: w.from, to: w.to }, replay: true, at: w.at, id: null },
          streams,
        );
      }
    }
  }

  /** Tells each prints subscription that an earlier date was loaded again (one body for all). */
  private announceArchive(event: PrintsEvent, only: ReadonlySet<Stream> | null): void {
    const body = Buffer.from(
      `"type":"archive_loaded","channel":"prints","trading_date":${JSON.stringify(event.tradingDate)},"rows":${event.rows ?? 0},"loaded_at":${event.at}}`,
      'utf8',
    );
    for (const sub of this.subscriptions('prints')) {
      if (only === null || only.has(sub.stream)) sub.stream.send(body, `"subscription":${JSON.stringify(sub.id)},`);
    }
  }

  /** Looks each subscribed stream's key up again and applies what changed (recheck.ts). */
  private async recheckAccounts(): Promise<void> {
    if (this.accounts === null) return;
    await recheckStreams(this.accounts, this.streams.values(), this.deps.clock(), (stream) => {
      this.streams.delete(stream.id);
      this.skipping.delete(stream);
    });
  }

  /**
   * Notes a load as handled (the last, and in the history) and returns the streams that skip it:
   * those handed over from a worker that had handled it already.
   */
  private passed(event: PrintsEvent): ReadonlySet<Stream> {
    const skipped = new Set<Stream>();
    if (event.id === null) return skipped;
    const now = this.deps.clock();
    for (const [stream, skip] of this.skipping) {
      if (skip.deadline < now) this.skipping.delete(stream);
      else {
        skipped.add(stream);
        if (skip.until === event.id) this.skipping.delete(stream);
      }
    }
    this.lastEvent = event.id;
    this.history.push({ event, handledAt: now });
    while (
      this.history.length > HISTORY_EVENTS ||
      (this.history[0] !== undefined && this.history[0].handledAt < now - this.limits.resumeWindowMs)
    )
      this.history.shift();
    return skipped;
  }

  /**
   * Hands a stream this worker holds to another worker (peers.ts), in this worker's event order:
   * null unless it holds the stream, for that account, with the messages after `lastSeq`.
   */
  handOver(claim: StreamClaim): Promise<HandedStream | null> {
    return new Promise((resolve) => {
      this.enqueue(async () => {
        try {
          resolve(this.release(claim));
        } catch (error) {
          resolve(null);
          throw error;
        }
      });
    });
  }

  private release(claim: StreamClaim): HandedStream | null {
    const stream = this.streams.get(claim.streamId);
    if (!stream || stream.account.id !== claim.accountId || !stream.canResumeFrom(claim.lastSeq)) return null;
    const handed = handedStream(
      stream,
      claim.lastSeq,
      this.skipping.get(stream)?.until ?? this.lastEvent,
      this.replayed.get(stream) ?? null,
    );
    this.streams.delete(stream.id);
    this.skipping.delete(stream);
    const ws = stream.ws;
    stream.ws = null;
    ws?.close(CLOSE.replaced, 'replaced: the stream was resumed by another connection');
    return handed;
  }

  /**
   * Takes over a stream handed from another worker, in this worker's event order: the loads this
   * worker handled after the stream's last are sent to it now (kept for the resume); loads it has
   * not reached yet are skipped for the stream when they come.
   */
  adopt(handed: HandedStream, account: Stream['account']): Promise<Stream> {
    const stream = adoptedStream(handed, account, this.limits, this.deps.clock, this.operations);
    if (handed.replay) this.replayed.set(stream, handed.replay);
    stream.detachedAt = this.deps.clock();
    return new Promise((resolve, reject) => {
      this.enqueue(async () => {
        try {
          this.streams.set(stream.id, stream);
          const position = handed.lastEvent;
          if (position !== null && position !== this.lastEvent) {
            const at = this.history.findIndex((h) => h.event.id === position);
            if (at < 0) this.skipping.set(stream, { until: position, deadline: this.deps.clock() + this.limits.resumeWindowMs });
            else for (const h of this.history.slice(at + 1)) await this.handlePrints(h.event, new Set([stream]));
          }
          resolve(stream);
        } catch (error) {
          reject(error instanceof Error ? error : new Error(String(error)));
        }
      });
    });
  }

  private async levelsCadence(): Promise<void> {
    await this.recheckAccounts();
    const levels = [...this.subscriptions('levels')];
    if (levels.length > 0) await refreshSnapshots(this.deps, levels, true);
  }
}
