/**
 * Levels: GET /v1/options/levels for the key levels, and the exposure by strike they come from,
 * which that route does not list: the heat map route on the same selectors (its cells summed by
 * strike are the levels' exposure by strike, as the contract states), once for the call leg and
 * once for the put leg, over as many expirations as it shows (64). The profile draws call and put
 * bars and their net with the price, the gamma flip and the walls marked.
 */
import type { GetExposureHeatmapResponse, GetExposureLevelsResponse } from '../../generated/client/types.gen';
import { getJson, urlOf } from '../api';
import { bars, chart, COLORS, type Marker } from '../chart';
import { el, facts } from '../dom';
import { compact, dateTimeOf, num, strike, vol } from '../format';
import { queryOf, type View } from '../view';

type Levels = GetExposureLevelsResponse['data'];
type Heatmap = GetExposureHeatmapResponse['data'];

/** Axis shorthand of the unit; the full `unit_label` the API gives is printed above the chart. */
const UNIT_SHORT: Record<Levels['unit'], string> = { per_percent: 'per 1% move', per_dollar: 'per $1 move', raw: 'raw' };

/** Cells summed by strike, ascending. */
function byStrike(heatmap: Heatmap): Map<number, number> {
  const sums = new Map<number, number>();
  for (const c of heatmap.cells) sums.set(c.strike, (sums.get(c.strike) ?? 0) + c.value);
  return sums;
}

function markersOf(l: Levels): Marker[] {
  const m: Marker[] = [];
  if (l.underlying_price !== null) m.push({ value: l.underlying_price, label: `price ${strike(l.underlying_price)}`, color: COLORS.net });
  if (l.levels.gamma_flip !== null)
    m.push({
      value: l.levels.gamma_flip,
      label: `gamma flip ${strike(Number(l.levels.gamma_flip.toFixed(2)))}`,
      color: COLORS.amber,
      dash: [6, 4],
    });
  if (l.levels.call_wall !== null)
    m.push({ value: l.levels.call_wall, label: `call wall ${strike(l.levels.call_wall)}`, color: COLORS.call, dash: [2, 3] });
  if (l.levels.put_wall !== null)
    m.push({ value: l.levels.put_wall, label: `put wall ${strike(l.levels.put_wall)}`, color: COLORS.put, dash: [2, 3] });
  return m;
}

function levelFacts(l: Levels): HTMLElement {
  const lv = l.levels;
  const em = lv.expected_move;
  return facts([
    [
      'Regime',
      `${lv.regime.label}${lv.regime.ratio === null ? '' : ` (net/abs ${num(lv.regime.ratio)})`} · price ${lv.regime.underlying_vs_gamma_flip} flip`,
    ],
    [
      'Gamma flip',
      lv.gamma_flip === null
        ? lv.gamma_flip_far_from_underlying
          ? 'none within ±20%'
          : '–'
        : `${num(lv.gamma_flip)} (excl. 0DTE ${num(lv.gamma_flip_excluding_0dte)})`,
    ],
    // call_wall/put_wall: the largest call (put) exposure at any strike; *_above/*_below: the largest
    // positive (most negative) net exposure on that side of the price (the contract's definitions).
    ['Call wall', `${strike(lv.call_wall)} · largest net at or above the price: ${strike(lv.call_wall_above)}`],
    ['Put wall', `${strike(lv.put_wall)} · most negative net at or below the price: ${strike(lv.put_wall_below)}`],
    ['Peak net', lv.peak_net_exposure === null ? '–' : `${compact(lv.peak_net_exposure.value)} at ${strike(lv.peak_net_exposure.strike)}`],
    ['Max pain', lv.max_pain === null ? '–' : `${strike(lv.max_pain.strike)} (${lv.max_pain.date_of_expiry})`],
    [
      'Expected move',
      em === null
        ? '–'
        : `±${num(em.expected_move)} by ${em.date_of_expiry} (IV ${vol(em.implied_volatility)}; 1σ ${em.one_sigma_band.map((b) => num(b)).join('–')})`,
    ],
    ['Gamma tilt', num(lv.gamma_tilt)],
  ]);
}

