/**
 * Trading-session windows of one trading date for US stocks, listed options and CME equity-index
 * futures, as unix ms. The trading date comes from the NYSE calendar (calendar.ts); holidays and
 * other closed days have no sessions.
 *
 * Simplifications, all deliberate:
 * - The windows are the schedules in force today (Cboe GTH ending 09:25 ET since 2024, the Cboe
 *   Curb session since 2022-04-25, CME's single 17:00–18:00 ET daily halt). Older eras differ
 *   (Cboe GTH ran 03:00–09:15 ET from 2015 and 20:15–09:15 ET from late 2021; CME had an extra
 *   15:15–15:30 CT pause) and are not modelled for historical dates.
 * - Cboe publishes its own holiday schedule and runs GTH on some NYSE closures (e.g. 2025-01-09).
 *   Here a closed NYSE day yields no sessions, and the GTH window of a date starts on the
 *   preceding calendar evening.
 * - Futures follow CME's Globex calendar (futures/globex-calendar.ts): a trade date is an NYSE
 *   trading day; the abbreviated morning session of an NYSE holiday on which Globex trades belongs
 *   to the next trade date, so that date has two `globex` windows, the first with status
 *   early_close. A window's status is early_close when it ends before 17:00 ET.
 */

import { calendarDay } from './calendar.js';
import { globexTradeDate } from './futures/globex-calendar.js';
import { addDays, newYorkTimeToMs } from './new-york-time.js';

export type SessionAsset = 'stocks' | 'options' | 'futures';
export type SessionName = 'pre_market' | 'regular' | 'after_hours' | 'overnight' | 'curb' | 'globex';

export interface MarketSession {
  asset: SessionAsset;
  session: SessionName;
  start_time: number;
  end_time: number;
  /** The schedule of the trading date the session belongs to. */
  status: 'regular' | 'early_close';
  trading_date: string;
}

/** Where each window comes from, for the API documentation ("asset.session" → source). */
export const SESSION_SOURCES: Record<string, string> = {
  'stocks.pre_market': '04:00–09:30 ET: NYSE Arca Rule 7.34-E Early Trading Session and Nasdaq Rule 4701 pre-market hours.',
  'stocks.regular':
    '09:30–16:00 ET (13:00 on early-close days): NYSE Rule 7.2 core trading hours and NYSE holiday/early-closing announcements.',
  'stocks.after_hours':
    '16:00–20:00 ET: NYSE Arca Rule 7.34-E Late Trading Session / Nasdaq post-market; on early-close days 13:00–17:00 ET ("late trading sessions will close at 5:00 p.m.", NYSE early-closing announcements).',
  'options.overnight':
    'Cboe Global Trading Hours for SPX, XSP and VIX options, Cboe Rule 5.1(c): 20:15 ET the evening before to 09:25 ET (GTH end moved from 09:15 by SR-CBOE-2024-031); the session after a holiday starts 20:15 ET on the holiday (SR-CBOE-2021-068).',
  'options.regular':
    '09:30–16:15 ET, the longest product close: Cboe Rule 5.1(b) index options and the ETF options listed to 16:15 (e.g. SPY, QQQ, IWM); equity options stop at 16:00 (see optionsRegularClose). On early-close days 13:15 ET ("1:15 p.m. for eligible options", NYSE early-closing announcements).',
  'options.curb':
    '16:15–17:00 ET Cboe Curb session for SPX, XSP and VIX options (SR-CBOE-2021-071, live since 2022-04-25), trade date of the preceding RTH; not held on early-close days, when the related CME futures halt with RTH at 13:15 ET.',
  'futures.globex':
    "CME Globex equity-index futures (E-mini S&P 500, E-mini Nasdaq-100, E-mini Russell 2000 contract specifications): 18:00 ET the previous evening (Sunday for Monday) to 17:00 ET with the daily 17:00–18:00 ET halt; per CME Group holiday schedules, 13:15 ET (12:15 CT) close on NYSE early-close days, no trading on New Year's Day, Good Friday (except employment-report Good Fridays, to 09:15 ET) and Christmas, and on the other NYSE holidays a session to 13:00 ET (12:00 CT) that belongs to the next trade date.",
};

const ASSET_ORDER: readonly SessionAsset[] = ['stocks', 'options', 'futures'];

