/**
 * A duty the deployment runs once, whatever the number of its machines: the live market's runner
 * (main.ts). Each machine's primary keeps a Duty for it. The one holding the duty's lease in the
 * database (db/duties.ts) runs it and renews the lease every `renewMs`; the others look as often and
 * take the lease when it expired (its holder died) or was given up (its holder stopped), then run
 * the duty themselves. A runner resumes from what the store holds, so a duty taken over goes on
 * where the store stands.
 *
 * At most one process runs the duty at any time: a holder that cannot renew (the database out of
 * reach or hung: a renewal not answered within `renewMs` counts as failed; or the lease found
 * taken) stops running it at the first look at least `leaseMs - 2 × renewMs` after its last
 * renewal, so at least a look's time before the lease can expire and be taken. A dead holder's
 * duty is taken over within `leaseMs + renewMs` (20 + 4 s by default), a stopped holder's at the
 * others' next look.
 */
import { randomBytes } from 'node:crypto';
import os from 'node:os';
import type { Queryable } from '../db/connection.js';
import { claimDuty, releaseDuty } from '../db/duties.js';
import type { Logger } from '../logging.js';

/** How long a lease holds without renewal. */
export const DUTY_LEASE_MS = 20_000;
/** How often the holder renews its lease and the others look whether it expired. */
export const DUTY_RENEW_MS = 4_000;

/** What a duty runs while its lease is held: stopped when the lease is lost or given up. */
export interface DutyRun {
  stop(): Promise<void>;
}

export interface DutyOptions {
  leaseMs?: number;
  renewMs?: number;
  /** This process's name in the lease (default host, pid and a random part). */
  holder?: string;
  logger?: Logger;
}

/** A process's name as a lease holder: its host and pid, and a random part so that a pid reused is not taken for its predecessor. */
export function holderName(): string {
  return `${os.hostname()}:${process.pid}:${randomBytes(4).toString('hex')}`;
}

export class Duty {
  readonly holder: string;
  private readonly leaseMs: number;
  private readonly renewMs: number;
  private timer: NodeJS.Timeout | null = null;
  private looking: Promise<void> | null = null;
  /** The newest claim sent, until it settles (a look stops waiting for it after renewMs). */
  private claiming: Promise<unknown> | null = null;
  private stopped = true;
  private held = false;
  private run: DutyRun | null = null;
  /** performance.now() when the last renewal that succeeded was asked. */
  private renewedAt = -Infinity;

  constructor(
    private readonly db: Queryable,
    readonly name: string,
    private readonly begin: () => DutyRun | null,
    private readonly options: DutyOptions = {},
  ) {
    this.holder = options.holder ?? holderName();
    this.leaseMs = options.leaseMs ?? DUTY_LEASE_MS;
    this.renewMs = options.renewMs ?? DUTY_RENEW_MS;
    if (!(2 * this.renewMs < this.leaseMs)) throw new RangeError('a duty is renewed at least twice within its lease');
  }

  /** Whether this process holds the lease and runs the duty. */
  get holding(): boolean {
    return this.held;
  }

  /** Looks at once, then every renewMs. */
  start(): void {
    if (!this.stopped) return;
    this.stopped = false;
    this.schedule(0);
  }

  /** Stops running the duty and gives its lease up, so that another process takes it at its next look. */
  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    await this.looking;
    // A claim given up on by its look (no answer in time) may still land: the lease is given up after it.
    await this.settleClaim();
    const held = this.held;
    await this.drop('stopping');
    if (held) await releaseDuty(this.db, this.name, this.holder).catch(() => undefined);
  }

  /** Waits for the claim in flight to land or fail, at most a lease's time. */
  private async settleClaim(): Promise<void> {
    if (this.claiming === null) return;
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([this.claiming, new Promise((resolve) => (timer = setTimeout(resolve, this.leaseMs)))]);
    clearTimeout(timer);
  }

  private schedule(delayMs: number): void {
    this.timer = setTimeout(() => {
      this.timer = null;
      this.looking = this.look().finally(() => {
        this.looking = null;
        if (!this.stopped) this.schedule(this.renewMs);
      });
    }, delayMs);
  }

  private async look(): Promise<void> {
    const asked = performance.now();
    let held: boolean;
    let timer: NodeJS.Timeout | undefined;
    try {
      const claim = claimDuty(this.db, this.name, this.holder, this.leaseMs);
      const settled: Promise<unknown> = claim.then(
        () => {
          if (this.claiming === settled) this.claiming = null;
        },
        () => {
          if (this.claiming === settled) this.claiming = null;
        },
      );
      this.claiming = settled;
      held = await Promise.race([
        claim,
        new Promise<never>((_, reject) => {
          timer = setTimeout(() => reject(new Error(`no answer within ${this.renewMs} ms`)), this.renewMs);
        }),
      ]);
    } catch (error) {
      // Not renewed: run on only while the lease surely holds past the next look.
      if (this.held && performance.now() - this.renewedAt >= this.leaseMs - 2 * this.renewMs)
        await this.drop(`its lease could not be renewed: ${error instanceof Error ? error.message : String(error)}`);
      return;
    } finally {
      clearTimeout(timer);
    }
    if (this.stopped) {
      // Stopped while the claim was in flight: stop() gives the lease up.
      this.held = this.held || held;
      return;
    }
    if (held) {
      this.renewedAt = asked;
      if (!this.held) {
        this.held = true;
        this.options.logger?.info('duty taken', { duty: this.name, holder: this.holder });
        this.run = this.begin();
      }
    } else if (this.held) {
      await this.drop('its lease was taken by another process');
    }
  }

  private async drop(reason: string): Promise<void> {
    if (!this.held) return;
    this.held = false;
    const run = this.run;
    this.run = null;
    this.options.logger?.info('duty given up', { duty: this.name, holder: this.holder, reason });
    await run?.stop();
  }
}
