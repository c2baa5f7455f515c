/**
 * The client-side limiter: keeps one client's requests within its account's limits, so that a
 * naive `Promise.all` of many calls is paced instead of earning 429s (and, at 30 rejections in a
 * minute, a cooldown of the whole account). Three limits, each either a number or off (null):
 *
 * - inFlight: requests at once (the service refuses the one past its `requests_in_flight`);
 * - perSecond and perMinute: request starts within any rolling second and minute (its
 *   `requests_per_second` and `requests_per_minute`), each window kept a little longer than the
 *   service's (WINDOW_MARGIN_MS) so that a request that reaches the service late cannot make two
 *   starts look closer together there than they were here.
 *
 * A limit not configured is read from GET /v1/account/limits once, on the first request that needs
 * the limiter; a limit the read could not give (no answer, a bad key) is the contract's default.
 * Requests wait in arrival order. A request that spends nothing in the windows (GET
 * /v1/account/limits itself) still takes an in-flight place, as the service counts it.
 *
 * The limiter counts this client's requests only: other clients of the same account (another
 * process, another Oads) share the account's limits without it knowing. Give those clients lower
 * limits, or keep one client per account.
 */

/** The limits the SDK keeps: a number sets one, null turns it off, left out reads it from the account. */
export interface ClientLimits {
  /** Requests at once (the account's `limits.requests_in_flight`, 4 by default). */
  inFlight?: number | null;
  /** Request starts per rolling second (`limits.requests_per_second`, 30 by default). */
  perSecond?: number | null;
  /** Request starts per rolling minute (`limits.requests_per_minute`, 250 by default). */
  perMinute?: number | null;
}

/** The limit values an account reads (the members of GET /v1/account/limits' `data.limits` that the limiter uses). */
export interface AccountLimitValues {
  requests_in_flight: number;
  requests_per_second: number;
  requests_per_minute: number;
}

type Resolved = { [K in keyof ClientLimits]-?: number | null };

/** The contract's default limits, used for any the account's read could not give. */
export const DEFAULT_LIMITS: Readonly<AccountLimitValues> = { requests_in_flight: 4, requests_per_second: 30, requests_per_minute: 250 };

/** How much longer than the service's each window is kept here, in ms. */
export const WINDOW_MARGIN_MS = 100;

const SECOND = 1000;
const MINUTE = 60_000;

interface Waiter {
  consume: boolean;
  admit: () => void;
}

export class Limiter {
  private resolved: Resolved | null = null;
  private loading: Promise<Resolved> | null = null;
  private active = 0;
  /** The moments (performance.now()) of the starts still inside the minute window, oldest first. */
  private readonly starts: number[] = [];
  private readonly waiting: Waiter[] = [];
  private timer: ReturnType<typeof setTimeout> | null = null;
  private timerAt = Infinity;

  /**
   * @param configured the limits set by the caller (left out: read from the account)
   * @param readAccount reads the account's limit values; null when there is no account to ask (no key)
   */
  constructor(
    private readonly configured: ClientLimits,
    private readonly readAccount: (() => Promise<AccountLimitValues>) | null,
  ) {
    for (const [name, value] of Object.entries(configured)) {
      if (value !== null && value !== undefined && !(Number.isInteger(value) && value >= 1)) {
        throw new RangeError(`limits.${name} must be a whole number of at least 1, or null.`);
      }
    }
  }

  /** The limits in force (reading the account's on first use). */
  async limits(): Promise<Readonly<Resolved>> {
    if (this.resolved) return this.resolved;
    this.loading ??= this.load();
    this.resolved = await this.loading;
    return this.resolved;
  }

  /**
   * Waits for a place for one request and takes it; the function returned gives it back (call it
   * once the answer is read). `consume` false: the request takes an in-flight place only.
   */
  async acquire(consume: boolean): Promise<() => void> {
    await this.limits();
    await new Promise<void>((admit) => {
      this.waiting.push({ consume, admit });
      this.pump();
    });
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.active -= 1;
      this.pump();
    };
  }

  private async load(): Promise<Resolved> {
    const { inFlight, perSecond, perMinute } = this.configured;
    let account: AccountLimitValues = DEFAULT_LIMITS;
    if ((inFlight === undefined || perSecond === undefined || perMinute === undefined) && this.readAccount) {
      try {
        account = await this.readAccount();
      } catch {
        // The request it protects will meet the same fault and report it; the defaults stand meanwhile.
      }
    }
    return {
      inFlight: inFlight !== undefined ? inFlight : account.requests_in_flight,
      perSecond: perSecond !== undefined ? perSecond : account.requests_per_second,
      perMinute: perMinute !== undefined ? perMinute : account.requests_per_minute,
    };
  }

  /** Admits waiting requests in arrival order while the limits allow; sets a timer for the next window opening. */
  private pump(): void {
    const limits = this.resolved;
    if (!limits) return;
    while (this.waiting.length > 0) {
      if (limits.inFlight !== null && this.active >= limits.inFlight) return;
      const waiter = this.waiting[0] as Waiter;
      const now = performance.now();
      if (waiter.consume) {
        const opensAt = this.windowOpensAt(limits, now);
        if (opensAt > now) {
          this.wakeAt(opensAt, now);
          return;
        }
        this.starts.push(now);
      }
      this.waiting.shift();
      this.active += 1;
      waiter.admit();
    }
  }

  /** When the windows next have room for one more start (now or earlier when they have room). */
  private windowOpensAt(limits: Resolved, now: number): number {
    while (this.starts.length > 0 && (this.starts[0] as number) <= now - MINUTE - WINDOW_MARGIN_MS) this.starts.shift();
    let opensAt = now;
    for (const [limit, span] of [
      [limits.perSecond, SECOND],
      [limits.perMinute, MINUTE],
    ] as const) {
      if (limit === null) continue;
      const inWindow = this.starts.filter((t) => t > now - span - WINDOW_MARGIN_MS).length;
      if (inWindow >= limit) {
        // The start that must leave the window before one more fits.
        const leaving = this.starts[this.starts.length - limit] as number;
        opensAt = Math.max(opensAt, leaving + span + WINDOW_MARGIN_MS);
      }
    }
    return opensAt;
  }

  private wakeAt(at: number, now: number): void {
    if (this.timer !== null && this.timerAt <= at) return;
    if (this.timer !== null) clearTimeout(this.timer);
    this.timerAt = at;
    this.timer = setTimeout(
      () => {
        this.timer = null;
        this.timerAt = Infinity;
        this.pump();
      },
      Math.ceil(at - now) + 1,
    );
  }
}
