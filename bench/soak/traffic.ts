/**
 * The soak's clients: accounts driven at their limits on realistic routes, and a flood of bad keys.
 * Each client binds its own loopback address (127.0.0.0/8 is all loopback on Linux), so that each
 * account, and the flood, is a client network of its own with its own keyless budget, as customers
 * are. The HTTP client is node:http (no load generator in between); times are wall-clock
 * milliseconds of this process.
 *
 * - A paced account keeps its own copy of its windows (answers of admitted requests counted from
 *   their answer, which is never earlier than the server's admission, plus its requests in flight)
 *   and sends on a schedule of exactly its per-minute limit, waiting whenever its copy says a window
 *   is full. It is never refused by a limiter that admits what the limits allow, so any 429 it gets
 *   is a refusal the limits do not explain, and it is at its limit: every slot the server frees is
 *   taken at once.
 * - An over-limit account sends on a fixed schedule above its per-minute limit (a new connection
 *   per request, as a script would) and does not retry: the server must admit exactly its limit
 *   and refuse the rest. The excess stays under the cooldown threshold (30 refusals a minute).
 * - The flood sends random keys (mostly well formed, so each is looked up; some malformed) from many
 *   keep-alive connections spread over a few client networks.
 */
import http from 'node:http';
import { randomBytes } from 'node:crypto';
import type { Exchange } from './figures.js';

export const now = (): number => performance.timeOrigin + performance.now();
const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, Math.max(0, ms)));

export interface Answered extends Exchange {
  route: string;
  status: number;
  /** The error code of an error body. */
  code: string | null;
  message: string | null;
  /** Transport failure (no HTTP answer). */
  failed: string | null;
}

/** One GET; the body is read whole (the latency is the whole answer's). */
export function get(
  base: string,
  pathAndQuery: string,
  route: string,
  options: { agent: http.Agent | false; localAddress: string; key: string | null },
): Promise<Answered & { body: string }> {
  const sent = now();
  return new Promise((resolve) => {
    const headers: http.OutgoingHttpHeaders = options.key === null ? {} : { authorization: `Bearer ${options.key}` };
    const request = http.get(
      `${base}${pathAndQuery}`,
      { agent: options.agent, localAddress: options.localAddress, headers },
      (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('end', () => {
          const body = Buffer.concat(chunks).toString('utf8');
          const status = response.statusCode ?? 0;
          let code: string | null = null;
          let message: string | null = null;
          if (status >= 400) {
            try {
              const error = (JSON.parse(body) as { error?: { code?: string; message?: string } }).error;
              code = error?.code ?? null;
              message = error?.message ?? null;
            } catch {
              code = null;
            }
          }
          resolve({ sent, received: now(), route, status, code, message, failed: null, body });
        });
        response.on('error', (error) =>
          resolve({ sent, received: now(), route, status: 0, code: null, message: null, failed: error.message, body: '' }),
        );
      },
    );
    request.on('error', (error) =>
      resolve({ sent, received: now(), route, status: 0, code: null, message: null, failed: error.message, body: '' }),
    );
  });
}

