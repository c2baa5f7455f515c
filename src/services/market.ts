/** The equity market calendar, the session windows of a trading date, and the roots with an overnight session. */
import { calendarDay, nextTradingDay } from '../analytics/calendar.js';
import { newYorkDate } from '../analytics/new-york-time.js';
import { OPTION_ROOTS } from '../analytics/roots.js';
import { marketSessions, optionsRegularClose } from '../analytics/sessions.js';
import type { QueryOf, Result, ServiceContext } from './types.js';

export async function getMarketCalendarDay(
  { now }: ServiceContext,
  query: QueryOf<'getMarketCalendarDay'>,
): Promise<Result<'getMarketCalendarDay'>> {
  const date = query.date ?? newYorkDate(now);
  const day = calendarDay(date);
  return {
    data: {
      date: day.date,
      status: day.status,
      open_timestamp: day.open_timestamp,
      close_timestamp: day.close_timestamp,
      options_close_timestamp: optionsRegularClose(date, 'index_or_etf'),
      reason: day.reason,
    },
    source: 'derived',
  };
}

export async function listMarketSessions(
  { now }: ServiceContext,
  query: QueryOf<'listMarketSessions'>,
): Promise<Result<'listMarketSessions'>> {
  const date = query.date ?? newYorkDate(now);
  return { data: marketSessions(date, query.asset ? [query.asset] : undefined), source: 'derived' };
}

export async function listOptionOvernightSessions(
  { now }: ServiceContext,
  query: QueryOf<'listOptionOvernightSessions'>,
): Promise<Result<'listOptionOvernightSessions'>> {
  const today = newYorkDate(now);
  const date = query.date ?? (calendarDay(today).status === 'closed' ? nextTradingDay(today) : today);
  const sessions = marketSessions(date, ['options']);
  return {
    data: OPTION_ROOTS.filter((r) => r.overnight).map((r) => ({
      root: r.root,
      family: r.family,
      underlying_symbol: r.underlying,
      trading_date: date,
      sessions: sessions.filter((s) => r.curb || s.session !== 'curb'),
    })),
    source: 'derived',
  };
}
