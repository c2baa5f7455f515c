/**
 * The canonical futures layouts (issue 38 §1), read as the option layouts are (layouts.ts: CSV with
 * a header row or NDJSON, gzip accepted, columns in any order, extra columns ignored, an empty
 * field a missing value). Vendor adapters (futures-vendors.ts: Databento GLBX.MDP3, Massive futures
 * minute aggregates) map their records onto these.
 *
 * Conventions: a contract is named by its exchange symbol (`ESZ6`: root, month code, last digit or
 * two of the year); timestamps are Unix epoch milliseconds (ISO-8601 accepted; a vendor's
 * nanoseconds are truncated to the millisecond, and the order within a millisecond is the feed's
 * sequence); prices are in the contract's quoted unit (index points for ES, NQ, RTY). A trade date is
 * the CME trade date the record belongs to: the Globex day that begins at 18:00 ET the evening
 * before. Definitions load first: a trade, bar or statistic of a symbol with no stored definition is
 * rejected, naming the symbol.
 */
import type { LayoutColumn } from './layouts.js';

export type FuturesKind = 'futures_definitions' | 'futures_trades' | 'futures_bars' | 'futures_statistics';

const col = (name: string, required: boolean, description: string): LayoutColumn => ({ name, required, description });

const SYMBOL = col(
  'symbol',
  true,
  'Exchange symbol of the contract (ESZ6, ESZ26). The contract meant is the one of that symbol that had not expired 31 days before the record (a symbol comes back every ten years).',
);

export const FUTURES_LAYOUTS: Record<FuturesKind, readonly LayoutColumn[]> = {
  futures_definitions: [
    col('symbol', true, 'Exchange symbol: root, month code (F G H J K M N Q U V X Z), one or two digits of the year.'),
    col('root', false, 'Product root (ES); default: the symbol without its month code and year.'),
    col('contract_month', true, 'YYYY-MM; its month and year must be the ones the symbol names.'),
    col('expiration', true, 'Last trading instant, Unix ms (or ISO-8601).'),
    col('tick_size', true, 'Minimum price increment, in price units (0.25 for ES).'),
    col('multiplier', true, 'Currency per price unit and contract (50 for ES: a point is $50).'),
    col('currency', false, 'ISO 4217 code of the price; default USD.'),
    col('instrument_id', false, "The feed's numeric instrument id (Databento's), when there is one."),
  ],
  futures_trades: [
    SYMBOL,
    col('timestamp', true, 'Execution time, Unix ms (or ISO-8601).'),
    col(
      'sequence',
      true,
      "The feed's sequence number (non-negative integer). Trades of one contract sharing a sequence (one match event's price levels) are told apart by their order in the file.",
    ),
    col('price', true, 'Trade price (may be zero or negative: spreads and some commodities trade there).'),
    col('size', true, 'Contracts, a positive integer.'),
    col('aggressor_side', false, 'buy or sell: the side of the order that took liquidity; empty when the feed does not say.'),
    col('trade_date', false, 'CME trade date (YYYY-MM-DD, Monday to Friday); default: the date of the Globex day the timestamp falls in.'),
  ],
  futures_bars: [
    SYMBOL,
    col('timestamp', true, 'Start of the one-minute bar, Unix ms (or ISO-8601); a whole minute.'),
    col('open', true, 'First trade price of the minute.'),
    col('high', true, 'Highest trade price.'),
    col('low', true, 'Lowest trade price.'),
    col('close', true, 'Last trade price.'),
    col('volume', true, 'Contracts traded in the minute, a non-negative integer.'),
  ],
  futures_statistics: [
    SYMBOL,
    col('trade_date', true, 'CME trade date the figures belong to (YYYY-MM-DD, Monday to Friday).'),
    col('settlement_price', false, 'Settlement price of the trade date.'),
    col('settlement_status', false, 'final or preliminary; required with settlement_price.'),
    col('open_interest', false, 'Contracts open at the end of the trade date, a non-negative integer.'),
    col('cleared_volume', false, 'Contracts cleared on the trade date, a non-negative integer.'),
    col(
      'timestamp',
      false,
      'When the figures were published, Unix ms (or ISO-8601). A settlement replaces the stored one of its contract and date only when it is final or the stored one is preliminary, and is published no earlier: a final settlement supersedes a preliminary one, never the reverse.',
    ),
  ],
};
