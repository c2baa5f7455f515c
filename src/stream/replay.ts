/**
 * Replay: the last completed session's prints sent again into the streams from its open, as if
 * they arrived now, at `speed` times real time, each message marked replay (and with each step, the
 * premium drift of that session up to the replayed instant, hub.ts). It reads the store and
 * changes nothing in it. Always on with LIVE_MODE=replay; with LIVE_MODE=live only outside market
 * hours (while a regular session is open, the live market feeds the streams). It loops: at the end
 * of the session (the index options' close and an hour of late reports) it starts again from the
 * open, round after round, for as long as no regular session is open (an evening, a weekend, a
 * holiday), so that a stream opened at any time outside market hours gets a moving tape.
 *
 * One clock for the whole cluster: where the replay stands is a function of the clock alone, the
 * replayed time since an anchor (`speed` × (now − anchor)), the session's open onwards, round and
 * round. The anchor is the replayed session's close (when it became the last completed session, so
 * outside market hours the replay starts from its open as the market closes), or one given. Every
 * worker therefore replays the same instant at the same time, whenever it started, and each step is
 * the span of replayed time since its previous one.
 *
 * Each stream keeps its own position in that replayed time (hub.ts), handed over with it when it
 * resumes on another worker (peers.ts): a step sends a stream the prints from its position to the
 * step's end, so a stream that moved goes on from exactly where it stopped. The workers' steps fall
 * at different moments: the new worker's next step may begin before the stream's position (the
 * stream gets only what follows it) or after it (it also gets what the other worker had not sent).
 */
import { calendarDay, completedSessions } from '../analytics/calendar.js';
import { newYorkDate } from '../analytics/new-york-time.js';
import { optionsRegularClose } from '../analytics/sessions.js';

export interface ReplayOptions {
  /** Replayed milliseconds per real millisecond (1: real time). */
  speed: number;
  /** 'always' (LIVE_MODE=replay) or 'outside_hours' (LIVE_MODE=live). */
  when: 'always' | 'outside_hours';
  /** Real milliseconds between two steps. */
  stepMs?: number;
  /** When the replay stood at the session's open, Unix ms (default: the replayed session's close). */
  anchor?: number;
  /** The clock the replay follows (default: the service's). */
  clock?: () => number;
}

/** One step of a replay: replayed time `from` to `to` (ms since the anchor at `speed`) of the session `date`. */
export interface ReplayStep {
  date: string;
  /** The replayed session: its open, and its end (the index options' close and an hour of late reports), Unix ms. */
  open: number;
  end: number;
  anchor: number;
  speed: number;
  from: number;
  to: number;
}

/** Where a stream stands in a replay: the replayed time sent to it (prints before it were sent). */
export interface ReplayPosition {
  date: string;
  anchor: number;
  speed: number;
  at: number;
}

/** A window of the replayed session, Unix ms: its prints `from` ≤ ts < `to`, sent as of the instant `at`. */
export interface ReplayWindow {
  from: number;
  to: number;
  at: number;
}

const LATE_REPORTS_MS = 60 * 60_000;
const DEFAULT_STEP_MS = 250;

/**
 * The instant of the replayed session (open ≤ instant < end) that the replay stands at when the
 * clock reads `now`: the open at `anchor`, then `speed` times the clock's time since, round after
 * round. A function of the clock alone, so every process of one clock stands at the same instant.
 */
export function replayedInstant(session: { open: number; end: number; anchor: number }, speed: number, now: number): number {
  const length = session.end - session.open;
  const replayed = Math.floor((now - session.anchor) * speed);
  return session.open + (((replayed % length) + length) % length);
}

/** Whether a regular session is open at `now`. */
export function inMarketHours(now: number): boolean {
  const day = calendarDay(newYorkDate(now));
  return day.open_timestamp !== null && day.close_timestamp !== null && now >= day.open_timestamp && now < day.close_timestamp;
}

