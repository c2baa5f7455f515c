/** The equity market calendar and the session windows of a trading date. */
import { calendarDay } from '../analytics/calendar.js';
import { newYorkDate } from '../analytics/new-york-time.js';
import { marketSessions, optionsRegularClose } from '../analytics/sessions.js';
import type { Handler } from './types.js';

export const getMarketCalendarDay: Handler<'getMarketCalendarDay'> = async ({ query, now }) => {
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
};

export const listMarketSessions: Handler<'listMarketSessions'> = async ({ query, now }) => {
  const date = query.date ?? newYorkDate(now);
  return { data: marketSessions(date, query.asset ? [query.asset] : undefined), source: 'derived' };
};
