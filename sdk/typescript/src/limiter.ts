/**
 * The client-side limiter: keeps one client's requests within its account's limits, so that a
 * naive `Promise.all` of many calls is paced instead of earning 429s (and, at 30 rejections in a
 * minute, a cooldown of the whole account). Three limits, each either a number or off (null):
 *
 * - inFlight: requests at once (the service refuses the one past its `requests_in_flight`);
 * - perSecond and perMinute: requests within any rolling second and minute (its
 *   `requests_per_second` and `requests_per_minute`). The service stamps a request into its windows
 *   when it admits it, somewhere between our sending it and our reading its answer; how long after
 *   the sending is not known here (the network, the service's own queue). So a request counts here
 *   from its start, and while it is unanswered it stays in every window; once answered it is
 *   stamped with the moment of its answer, which is no earlier than the service's stamp, and leaves
 *   a window a span (and WINDOW_MARGIN_MS) after that. A new request thus never meets, at the
 *   service, more than the limit of earlier ones within the span, however late each arrived.
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
  /** Requests per rolling second (`limits.requests_per_second`, 30 by default). */
  perSecond?: number | null;
  /** Requests per rolling minute (`limits.requests_per_minute`, 250 by default). */
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

/** How much longer than the service's each window is kept here, in ms (for timer and clock granularity). */
export const WINDOW_MARGIN_MS = 20;

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
  /** Requests sent that count in the windows and are not answered yet: in every window until they are. */
  private pending = 0;
  /** The moments (performance.now()) of the answers of counted requests still inside the minute window, oldest first. */
  private readonly answers: number[] = [];
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
      if (consume) {
        this.pending -= 1;
        this.answers.push(performance.now());
      }
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
          // Infinity: only an answer makes room (the release pumps again).
          if (Number.isFinite(opensAt)) this.wakeAt(opensAt, now);
          return;
        }
        this.pending += 1;
      }
      this.waiting.shift();
      this.active += 1;
      waiter.admit();
    }
  }

  /**
   * When the windows next have room for one more request: now when they have it; Infinity when a
   * window is full of unanswered requests (an answer must come first).
   */
  private windowOpensAt(limits: Resolved, now: number): number {
    while (this.answers.length > 0 && (this.answers[0] as number) <= now - MINUTE - WINDOW_MARGIN_MS) this.answers.shift();
    let opensAt = now;
    for (const [limit, span] of [
      [limits.perSecond, SECOND],
      [limits.perMinute, MINUTE],
    ] as const) {
      if (limit === null) continue;
      const answered = this.answers.filter((t) => t > now - span - WINDOW_MARGIN_MS);
      const over = this.pending + answered.length - limit;
      if (over < 0) continue;
      // The answered requests leave oldest first; the (over + 1)th to leave makes room, if there is one.
      const leaving = answered[over];
      opensAt = Math.max(opensAt, leaving === undefined ? Infinity : leaving + span + WINDOW_MARGIN_MS);
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