const MINUTE_MS = 60_000;
/** Broad-based index options and the 16:15 ETF classes trade 15 minutes past the equity close. */
const INDEX_OPTIONS_EXTRA_MS = 15 * MINUTE_MS;

const STOCKS_PRE_MARKET_START = '04:00';
const STOCKS_AFTER_HOURS_END = '20:00';
const STOCKS_AFTER_HOURS_END_EARLY_CLOSE = '17:00';
const GTH_START_PREVIOUS_EVENING = '20:15';
const GTH_END = '09:25';
const CURB_END = '17:00';

/** Open and close of a trading date, or null when the NYSE is closed that day. */
function sessionBounds(date: string): { open: number; close: number; earlyClose: boolean } | null {
  const day = calendarDay(date);
  if (day.open_timestamp === null || day.close_timestamp === null) return null;
  return { open: day.open_timestamp, close: day.close_timestamp, earlyClose: day.status === 'early_close' };
}

/**
 * The Cboe Global Trading Hours session that belongs to this trading date: 20:15 ET on the
 * calendar evening before (Sunday for Monday, the holiday itself after a holiday) to 09:25 ET on
 * the date. Null when the date is not a trading day.
 */
export function optionsOvernightWindow(tradingDate: string): { start_time: number; end_time: number } | null {
  if (!sessionBounds(tradingDate)) return null;
  return {
    start_time: newYorkTimeToMs(addDays(tradingDate, -1), GTH_START_PREVIOUS_EVENING),
    end_time: newYorkTimeToMs(tradingDate, GTH_END),
  };
}

/**
 * Regular-hours close of options on a trading date: equity options with the stock market (16:00
 * ET, 13:00 on early-close days), index and 16:15 ETF options 15 minutes later. Null when closed.
 */
export function optionsRegularClose(tradingDate: string, kind: 'equity' | 'index_or_etf'): number | null {
  if (kind !== 'equity' && kind !== 'index_or_etf') throw new RangeError(`unknown option kind: ${String(kind)}`);
  const bounds = sessionBounds(tradingDate);
  if (!bounds) return null;
  return kind === 'equity' ? bounds.close : bounds.close + INDEX_OPTIONS_EXTRA_MS;
}

/**
 * The sessions of one trading date for the requested assets, ordered by asset (stocks, options,
 * futures) then start time; [] on weekends, holidays and other closures.
 */
export function marketSessions(date: string, assets: readonly SessionAsset[] = ASSET_ORDER): MarketSession[] {
  for (const asset of assets) {
    if (!ASSET_ORDER.includes(asset)) throw new RangeError(`unknown session asset: ${String(asset)}`);
  }
  const bounds = sessionBounds(date);
  if (!bounds) return [];
  const status = bounds.earlyClose ? 'early_close' : 'regular';
  const sessions: MarketSession[] = [];
  const add = (asset: SessionAsset, session: SessionName, start_time: number, end_time: number): void => {
    sessions.push({ asset, session, start_time, end_time, status, trading_date: date });
  };
  const previousEvening = addDays(date, -1);

  for (const asset of ASSET_ORDER) {
    if (!assets.includes(asset)) continue;
    if (asset === 'stocks') {
      add('stocks', 'pre_market', newYorkTimeToMs(date, STOCKS_PRE_MARKET_START), bounds.open);
      add('stocks', 'regular', bounds.open, bounds.close);
      const afterHoursEnd = bounds.earlyClose ? STOCKS_AFTER_HOURS_END_EARLY_CLOSE : STOCKS_AFTER_HOURS_END;
      add('stocks', 'after_hours', bounds.close, newYorkTimeToMs(date, afterHoursEnd));
    } else if (asset === 'options') {
      const indexClose = bounds.close + INDEX_OPTIONS_EXTRA_MS;
      add('options', 'overnight', newYorkTimeToMs(previousEvening, GTH_START_PREVIOUS_EVENING), newYorkTimeToMs(date, GTH_END));
      add('options', 'regular', bounds.open, indexClose);
      if (!bounds.earlyClose) add('options', 'curb', indexClose, newYorkTimeToMs(date, CURB_END));
    } else {
      for (const window of globexTradeDate(date)?.windows ?? []) {
        sessions.push({
          asset: 'futures',
          session: 'globex',
          start_time: window.start_time,
          end_time: window.end_time,
          status: window.early ? 'early_close' : 'regular',
          trading_date: date,
        });
      }
    }
  }
  return sessions;
}