/**
 * Where a stream starts in `step`: its position when it has one in this replay (before the step's
 * start when it came from a worker that had not sent it as far), the step's start otherwise (a new
 * stream, another session, or a position of another replay); null when it stands at or past the
 * step's end already (it came from a worker that stepped later: it waits for this one).
 */
export function replayStart(position: ReplayPosition | null, step: ReplayStep): number | null {
  const length = step.end - step.open;
  if (position === null || position.date !== step.date || position.anchor !== step.anchor || position.speed !== step.speed)
    return step.from;
  // A position more than a whole session away is not a stream that moved between two workers of one clock.
  if (position.at < step.to - length || position.at > step.to + length) return step.from;
  return position.at >= step.to ? null : position.at;
}

/** The session's windows of replayed time `from` to `to`: one per round of the session it crosses, at most a whole session. */
export function replayWindows(step: Pick<ReplayStep, 'open' | 'end'>, from: number, to: number): ReplayWindow[] {
  const length = step.end - step.open;
  const windows: ReplayWindow[] = [];
  if (length <= 0) return windows;
  let at = Math.max(from, to - length);
  while (at < to) {
    const round = Math.floor(at / length) * length;
    const stop = Math.min(to, round + length);
    windows.push({ from: step.open + (at - round), to: step.open + (stop - round), at: step.open + (stop - round) });
    at = stop;
  }
  return windows;
}

export class Replay {
  private timer: NodeJS.Timeout | null = null;
  private session: { date: string; open: number; end: number; anchor: number } | null = null;
  /** The replayed time reached (ms since the anchor): prints before it have been sent. */
  private at = 0;
  /** The clock at the previous step (at the start, before the first). */
  private last = 0;
  active = false;

  constructor(
    private readonly options: ReplayOptions,
    private readonly clock: () => number,
    /** Hands a step on; a promise returned is the step's handling, and no step is emitted until it settles. */
    private readonly emit: (step: ReplayStep) => void | Promise<void>,
  ) {}

  /** A step emitted and not yet handled: the timer's next steps wait, and the first after it covers their span. */
  private inFlight = false;

  start(): void {
    const stepMs = this.options.stepMs ?? DEFAULT_STEP_MS;
    this.last = this.clock();
    this.timer = setInterval(() => this.step(), stepMs);
    this.timer.unref();
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    this.active = false;
  }

  /** The replayed time at `now` (ms since the anchor, at speed), from the shared clock alone. */
  private replayedAt(anchor: number, now: number): number {
    return Math.floor((now - anchor) * this.options.speed);
  }

  /** Replays the span of replayed time since the previous step (a timer calls it; a test may). */
  step(): void {
    // Steps do not pile up behind a slow one (a busy machine): the replayed time is the clock's, so
    // the step after it replays everything since the last one handled.
    if (this.inFlight) return;
    const now = this.clock();
    const previous = this.last;
    this.last = now;
    if (this.options.when === 'outside_hours' && inMarketHours(now)) {
      this.active = false;
      this.session = null;
      return;
    }
    this.active = true;
    const date = completedSessions(now, 1)[0];
    if (this.session === null || this.session.date !== date) {
      const open = date === undefined ? null : calendarDay(date).open_timestamp;
      const close = date === undefined ? null : calendarDay(date).close_timestamp;
      const optionsClose = date === undefined ? null : optionsRegularClose(date, 'index_or_etf');
      if (date === undefined || open === null || close === null || optionsClose === null) return;
      const anchor = this.options.anchor ?? close;
      this.session = { date, open, end: optionsClose + LATE_REPORTS_MS, anchor };
      this.at = Math.max(0, this.replayedAt(anchor, previous));
    }
    const to = this.replayedAt(this.session.anchor, now);
    if (to <= this.at) return;
    const from = this.at;
    this.at = to;
    const handled = this.emit({ ...this.session, speed: this.options.speed, from, to });
    if (handled) {
      this.inFlight = true;
      void handled.finally(() => {
        this.inFlight = false;
      });
    }
  }
}
