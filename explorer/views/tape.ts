/** The tape: GET /v1/options/trades, newest first, a page at a time (the cursor for more). */
import type { ListOptionTradesResponse } from '../../generated/client/types.gen';
import { getJson, urlOf } from '../api';
import { el, table, td } from '../dom';
import { compact, num, strike, timeOf, usd, vol } from '../format';
import { queryOf, recordDrawn, type View } from '../view';

type Page = ListOptionTradesResponse;
type Print = Page['data'][number];

const SIDE_CLASS: Record<Print['side'], string> = {
  above_ask: 'up strong',
  at_ask: 'up',
  near_ask: 'up',
  mid: '',
  near_bid: 'down',
  at_bid: 'down',
  below_bid: 'down strong',
  unknown: 'muted',
};

function row(p: Print): { cells: HTMLTableCellElement[]; attrs: Record<string, string> } {
  const tags = [
    p.trade_type !== 'single' ? p.trade_type : '',
    p.is_block ? 'block' : '',
    p.is_golden ? 'golden' : '',
    p.is_unusual ? 'unusual' : '',
  ]
    .filter(Boolean)
    .join(' ');
  return {
    attrs: { 'data-id': p.id, class: p.sentiment },
    cells: [
      td(timeOf(p.timestamp), 'num'),
      td(p.underlying_symbol),
      td(p.date_of_expiry),
      td(strike(p.strike), 'num'),
      td(p.contract_type === 'call' ? 'C' : 'P', p.contract_type === 'call' ? 'up' : 'down'),
      td(p.side.replace('_', ' '), SIDE_CLASS[p.side]),
      td(String(p.size), 'num'),
      td(num(p.price), 'num'),
      td(usd(p.premium), 'num'),
      td(`${num(p.bid)} × ${num(p.ask)}`, 'num muted'),
      td(vol(p.implied_volatility), 'num'),
      td(p.delta === null ? '–' : p.delta.toFixed(2), 'num'),
      td(p.open_interest === null ? '–' : compact(p.open_interest), 'num'),
      td(p.sentiment, p.sentiment === 'bullish' ? 'up' : p.sentiment === 'bearish' ? 'down' : 'muted'),
      td(tags, 'tags'),
      td(p.exchange, 'muted'),
    ],
  };
}

const HEADERS = [
  'Time',
  'Root',
  'Expiry',
  'Strike',
  'C/P',
  'Side',
  'Size',
  'Price',
  'Premium',
  'Bid × Ask',
  'IV',
  'Δ',
  'OI',
  'Sentiment',
  'Type',
  'Exch',
];

export const tape: View = {
  id: 'tape',
  async load(context) {
    const url = urlOf('/v1/options/trades', queryOf(context));
    const page = await getJson<Page>(url);
    return (out) => {
      const prints = [...page.data];
      const pages = [url];
      const body = table(HEADERS, prints.map(row), 'grid tape');
      const status = el('p', { class: 'note' });
      const more = el('button', { type: 'button', class: 'more' }, 'Load more');
      let cursor = page.pagination.next_cursor_id;
      let coverage = page.meta.coverage;
      const update = (): void => {
        const total = prints.reduce((s, p) => s + p.premium, 0);
        status.textContent =
          `${prints.length} prints · ${usd(total)} premium · ` +
          (cursor ? 'more follow' : 'end of the session’s prints for these filters') +
          (coverage.scan_complete === false
            ? ' · the last page’s scan budget ran out before it filled (not every print was examined yet: load more)'
            : '');
        more.hidden = cursor === null;
      };
      more.addEventListener('click', () => {
        if (cursor === null) return;
        const next = new URLSearchParams(new URL(url, location.href).search);
        next.set('cursor_id', cursor);
        more.disabled = true;
        const nextUrl = urlOf('/v1/options/trades', next);
        getJson<Page>(nextUrl)
          .then((nextPage) => {
            prints.push(...nextPage.data);
            pages.push(nextUrl);
            body.tBodies[0]!.append(
              ...nextPage.data.map((p) => {
                const r = row(p);
                return el('tr', r.attrs, ...r.cells);
              }),
            );
            cursor = nextPage.pagination.next_cursor_id;
            coverage = nextPage.meta.coverage;
            update();
            recordDrawn('tape', drawn());
          })
          .catch((error: unknown) => {
            status.textContent = `Loading more failed: ${error instanceof Error ? error.message : String(error)}`;
          })
          .finally(() => (more.disabled = false));
      });
      const drawn = () => ({ requests: [...pages], ids: prints.map((p) => p.id), premiums: prints.map((p) => p.premium) });
      update();
      out.append(status, prints.length === 0 ? el('p', { class: 'empty' }, 'No print matches these filters.') : body, more);
      return drawn();
    };
  },
};
