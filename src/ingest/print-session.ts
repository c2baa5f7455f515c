/**
 * The trading date and session of an option print (or quote) from its time and root, by the
 * exchange calendar (calendar.ts, sessions.ts):
 * - rth: from the 09:30 ET open to the options regular close inclusive (16:15 ET for index and ETF
 *   roots, 16:00 ET for equity roots; 15 minutes after an early close);
 * - curb: roots with a Cboe Curb session, after the regular close until 17:00 ET (none on
 *   early-close days);
 * - gth: roots with Cboe Global Trading Hours, inside the overnight window of a trading date
 *   (20:15 ET the evening before to 09:25 ET); the print belongs to that NEXT trading date;
 * - other: anything else (pre-open, after-hours reports), on the New York date when it trades,
 *   else on the previous trading date (a late report over a weekend belongs to the last session).
 * Results are memoised per New York date, so the per-print cost is a few comparisons.
 */
import { calendarDay, isTradingDay, nextTradingDay, previousTradingDay } from '../analytics/calendar.js';
import { newYorkDate, newYorkTimeToMs } from '../analytics/new-york-time.js';
import type { PrintSession } from '../analytics/classification.js';
import type { OptionRoot } from '../analytics/roots.js';
import { optionsOvernightWindow, optionsRegularClose } from '../analytics/sessions.js';

export interface PrintPlace {
  tradingDate: string;
  session: PrintSession;
}

interface DayBounds {
  trading: boolean;
  open: number;
  equityClose: number;
  indexClose: number;
  /** 17:00 ET, or -Infinity on early-close days (no curb). */
  curbEnd: number;
  /** Overnight window belonging to this date (when trading). */
  gthStart: number;
  gthEnd: number;
  /** The next trading date and its overnight window start and end. */
  next: string;
  nextGthStart: number;
  nextGthEnd: number;
  /** Where an 'other' print of this New York date belongs. */
  otherDate: string;
}

export type SessionRoot = Pick<OptionRoot, 'kind' | 'overnight' | 'curb'>;

export class PrintSessionResolver {
  private readonly dateByHour = new Map<number, string>();
  private readonly bounds = new Map<string, DayBounds>();
  private readonly cashClose = new Map<string, number>();

  /** The New York calendar date of an instant (offsets change only on whole UTC hours). */
  newYorkDate(ts: number): string {
    const hour = Math.floor(ts / 3_600_000);
    let date = this.dateByHour.get(hour);
    if (date === undefined) {
      date = newYorkDate(ts);
      this.dateByHour.set(hour, date);
    }
    return date;
  }

  private boundsOf(date: string): DayBounds {
    let b = this.bounds.get(date);
    if (b !== undefined) return b;
    const trading = isTradingDay(date);
    const next = nextTradingDay(date);
    const nextWindow = optionsOvernightWindow(next);
    const day = calendarDay(date);
    if (trading) {
      const window = optionsOvernightWindow(date);
      b = {
        trading,
        open: day.open_timestamp ?? 0,
        equityClose: optionsRegularClose(date, 'equity') ?? 0,
        indexClose: optionsRegularClose(date, 'index_or_etf') ?? 0,
        curbEnd: day.status === 'early_close' ? -Infinity : newYorkTimeToMs(date, '17:00'),
        gthStart: window?.start_time ?? 0,
        gthEnd: window?.end_time ?? 0,
        next,
        nextGthStart: nextWindow?.start_time ?? 0,
        nextGthEnd: nextWindow?.end_time ?? 0,
        otherDate: date,
      };
    } else {
      b = {
        trading,
        open: Infinity,
        equityClose: -Infinity,
        indexClose: -Infinity,
        curbEnd: -Infinity,
        gthStart: Infinity,
        gthEnd: -Infinity,
        next,
        nextGthStart: nextWindow?.start_time ?? 0,
        nextGthEnd: nextWindow?.end_time ?? 0,
        otherDate: previousTradingDay(date),
      };
    }
    this.bounds.set(date, b);
    return b;
  }

  /** Trading date and session of a print of `root` at `ts`. Throws CalendarRangeError outside the calendar. */
  place(ts: number, root: SessionRoot): PrintPlace {
    const date = this.newYorkDate(ts);
    const b = this.boundsOf(date);
    if (b.trading) {
      const close = root.kind === 'equity' ? b.equityClose : b.indexClose;
      if (ts >= b.open && ts <= close) return { tradingDate: date, session: 'rth' };
      if (root.curb && ts > close && ts < b.curbEnd) return { tradingDate: date, session: 'curb' };
      if (root.overnight && ts >= b.gthStart && ts < b.gthEnd) return { tradingDate: date, session: 'gth' };
    }
    if (root.overnight && ts >= b.nextGthStart && ts < b.nextGthEnd) return { tradingDate: b.next, session: 'gth' };
    return { tradingDate: b.otherDate, session: 'other' };
  }

  /** 16:00 ET (13:00 on early-close days) of a trading date: the cash close. */
  cashCloseMs(tradingDate: string): number {
    let close = this.cashClose.get(tradingDate);
    if (close === undefined) {
      close = calendarDay(tradingDate).close_timestamp ?? newYorkTimeToMs(tradingDate, '16:00');
      this.cashClose.set(tradingDate, close);
    }
    return close;
  }
}
