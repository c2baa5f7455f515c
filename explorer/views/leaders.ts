/**
 * Flow leaders: GET /v1/options/flow/leaders, underlyings (root grain) or contracts ranked by the
 * chosen key. Root rows show the bullish and bearish split of their premium as a bar.
 */
import type { ListFlowLeadersResponse } from '../../generated/client/types.gen';
import { getJson, urlOf } from '../api';
import { el, table, td } from '../dom';
import { compact, num, percent, strike, usd, vol } from '../format';
import { queryOf, type View } from '../view';

type Row = ListFlowLeadersResponse['data'][number];
type RootRow = Extract<Row, { premium_share: number }>;
type ContractRow = Exclude<Row, RootRow>;

const isRoot = (r: Row): r is RootRow => 'premium_share' in r;

/** The premium split: bullish (green), neutral, bearish (red), widths in proportion. */
function splitBar(r: RootRow): HTMLTableCellElement {
  const total = r.bullish_premium + r.neutral_premium + r.bearish_premium;
  const part = (value: number, className: string): HTMLElement => {
    const span = el('span', { class: className, title: usd(value) });
    span.style.width = `${total > 0 ? (100 * value) / total : 0}%`;
    return span;
  };
  return el(
    'td',
    { class: 'split' },
    el('div', { class: 'bar' }, part(r.bullish_premium, 'up'), part(r.neutral_premium, 'neutral'), part(r.bearish_premium, 'down')),
  );
}

function rootTable(rows: RootRow[]): HTMLTableElement {
  return table(
    ['#', 'Underlying', 'Premium', 'Bullish', 'Bearish', 'Net', 'Bull / bear', 'Bear:bull', 'Calls', 'Puts', 'Prints', 'Premium share'],
    rows.map((r, i) => ({
      attrs: { 'data-symbol': r.underlying_symbol },
      cells: [
        td(String(i + 1), 'muted'),
        td(r.underlying_symbol, 'sym'),
        td(usd(r.premium), 'num'),
        td(usd(r.bullish_premium), 'num up'),
        td(usd(r.bearish_premium), 'num down'),
        td(usd(r.bullish_premium - r.bearish_premium), `num ${r.bullish_premium >= r.bearish_premium ? 'up' : 'down'}`),
        splitBar(r),
        td(num(r.bearish_to_bullish_ratio), 'num'),
        td(compact(r.call_volume), 'num'),
        td(compact(r.put_volume), 'num'),
        td(compact(r.trades), 'num'),
        td(`${(r.premium_share * 100).toFixed(1)}%`, 'num'),
      ],
    })),
  );
}

function contractTable(rows: ContractRow[]): HTMLTableElement {
  return table(
    ['#', 'Root', 'Expiry', 'Strike', 'C/P', 'Last', 'Prev close', 'Change', 'Volume', 'OI', 'Premium', 'IV'],
    rows.map((r, i) => ({
      attrs: { 'data-symbol': r.underlying_symbol },
      cells: [
        td(String(i + 1), 'muted'),
        td(r.underlying_symbol, 'sym'),
        td(r.date_of_expiry),
        td(strike(r.strike), 'num'),
        td(r.contract_type === 'call' ? 'C' : 'P', r.contract_type === 'call' ? 'up' : 'down'),
        td(num(r.last_price), 'num'),
        td(num(r.previous_close), 'num'),
        td(percent(r.change_percent), `num ${(r.change_percent ?? 0) >= 0 ? 'up' : 'down'}`),
        td(compact(r.volume), 'num'),
        td(r.open_interest === null ? '–' : compact(r.open_interest), 'num'),
        td(usd(r.premium), 'num'),
        td(vol(r.implied_volatility), 'num'),
      ],
    })),
  );
}

export const leaders: View = {
  id: 'leaders',
  async load(context) {
    const grain = new FormData(context.form).get('grain');
    // Root grain ranks the whole market; contract grain is narrowed to the underlying.
    const url = urlOf('/v1/options/flow/leaders', queryOf(context, { underlying: grain === 'contract' ? 'underlying_symbols' : false }));
    const body = await getJson<ListFlowLeadersResponse>(url);
    return (out) => {
      const rows = body.data;
      const roots = rows.filter(isRoot);
      const contracts = rows.filter((r): r is ContractRow => !isRoot(r));
      out.append(
        el(
          'p',
          { class: 'note' },
          `${rows.length} ${roots.length > 0 ? 'underlyings' : 'contracts'} ranked${context.date ? ` on ${context.date}` : ''}. Premium in USD; bullish and bearish as the prints were classified.`,
        ),
        rows.length === 0 ? el('p', { class: 'empty' }, 'No row.') : roots.length > 0 ? rootTable(roots) : contractTable(contracts),
      );
      return { requests: [url], symbols: rows.map((r) => r.underlying_symbol), premiums: rows.map((r) => r.premium) };
    };
  },
};
