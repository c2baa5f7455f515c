/**
 * Whether the database answers, as the service's connections find it, and its reconnection with
 * backoff. A connection that fails or is lost with an error that says the database is unavailable
 * (unavailable.ts) makes the watch probe it: one new connection and `select 1`. A failed probe marks
 * the database down, and probes follow after pauses that double from 100 ms to 2 s until one
 * answers. While it is down the service's pools refuse a connection at once
 * (DatabaseUnavailableError, a 503 for a request) instead of each request waiting on a server that
 * is not there; a server given by DATABASE_URL that stops answering costs no request its time-out.
 * The embedded server's supervisor (supervisor.ts) marks it down when the server exits and asks for a
 * probe once it is back.
 */
import type { Logger } from '../logging.js';
import { databaseUnavailable, DatabaseUnavailableError, DATABASE_RETRY_AFTER_MS } from './unavailable.js';

const FIRST_PAUSE_MS = 100;
/** A probe that answered is trusted this long by default: suspicions within it start no new probe. */
const TRUSTED_MS = 250;

export interface WatchOptions {
  /** One attempt to reach the database; resolves when it answers. */
  probe: () => Promise<void>;
  logger?: Logger;
  clock?: () => number;
  /** Called each time the database is found down (from up): what waits on it is to be cut. */
  onDown?: (reason: string) => void;
  /**
   * How long a probe that answered is trusted (default 250 ms): statements that run long by
   * design (a heavy valuation) each suspect the database, and probe it at most once in this time.
   */
  trustedMs?: number;
}

export interface WatchState {
  status: 'up' | 'down';
  /** When the database was found down (null while up). */
  downSince: number | null;
  /** The last error of a failed probe, while down. */
  error: string | null;
}

const messageOf = (error: unknown): string => (error instanceof Error ? error.message : String(error));

export class DatabaseWatch {
  private down: { since: number; error: string; attempts: number } | null = null;
  private probing: Promise<void> | null = null;
  private wake: (() => void) | null = null;
  private trustedUntil = 0;
  private closed = false;
  private readonly clock: () => number;

  constructor(private readonly options: WatchOptions) {
    this.clock = options.clock ?? Date.now;
  }

  get state(): WatchState {
    return this.down
      ? { status: 'down', downSince: this.down.since, error: this.down.error }
      : { status: 'up', downSince: null, error: null };
  }

  /** Throws DatabaseUnavailableError while the database is down, so that no connection is attempted. */
  assertUp(): void {
    if (this.down) throw new DatabaseUnavailableError(`The database is unavailable (since ${new Date(this.down.since).toISOString()}).`);
  }

  /** A connection failed or was lost: probes the database unless the error is of another kind. */
  suspect(error: unknown): void {
    if (!databaseUnavailable(error) || this.closed) return;
    if (!this.down && performance.now() < this.trustedUntil) return;
    this.startProbing();
  }

  /** The database is known to be down (the embedded server exited): marked at once, then probed. */
  markDown(reason: string): void {
    if (this.closed) return;
    this.setDown(reason);
    this.startProbing();
  }

  /** Probes now rather than after the current pause (the embedded server is back). */
  probeNow(): void {
    if (this.wake) this.wake();
    else if (this.down) this.startProbing();
  }

  close(): void {
    this.closed = true;
    this.wake?.();
  }

  private setDown(error: string): void {
    if (this.down) {
      this.down.error = error;
      return;
    }
    this.down = { since: this.clock(), error, attempts: 0 };
    this.options.logger?.error('database unavailable; reconnecting', { error, retry_after_ms: DATABASE_RETRY_AFTER_MS });
    this.options.onDown?.(error);
  }

  private startProbing(): void {
    if (this.probing) return;
    this.probing = this.probeUntilUp().finally(() => {
      this.probing = null;
    });
  }

  private async probeUntilUp(): Promise<void> {
    let pause = FIRST_PAUSE_MS;
    while (!this.closed) {
      try {
        await this.options.probe();
        this.trustedUntil = performance.now() + (this.options.trustedMs ?? TRUSTED_MS);
        if (this.down) {
          this.options.logger?.info('database reachable again', {
            down_ms: this.clock() - this.down.since,
            probes: this.down.attempts + 1,
          });
          this.down = null;
        }
        return;
      } catch (error) {
        // A server that answers with another error (a full server, a bad password) is up: requests
        // meet that error themselves.
        if (!databaseUnavailable(error)) {
          this.down = null;
          return;
        }
        this.setDown(messageOf(error));
        if (this.down) this.down.attempts += 1;
      }
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, pause);
        timer.unref();
        this.wake = () => {
          clearTimeout(timer);
          resolve();
        };
      });
      this.wake = null;
      pause = Math.min(pause * 2, DATABASE_RETRY_AFTER_MS);
    }
  }
}
