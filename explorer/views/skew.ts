/**
 * Skew: GET /v1/options/volatility/skew, one smile per expiration: the fitted smile's volatility
 * by strike (line) over the out-of-the-money mid volatilities it was fitted to (dots), the price
 * marked; the expirations' at-the-money, risk-reversal and butterfly figures and fit in a table.
 */
import type { GetVolatilitySkewResponse } from '../../generated/client/types.gen';
import { getJson, urlOf } from '../api';
import { chart, COLORS, uPlot } from '../chart';
import { el, facts, table, td } from '../dom';
import { dateTimeOf, num, strike, vol } from '../format';
import { queryOf, type View } from '../view';

type Skew = GetVolatilitySkewResponse['data'];
type Expiration = Skew['expirations'][number];

const PALETTE = ['#4aa3ff', '#f2b134', '#2fbf71', '#ef5350', '#b58cff', '#4dd0e1', '#ff8a65', '#c5e1a5'];

function fitText(e: Expiration): string {
  if (e.fit === null) return 'no smile';
  const fit = e.fit;
  return `${fit.method}${fit.fallback_reason ? ` (${fit.fallback_reason.replaceAll('_', ' ')})` : ''} · ${fit.quotes_used} quotes · rmse ${num(fit.rmse_vol_points)} vol pts`;
}

function figures(expirations: readonly Expiration[]): HTMLTableElement {
  return table(
    ['', 'Expiry', 'Root', 'DTE', 'Forward', 'ATM', 'RR 25Δ', 'BF 25Δ', 'RR 10Δ', 'BF 10Δ', 'Norm. skew', 'Slope', 'Smile'],
    expirations.map((e, i) => {
      const swatch = el('span', { class: 'swatch' });
      swatch.style.background = PALETTE[i % PALETTE.length]!;
      return {
        attrs: { 'data-expiry': e.date_of_expiry },
        cells: [
          el('td', {}, swatch),
          td(e.date_of_expiry),
          td(e.root),
          td(String(e.days_to_expiry), 'num'),
          td(num(e.forward), 'num'),
          td(vol(e.atm_implied_volatility, 2), 'num'),
          td(vol(e.risk_reversal_25d, 2), 'num'),
          td(vol(e.butterfly_25d, 2), 'num'),
          td(vol(e.risk_reversal_10d, 2), 'num'),
          td(vol(e.butterfly_10d, 2), 'num'),
          td(num(e.normalized_skew), 'num'),
          td(num(e.slope), 'num'),
          td(fitText(e), 'muted'),
        ],
      };
    }),
  );
}

export const skew: View = {
  id: 'skew',
  async load(context) {
    const url = urlOf('/v1/options/volatility/skew', queryOf(context));
    const body = await getJson<GetVolatilitySkewResponse>(url);
    return (out) => {
      const s = body.data;
      const v = s.valuation;
      out.append(
        facts([
          ['Chain', `${s.roots.join(', ')} · ${s.session} ${s.trading_date}`],
          ['Valued at', dateTimeOf(v.timestamp)],
          ['Underlying', `${num(v.underlying_price)}${v.underlying_stale ? ' (stale: bar over 15 min old)' : ''}`],
          ['Rate', v.risk_free_rate === null ? '–' : `${(v.risk_free_rate * 100).toFixed(2)}%`],
        ]),
        figures(s.expirations),
      );
      const withSmile = s.expirations.filter((e) => e.points.length > 0);
      if (withSmile.length === 0) {
        out.append(el('p', { class: 'empty' }, 'No expiration has a quoted strike.'));
        return { requests: [url], expirations: [] };
      }
      const tables = withSmile.map((e): uPlot.AlignedData => [
        e.points.map((p) => p.strike),
        e.points.map((p) => p.smile_implied_volatility),
        e.points.map((p) => p.otm_implied_volatility),
      ]);
      const data = uPlot.join(tables);
      const pct = (_u: unknown, value: number | null): string => vol(value, 2);
      const series: uPlot.Series[] = withSmile.flatMap((e) => {
        const color = PALETTE[s.expirations.indexOf(e) % PALETTE.length]!;
        return [
          { label: `${e.date_of_expiry} smile`, stroke: color, width: 2, spanGaps: true, value: pct, points: { show: false } },
          {
            label: `${e.date_of_expiry} quotes`,
            stroke: color,
            fill: color,
            paths: () => null,
            points: { show: true, size: 4, fill: color },
            value: pct,
          },
        ];
      });
      const box = el('div', { class: 'chart' });
      out.append(box);
      const u = chart(box, {
        title: `${s.underlying_symbol} implied volatility by strike (lines: fitted smile; dots: out-of-the-money mids)`,
        time: false,
        xLabel: 'Strike',
        yLabel: 'Implied volatility',
        yFormat: (value) => vol(value),
        data,
        series,
        markers:
          v.underlying_price === null
            ? []
            : [{ value: v.underlying_price, label: `price ${strike(v.underlying_price)}`, color: COLORS.net }],
        height: 420,
      });
      const xs = Array.from(u.data[0]);
      const drawnExpirations = withSmile.map((e, i) => {
        const smile = u.data[1 + 2 * i]!;
        const pairs = xs.flatMap((x, j) => (smile[j] === null || smile[j] === undefined ? [] : [[x, smile[j]] as const]));
        return { date_of_expiry: e.date_of_expiry, strikes: pairs.map((p) => p[0]), smile: pairs.map((p) => p[1]) };
      });
      return { requests: [url], underlying_price: v.underlying_price, expirations: drawnExpirations };
    };
  },
};