export const levels: View = {
  id: 'levels',
  async load(context) {
    const levelsUrl = urlOf('/v1/options/levels', queryOf(context, { skip: ['strikes_around'] }));
    const heatQuery = (leg: 'call' | 'put'): string => {
      const q = queryOf(context, { skip: ['greek'] });
      q.set('metric', new FormData(context.form).get('greek') as string);
      q.set('leg', leg);
      q.set('max_expirations', '64');
      return urlOf('/v1/options/exposure/heatmap', q);
    };
    const callUrl = heatQuery('call');
    const putUrl = heatQuery('put');
    const [l, calls, puts] = await Promise.all([
      getJson<GetExposureLevelsResponse>(levelsUrl),
      getJson<GetExposureHeatmapResponse>(callUrl),
      getJson<GetExposureHeatmapResponse>(putUrl),
    ]);
    return (out) => {
      const d = l.data;
      const window = calls.data.expiration_window;
      out.append(
        el(
          'p',
          { class: 'model' },
          `Model estimate, not observed positions: ${d.positioning_model}, ${d.perspective} view. ${d.greek} exposure in ${d.unit_label}.`,
        ),
        facts([
          ['Underlying', `${d.underlying_symbol} ${num(d.underlying_price)} (${d.roots.join(', ')})`],
          ['Valued at', dateTimeOf(d.valuation.timestamp)],
          ['Open interest of', d.valuation.open_interest_date ?? '–'],
        ]),
        levelFacts(d),
      );
      const callSums = byStrike(calls.data);
      const putSums = byStrike(puts.data);
      const strikes = [...new Set([...callSums.keys(), ...putSums.keys()])].sort((a, b) => a - b);
      out.append(
        el(
          'p',
          { class: 'note' },
          `Profile: ${strikes.length} strikes (${calls.data.strike_range.lowest_strike ?? '–'} to ${calls.data.strike_range.highest_strike ?? '–'}), ` +
            `summed over ${window.count} of ${window.total_expirations} expirations` +
            (window.count < window.total_expirations
              ? ' (the heat map shows at most 64: the profile leaves the rest out; the levels above count them all).'
              : '.'),
        ),
      );
      if (strikes.length === 0) {
        out.append(el('p', { class: 'empty' }, 'No strike in the window.'));
        return { requests: [levelsUrl, callUrl, putUrl], strikes: [] };
      }
      const call = strikes.map((k) => callSums.get(k) ?? 0);
      const put = strikes.map((k) => putSums.get(k) ?? 0);
      const box = el('div', { class: 'chart' });
      out.append(box);
      const fmt = (_u: unknown, v: number | null): string => compact(v);
      const markers = markersOf(d);
      const u = chart(box, {
        title: `${d.underlying_symbol} ${d.greek} exposure by strike: calls, puts and net (${d.positioning_model}, ${d.perspective})`,
        time: false,
        xLabel: 'Strike',
        yLabel: `${d.greek} (${UNIT_SHORT[d.unit]})`,
        yFormat: (v) => compact(v),
        zero: true,
        data: [strikes, call, put, strikes.map((_, i) => call[i]! + put[i]!)],
        series: [
          { label: 'Calls', stroke: COLORS.call, fill: 'rgba(47,191,113,0.55)', paths: bars(-1, 0.8), points: { show: false }, value: fmt },
          { label: 'Puts', stroke: COLORS.put, fill: 'rgba(239,83,80,0.55)', paths: bars(1, 0.8), points: { show: false }, value: fmt },
          { label: 'Net', stroke: COLORS.net, width: 1.5, points: { show: false }, value: fmt },
        ],
        markers,
        xInclude: markers.map((m) => m.value),
        height: 420,
      });
      const [x, c, p, net] = u.data;
      return {
        requests: [levelsUrl, callUrl, putUrl],
        strikes: x,
        call: c,
        put: p,
        net,
        markers: Object.fromEntries(markers.map((m) => [m.label.replace(/ [\d.,]+$/, ''), m.value])),
        positioning_model: d.positioning_model,
        unit_label: d.unit_label,
      };
    };
  },
};
