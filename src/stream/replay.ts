/**
 * Replay: the last completed session's prints sent again into the streams from its open, as if
 * they arrived now, at `speed` times real time, each message marked replay (and with each step, the
 * premium drift of that session up to the replayed instant, hub.ts). It reads the store and
 * changes nothing in it. Always on with LIVE_MODE=replay; with LIVE_MODE=live only outside market
 * hours (while a regular session is open, the live market feeds the streams). At the end of the
 * session (the index options' close and an hour of late reports) it starts again from the open.
 */
import { calendarDay, completedSessions } from '../analytics/calendar.js';
import { newYorkDate } from '../analytics/new-york-time.js';
import { optionsRegularClose } from '../analytics/sessions.js';
import type { PrintsEvent } from './hub.js';

export interface ReplayOptions {
  /** Replayed milliseconds per real millisecond (1: real time). */
  speed: number;
  /** 'always' (LIVE_MODE=replay) or 'outside_hours' (LIVE_MODE=live). */
  when: 'always' | 'outside_hours';
  /** Real milliseconds between two steps. */
  stepMs?: number;
}

const LATE_REPORTS_MS = 60 * 60_000;
const DEFAULT_STEP_MS = 250;

/** Whether a regular session is open at `now`. */
export function inMarketHours(now: number): boolean {
  const day = calendarDay(newYorkDate(now));
  return day.open_timestamp !== null && day.close_timestamp !== null && now >= day.open_timestamp && now < day.close_timestamp;
}

export class Replay {
  private timer: NodeJS.Timeout | null = null;
  private session: { date: string; open: number; end: number } | null = null;
  /** The replayed instant reached: prints before it have been sent. */
  private at = 0;
  active = false;

  constructor(
    private readonly options: ReplayOptions,
    private readonly clock: () => number,
    private readonly emit: (event: PrintsEvent) => void,
  ) {}

  start(): void {
    const stepMs = this.options.stepMs ?? DEFAULT_STEP_MS;
    this.timer = setInterval(() => this.step(stepMs), stepMs);
    this.timer.unref();
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    this.active = false;
  }

  private step(stepMs: number): void {
    const now = this.clock();
    if (this.options.when === 'outside_hours' && inMarketHours(now)) {
      this.active = false;
      this.session = null;
      return;
    }
    this.active = true;
    if (this.session === null || this.at >= this.session.end) {
      const date = completedSessions(now, 1)[0];
      const open = date === undefined ? null : calendarDay(date).open_timestamp;
      const close = date === undefined ? null : optionsRegularClose(date, 'index_or_etf');
      if (date === undefined || open === null || close === null) return;
      this.session = { date, open, end: close + LATE_REPORTS_MS };
      this.at = open;
    }
    const from = this.at;
    const to = Math.min(this.session.end, from + Math.max(1, Math.round(stepMs * this.options.speed)));
    this.at = to;
    this.emit({ tradingDate: this.session.date, selection: { kind: 'window', from, to }, replay: true, at: to, id: null });
  }
}
