/**
 * The canonical ingest layouts: what `npm run ingest -- <kind> <files...>` reads and what the market
 * simulator writes. Files are CSV with this header row (columns in any order, extra columns
 * ignored) or NDJSON objects with these keys, optionally gzip-compressed. Vendor adapters (Massive
 * flat files, Databento) map their own columns onto these records.
 *
 * Conventions: timestamps are Unix epoch milliseconds (integers; ISO-8601 accepted on input);
 * dates YYYY-MM-DD; contracts named by their OCC symbol (`SPXW  241220C05900000`, the unpadded form
 * and an `O:` prefix are accepted); prices in dollars per share; an empty field is a missing value.
 * The futures layouts (definitions, trades, bars, statistics) are in futures-layouts.ts.
 */
import { FUTURES_LAYOUTS, type FuturesKind } from './futures-layouts.js';

export type IngestKind = 'contracts' | 'prints' | 'quotes' | 'underlying_bars' | 'open_interest' | 'splits' | FuturesKind;

export interface LayoutColumn {
  name: string;
  required: boolean;
  description: string;
}

const col = (name: string, required: boolean, description: string): LayoutColumn => ({ name, required, description });

export const LAYOUTS: Record<IngestKind, readonly LayoutColumn[]> = {
  contracts: [
    col('option_symbol', true, 'OCC symbol; root, expiry, right and strike are read from it.'),
    col('underlying', false, 'Underlying symbol; default from the root reference (SPXW → SPX).'),
    col('multiplier', false, 'Contract multiplier; default 100.'),
  ],
  prints: [
    col('option_symbol', true, 'OCC symbol of the contract.'),
    col('timestamp', true, 'Execution time, Unix ms.'),
    col('sequence', true, 'Sequence number in the consolidated feed (unique per trading date and contract).'),
    col('price', true, 'Execution price per share.'),
    col('size', true, 'Contracts.'),
    col('exchange_code', true, 'Numeric exchange id (Massive/Polygon option venue ids, e.g. 302 Cboe).'),
    col(
      'condition_code',
      false,
      'Numeric sale condition (Massive/Polygon ids, e.g. 209 auto-execution, 219 ISO, 201 canceled); empty = regular sale.',
    ),
    col('extended_conditions', false, 'More condition codes, separated by |.'),
    col('aggressor_side', false, 'buy or sell when the vendor marks the aggressor; empty otherwise.'),
    col('bid', false, 'NBBO bid in force at the print, when the file carries it (as Databento tbbo does).'),
    col('ask', false, 'NBBO ask in force at the print.'),
    col('quote_timestamp', false, 'Time of that NBBO, Unix ms.'),
  ],
  // Every update of a contract's NBBO, one a minute, or chain snapshots at a coarser cadence: each
  // contract's last update within each minute is stored (the one-minute sample).
  quotes: [
    col('option_symbol', true, 'OCC symbol.'),
    col('timestamp', true, 'Quote time, Unix ms.'),
    col('bid', true, 'Best bid; empty when none.'),
    col('ask', true, 'Best ask; empty when none.'),
    col('bid_size', false, 'Contracts at the bid.'),
    col('ask_size', false, 'Contracts at the ask.'),
  ],
  underlying_bars: [
    col('symbol', true, 'Underlying symbol (SPX, SPY, AAPL...).'),
    col('timestamp', true, 'Start of the one-minute bar, Unix ms.'),
    col('open', true, 'Open.'),
    col('high', true, 'High.'),
    col('low', true, 'Low.'),
    col('close', true, 'Close (the last price of the minute).'),
    col('volume', false, 'Shares (0 for indexes).'),
  ],
  open_interest: [
    col('option_symbol', true, 'OCC symbol.'),
    col(
      'date',
      true,
      'Trading date the figure applies to (open interest at the start of that date: the previous close, published that morning).',
    ),
    col('open_interest', true, 'Contracts open.'),
  ],
  splits: [
    col('symbol', true, '1 to 6 letters, optionally .suffix.'),
    col('execution_date', true, 'First trading date on the new basis.'),
    col('split_from', true, 'Old shares in the ratio (2-for-1: 1).'),
    col('split_to', true, 'New shares in the ratio (2-for-1: 2).'),
  ],
  // futures_definitions, futures_trades, futures_bars, futures_statistics: futures-layouts.ts.
  ...FUTURES_LAYOUTS,
};
