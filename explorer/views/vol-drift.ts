/**
 * Volatility drift: GET /v1/options/volatility/drift, at-the-money implied volatility of one
 * expiration through the session (calendar and trading clocks), the 30-day constant maturity and
 * adjusted realized volatility.
 */
import type { GetVolatilityDriftResponse } from '../../generated/client/types.gen';
import { getJson, urlOf } from '../api';
import { chart, COLORS } from '../chart';
import { el, facts } from '../dom';
import { num, timeOf, vol } from '../format';
import { latest, queryOf, type View } from '../view';

export const volDrift: View = {
  id: 'vol-drift',
  async load(context) {
    const url = urlOf('/v1/options/volatility/drift', queryOf(context));
    const body = await getJson<GetVolatilityDriftResponse>(url);
    return (out) => {
      const d = body.data;
      const basis = d.realized_volatility_basis;
      const at = (field: 'implied_volatility' | 'implied_volatility_30d' | 'adjusted_realized_volatility'): string => {
        const last = latest(d.points, field);
        return last === null ? '–' : `${vol(last.value)} at ${timeOf(last.timestamp)}`;
      };
      out.append(
        facts([
          ['Expiration', d.date_of_expiry],
          ['Session', `${d.session} ${d.trading_date}`],
          ['ATM vol', at('implied_volatility')],
          ['30-day', at('implied_volatility_30d')],
          ['Realized (adj.)', at('adjusted_realized_volatility')],
          [
            'Regular-session share',
            basis.regular_session_share === null
              ? '–'
              : `${num(basis.regular_session_share)}${basis.default_used ? ' (default: under 10 days of history)' : ` (${basis.days} days)`}`,
          ],
        ]),
      );
      if (d.points.length === 0) {
        out.append(el('p', { class: 'empty' }, 'No bucket with a value.'));
        return { requests: [url], series: {} };
      }
      const box = el('div', { class: 'chart' });
      out.append(box);
      const pct = (_u: unknown, v: number | null): string => vol(v, 2);
      const u = chart(box, {
        title: `${d.underlying_symbol} ${d.date_of_expiry} at-the-money volatility`,
        time: true,
        yLabel: 'Volatility',
        yFormat: (v) => vol(v),
        data: [
          d.points.map((p) => p.timestamp),
          d.points.map((p) => p.implied_volatility),
          d.points.map((p) => p.implied_volatility_trading_clock),
          d.points.map((p) => p.implied_volatility_30d),
          d.points.map((p) => p.adjusted_realized_volatility),
        ],
        series: [
          { label: 'ATM (calendar clock)', stroke: COLORS.accent, width: 2, value: pct },
          { label: 'ATM (trading clock)', stroke: COLORS.violet, width: 1.5, value: pct },
          { label: '30-day', stroke: COLORS.amber, width: 2, value: pct },
          { label: 'Realized (adjusted)', stroke: COLORS.call, width: 1.5, dash: [5, 4], value: pct },
        ],
      });
      const [timestamp, atm, tradingClock, thirty, realized] = u.data;
      return {
        requests: [url],
        series: {
          timestamp,
          implied_volatility: atm,
          implied_volatility_trading_clock: tradingClock,
          implied_volatility_30d: thirty,
          adjusted_realized_volatility: realized,
        },
      };
    };
  },
};
