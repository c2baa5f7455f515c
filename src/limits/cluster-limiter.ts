/**
 * One set of limits for a cluster of HTTP workers. The primary process holds the only RateLimiter
 * and answers its workers over the cluster's IPC channel; each worker's ClusterLimiterClient asks it
 * and awaits the answer. An account's windows and in-flight count are therefore the same whichever
 * worker a connection lands on (limits counted per worker would let an account through N times).
 *
 * Messages (JSON, tagged `oads: 'limit'`):
 * - worker to primary: `{ id, op: 'admit', account, now, consume }`, `{ id, op: 'state', account,
 *   now }`, `{ id, op: 'keyless', network, now }`, and `{ op: 'release', ticket }` (no answer);
 * - primary to worker: `{ id, result }`. An admitted request's result carries a ticket: the
 *   worker sends it back in a release when the response closes, and the primary releases every
 *   ticket of a worker that exits.
 * Time comes from the worker's clock, as it would in one process (the workers share one host).
 */
import type { Admission, KeylessAdmission, KeylessBudget, Limiter, RateLimiter, Rejection, WindowState } from './rate-limiter.js';

/** Either end of an IPC channel (a cluster worker, or process in the worker). */
export interface Channel {
  send(message: unknown): unknown;
  on(event: 'message', listener: (message: unknown) => void): unknown;
}

type Request =
  | { oads: 'limit'; id: number; op: 'admit'; account: string; now: number; consume: boolean }
  | { oads: 'limit'; id: number; op: 'state'; account: string; now: number }
  | { oads: 'limit'; id: number; op: 'keyless'; network: string; now: number; budget: KeylessBudget; consume: boolean }
  | { oads: 'limit'; op: 'release'; ticket: number };

type AdmitResult = { admitted: true; ticket: number; state: WindowState } | { admitted: false; rejection: Rejection; state: WindowState };

type Reply = { oads: 'limit'; id: number; result: AdmitResult | WindowState | KeylessAdmission };

function isLimitMessage(message: unknown): message is { oads: 'limit' } {
  return typeof message === 'object' && message !== null && (message as { oads?: unknown }).oads === 'limit';
}

/**
 * Answers one worker's limit requests from the primary's RateLimiter. Returns releaseAll(), to call
 * when the worker exits: its admitted requests are then no longer in flight.
 */
export function serveLimits(limiter: RateLimiter, channel: Channel): { releaseAll: () => void } {
  const tickets = new Map<number, () => void>();
  let nextTicket = 1;
  channel.on('message', (message) => {
    if (!isLimitMessage(message)) return;
    const request = message as Request;
    if (request.op === 'release') {
      tickets.get(request.ticket)?.();
      tickets.delete(request.ticket);
      return;
    }
    let result: Reply['result'];
    if (request.op === 'admit') {
      const { admission, state } = limiter.admitWithState(request.account, request.now, request.consume);
      if (admission.admitted) {
        const ticket = nextTicket++;
        tickets.set(ticket, admission.release);
        result = { admitted: true, ticket, state };
      } else {
        result = { admitted: false, rejection: admission.rejection, state };
      }
    } else if (request.op === 'state') {
      result = limiter.state(request.account, request.now);
    } else {
      result = limiter.admitKeyless(request.network, request.now, request.budget, request.consume);
    }
    channel.send({ oads: 'limit', id: request.id, result } satisfies Reply);
  });
  return {
    releaseAll: () => {
      for (const release of tickets.values()) release();
      tickets.clear();
    },
  };
}

/** A worker's view of the primary's limits: every answer is a round trip over the channel. */
export class ClusterLimiterClient implements Limiter {
  private readonly pending = new Map<number, (result: Reply['result']) => void>();
  private nextId = 1;

  constructor(private readonly channel: Channel) {
    channel.on('message', (message) => {
      if (!isLimitMessage(message)) return;
      const reply = message as Reply;
      const resolve = this.pending.get(reply.id);
      if (!resolve) return;
      this.pending.delete(reply.id);
      resolve(reply.result);
    });
  }

  /** Requests awaiting the primary's answer. */
  get waiting(): number {
    return this.pending.size;
  }

  private ask(request: Request & { id: number }): Promise<Reply['result']> {
    return new Promise((resolve) => {
      this.pending.set(request.id, resolve);
      this.channel.send(request);
    });
  }

  async admitWithState(accountId: string, now: number, consume: boolean): Promise<{ admission: Admission; state: WindowState }> {
    const result = (await this.ask({ oads: 'limit', id: this.nextId++, op: 'admit', account: accountId, now, consume })) as AdmitResult;
    if (!result.admitted) return { admission: { admitted: false, rejection: result.rejection }, state: result.state };
    let released = false;
    const release = (): void => {
      if (released) return;
      released = true;
      this.channel.send({ oads: 'limit', op: 'release', ticket: result.ticket } satisfies Request);
    };
    return { admission: { admitted: true, release }, state: result.state };
  }

  async state(accountId: string, now: number): Promise<WindowState> {
    return (await this.ask({ oads: 'limit', id: this.nextId++, op: 'state', account: accountId, now })) as WindowState;
  }

  async admitKeyless(network: string, now: number, budget: KeylessBudget = 'credentials', consume = true): Promise<KeylessAdmission> {
    return (await this.ask({ oads: 'limit', id: this.nextId++, op: 'keyless', network, now, budget, consume })) as KeylessAdmission;
  }
}