/** A small deterministic generator (mulberry32), so that runs ask the same mix. */
export function random(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export interface Market {
  /** Trading dates with prints and quote samples, oldest first. */
  dates: string[];
  roots: string[];
  /** Contracts with quote samples on a date: their implied-volatility history answers. */
  contracts: { root: string; contractType: string; strike: number; expiry: string; date: string }[];
}

export interface Limits {
  perMinute: number;
  perSecond: number;
  inFlight: number;
  keylessPerMinute: number;
}

const pick = <T>(next: () => number, list: readonly T[]): T => list[Math.floor(next() * list.length)] as T;
const between = (next: () => number, lo: number, hi: number) => lo + Math.floor(next() * (hi - lo + 1));

/**
 * The data routes an account asks, by weight: a trades page of 5-100 prints on one root and
 * session (65%; a quarter of them the next page of the last one), flow leaders by root or contract
 * of a session (10%), one contract's implied-volatility history on a session (25%).
 */
export class Workload {
  private readonly next: () => number;
  private cursor: string | null = null;

  constructor(
    private readonly market: Market,
    seed: number,
  ) {
    this.next = random(seed);
  }

  request(): { path: string; route: string } {
    const r = this.next();
    const m = this.market;
    if (r < 0.65) {
      if (this.cursor !== null && this.next() < 0.25) return { path: `/v1/options/trades?${this.cursor}`, route: 'trades' };
      const query = new URLSearchParams({
        underlying_symbol: pick(this.next, m.roots),
        date: pick(this.next, m.dates),
        limit: String(between(this.next, 5, 100)),
      });
      if (this.next() < 0.3) query.set('min_premium', String(pick(this.next, [1000, 10000, 50000])));
      if (this.next() < 0.2) query.set('side', pick(this.next, ['ask', 'bid']));
      return { path: `/v1/options/trades?${query}`, route: 'trades' };
    }
    if (r < 0.75) {
      const grain = this.next() < 0.6 ? 'root' : 'contract';
      const sort =
        grain === 'root'
          ? pick(this.next, ['net', 'premium', 'volume', 'trades'])
          : pick(this.next, ['change_percent', 'premium', 'volume']);
      const query = new URLSearchParams({ grain, sort, date: pick(this.next, m.dates), limit: String(between(this.next, 10, 50)) });
      return { path: `/v1/options/flow/leaders?${query}`, route: 'leaders' };
    }
    const c = pick(this.next, m.contracts);
    const query = new URLSearchParams({
      underlying_symbol: c.root,
      contract_type: c.contractType,
      strike: String(c.strike),
      date_of_expiry: c.expiry,
      date: c.date,
      interval: pick(this.next, ['1m', '5m', '15m']),
    });
    return { path: `/v1/options/contract/implied-volatility?${query}`, route: 'history' };
  }

  /** Keeps a trades page's next cursor (the query it repeats) for a later request. */
  answered(path: string, body: string): void {
    if (!path.startsWith('/v1/options/trades?')) return;
    try {
      const next = (JSON.parse(body) as { pagination?: { next_cursor_id?: string | null } }).pagination?.next_cursor_id;
      if (!next) return;
      const query = new URLSearchParams(path.slice(path.indexOf('?') + 1));
      query.set('cursor_id', next);
      this.cursor = query.toString();
    } catch {
      this.cursor = null;
    }
  }
}

export interface AccountClient {
  name: string;
  key: string;
  kind: 'paced' | 'over';
  localAddress: string;
  workload: Workload;
}

/** What an account's run saw: its data requests, and its status requests (public: the network's budget). */
export interface AccountRun {
  client: AccountClient;
  started: number;
  data: Answered[];
  status: Answered[];
}

/** How long a paced client waits before its copy of the windows has room (Infinity: until an answer). */
function pacedWait(answers: readonly number[], inFlight: number, t: number, limits: Limits): number {
  if (inFlight >= limits.inFlight) return Infinity;
  let wait = 0;
  for (const [span, limit] of [
    [60_000, limits.perMinute],
    [1_000, limits.perSecond],
  ] as const) {
    let first = answers.length;
    while (first > 0 && (answers[first - 1] as number) > t - span) first -= 1;
    const room = limit - 1 - inFlight;
    if (room < 0) return Infinity;
    const excess = answers.length - first - room;
    // The excess oldest answers must leave the window: the last of them at its answer + span.
    if (excess > 0) wait = Math.max(wait, (answers[first + excess - 1] as number) + span - t);
  }
  return wait;
}

/**
 * Drives one account until `until`: a paced client at exactly its per-minute limit, or an over-limit
 * one at `overPerMinute`. A status request every five seconds besides (public, not counted).
 */
export async function driveAccount(
  base: string,
  client: AccountClient,
  limits: Limits,
  until: number,
  overPerMinute: number,
): Promise<AccountRun> {
  const run: AccountRun = { client, started: now(), data: [], status: [] };
  const keepAlive = new http.Agent({ keepAlive: true, maxSockets: limits.inFlight });
  const agent = client.kind === 'paced' ? keepAlive : false;
  const answers: number[] = [];
  let inFlight = 0;
  let wake: () => void = () => undefined;
  const pending = new Set<Promise<void>>();

  const statuses = (async () => {
    for (let at = run.started + 2500; at < until; at += 5000) {
      await sleep(at - now());
      run.status.push(await get(base, '/v1/status', 'status', { agent: keepAlive, localAddress: client.localAddress, key: client.key }));
    }
  })();

  const interval = 60_000 / (client.kind === 'paced' ? limits.perMinute : overPerMinute);
  let next = run.started;
  for (;;) {
    await sleep(next - now());
    for (;;) {
      const t = now();
      const wait = client.kind === 'paced' ? pacedWait(answers, inFlight, t, limits) : inFlight >= limits.inFlight ? Infinity : 0;
      if (wait <= 0 || t >= until) break;
      await Promise.race([new Promise<void>((resolve) => (wake = resolve)), sleep(Math.min(wait, 1000))]);
    }
    if (now() >= until) break;
    const { path, route } = client.workload.request();
    inFlight += 1;
    const done = get(base, path, route, { agent, localAddress: client.localAddress, key: client.key }).then((answer) => {
      inFlight -= 1;
      if (answer.status !== 429) answers.push(answer.received);
      if (answer.status === 200) client.workload.answered(path, answer.body);
      const { body: _body, ...seen } = answer;
      run.data.push(seen);
      wake();
    });
    pending.add(done);
    void done.finally(() => pending.delete(done));
    next += interval;
    // A client held back (by its windows, or a slow answer) does not send the missed ones at once.
    if (next < now() - 1000) next = now();
  }
  await Promise.all([...pending, statuses]);
  keepAlive.destroy();
  return run;
}

/** A random key: mostly well formed (looked up by its prefix), else malformed. */
function badKey(next: () => number): string {
  const letters = (n: number) => randomBytes(n).toString('base64url').replace(/[-_]/g, 'x').slice(0, n);
  return next() < 0.75 ? `oads_${letters(8).toLowerCase()}_${letters(32)}` : letters(20);
}

export interface FloodRun {
  /** Each network's answers. */
  networks: Map<string, Answered[]>;
}

/** `connections` keep-alive connections over `networks` client networks, `rate` requests a second in all. */
export async function flood(
  base: string,
  market: Market,
  connections: number,
  networks: number,
  rate: number,
  until: number,
): Promise<FloodRun> {
  const result: FloodRun = { networks: new Map() };
  if (rate <= 0 || connections <= 0) return result;
  const perConnection = rate / connections;
  await Promise.all(
    Array.from({ length: connections }, async (_, lane) => {
      // Neighbouring lanes connect one after the other and so reach alternate workers (the cluster
      // hands connections out in turn): a network's lanes are neighbours, so each reaches them all.
      const network = `127.1.${Math.floor((lane * networks) / connections)}`;
      const localAddress = `${network}.${10 + lane}`;
      const answers: Answered[] = [];
      result.networks.set(network, result.networks.get(network) ?? []);
      const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
      const next = random(7919 * (lane + 1));
      const workload = new Workload(market, 104729 * (lane + 1));
      for (let at = now() + (lane * 1000) / rate; at < until; at += 1000 / perConnection) {
        await sleep(at - now());
        const { path, route } = workload.request();
        const answer = await get(base, path, route, { agent, localAddress, key: badKey(next) });
        const { body: _body, ...seen } = answer;
        answers.push(seen);
        if (now() > at + 1000) at = now();
      }
      result.networks.get(network)?.push(...answers);
      agent.destroy();
    }),
  );
  return result;
}
