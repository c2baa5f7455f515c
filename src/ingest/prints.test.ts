import { describe, expect, it } from 'vitest';
import type { ClassifiedPrintRecord } from '../analytics/classification.js';
import { printCopyText } from '../db/bulk-copy.js';
import { PRINT_COLUMN_NAMES, PrintColumns } from '../db/market-data.js';
import { printBody } from './prints.js';

const SPEC_ORDER = [
  'ask', 'bid', 'condition_code', 'contract_type', 'date_of_expiry', 'day_volume', 'days_to_expiry', 'delta', 'exchange', 'exchange_code', 'flags',
  'group_id', 'id', 'implied_volatility', 'is_block', 'is_golden', 'is_unusual', 'open_interest', 'otm_percent', 'premium', 'price', 'sentiment',
  'session', 'side', 'side_confidence', 'size', 'strike', 'timestamp', 'trade_type', 'underlying_price', 'underlying_symbol',
] as const;

const record: ClassifiedPrintRecord = {
  ask: 5.1, bid: 5, condition_code: 219, contract_type: 'call', date_of_expiry: '2026-11-20', day_volume: 32, days_to_expiry: 0, delta: 0.33492,
  exchange: 'ise', exchange_code: 308, flags: ['iso'], group_id: 'g:SPXW:2026-11-20:6600000:C:2026-11-20:1', id: 'SPXW:2026-11-20:6600000:C:2026-11-20:2',
  implied_volatility: 0.128522, is_block: false, is_golden: false, is_unusual: true, open_interest: null, otm_percent: -0.1517, premium: 10200,
  price: 5.1, sentiment: 'bullish', session: 'rth', side: 'at_ask', side_confidence: 1, size: 20, strike: 6600, timestamp: 1795185001010,
  trade_type: 'sweep', underlying_price: 6590, underlying_symbol: 'SPXW', cancelled: false, contract_key: 'SPXW:2026-11-20:6600000:C',
  trading_date: '2026-11-20', sequence: 2,
};

describe('the stored print body', () => {
  it('is the JSON of exactly the 31 served fields, in the specification order', () => {
    const body = printBody(record);
    const parsed = JSON.parse(body) as Record<string, unknown>;
    expect(Object.keys(parsed)).toEqual([...SPEC_ORDER]);
    expect(body).toBe(JSON.stringify(Object.fromEntries(SPEC_ORDER.map((k) => [k, record[k]]))));
    const nulls = printBody({ ...record, ask: null, bid: null, delta: null, group_id: null, implied_volatility: null, otm_percent: null, underlying_price: null, flags: [] });
    expect(JSON.parse(nulls)).toMatchObject({ ask: null, group_id: null, underlying_price: null, flags: [] });
  });
});

describe('COPY text', () => {
  it('writes null as \\N and escapes backslashes, tabs and line breaks of free text', () => {
    const rows = new PrintColumns();
    for (const name of PRINT_COLUMN_NAMES) rows.columns[name].push(name === 'body' ? '{"a":"x\\\\y\\tz\\n"}' : name === 'group_id' ? null : 1);
    rows.length = 1;
    const fields = printCopyText(rows).slice(0, -1).split('\t');
    expect(fields).toHaveLength(PRINT_COLUMN_NAMES.length);
    expect(fields[PRINT_COLUMN_NAMES.indexOf('group_id')]).toBe('\\N');
    expect(fields[PRINT_COLUMN_NAMES.indexOf('body')]).toBe('{"a":"x\\\\\\\\y\\\\tz\\\\n"}');
  });
});
