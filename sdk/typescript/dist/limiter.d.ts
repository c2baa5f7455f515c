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
type Resolved = {
    [K in keyof ClientLimits]-?: number | null;
};
/** The contract's default limits, used for any the account's read could not give. */
export declare const DEFAULT_LIMITS: Readonly<AccountLimitValues>;
/** How much longer than the service's each window is kept here, in ms (for timer and clock granularity). */
export declare const WINDOW_MARGIN_MS = 20;
export declare class Limiter {
    private readonly configured;
    private readonly readAccount;
    private resolved;
    private loading;
    private active;
    /** Requests sent that count in the windows and are not answered yet: in every window until they are. */
    private pending;
    /** The moments (performance.now()) of the answers of counted requests still inside the minute window, oldest first. */
    private readonly answers;
    private readonly waiting;
    private timer;
    private timerAt;
    /**
     * @param configured the limits set by the caller (left out: read from the account)
     * @param readAccount reads the account's limit values; null when there is no account to ask (no key)
     */
    constructor(configured: ClientLimits, readAccount: (() => Promise<AccountLimitValues>) | null);
    /** The limits in force (reading the account's on first use). */
    limits(): Promise<Readonly<Resolved>>;
    /**
     * Waits for a place for one request and takes it; the function returned gives it back (call it
     * once the answer is read). `consume` false: the request takes an in-flight place only.
     */
    acquire(consume: boolean): Promise<() => void>;
    private load;
    /** Admits waiting requests in arrival order while the limits allow; sets a timer for the next window opening. */
    private pump;
    /**
     * When the windows next have room for one more request: now when they have it; Infinity when a
     * window is full of unanswered requests (an answer must come first).
     */
    private windowOpensAt;
    private wakeAt;
}
export {};
