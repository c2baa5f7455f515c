/** Options family routes served so far: the roots that have an overnight session. */
import { calendarDay, nextTradingDay } from '../analytics/calendar.js';
import { newYorkDate } from '../analytics/new-york-time.js';
import { OPTION_ROOTS } from '../analytics/roots.js';
import { marketSessions } from '../analytics/sessions.js';
import type { Handler } from './types.js';

export const listOptionOvernightSessions: Handler<'listOptionOvernightSessions'> = async ({ query, now }) => {
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
};
