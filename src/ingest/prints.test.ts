import { describe, expect, it } from 'vitest';
import type { ClassifiedPrintRecord } from '../analytics/classification.js';
import { copyText, PRINT_COPY_COLUMNS } from '../db/bulk-copy.js';
import { printBody, printCopyRow, type PrintRowFacts } from './prints.js';

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
  const facts: PrintRowFacts = {
    contractId: 7, contractColumns: 'SPXW\tSPX\tSPX', extendedConditions: '{209,219}', quoteBid: 5, quoteAsk: null, quoteTs: 1795185001000, aggressorSide: null,
  };
  const field = (fields: string[], name: (typeof PRINT_COPY_COLUMNS)[number]): string | undefined => fields[PRINT_COPY_COLUMNS.indexOf(name)];

  it('writes one line of every column in order, null as \\N, the body verbatim', () => {
    const line = printCopyRow(record, facts);
    expect(line.endsWith('\n')).toBe(true);
    const fields = line.slice(0, -1).split('\t');
    expect(fields).toHaveLength(PRINT_COPY_COLUMNS.length);
    expect(field(fields, 'contract_id')).toBe('7');
    expect(field(fields, 'family')).toBe('SPX');
    expect(field(fields, 'flags')).toBe('{iso}');
    expect(field(fields, 'extended_conditions')).toBe('{209,219}');
    expect(field(fields, 'open_interest')).toBe('\\N');
    expect(field(fields, 'quote_ask')).toBe('\\N');
    expect(field(fields, 'cancelled')).toBe('false');
    expect(field(fields, 'body')).toBe(printBody(record));
  });

  it('escapes backslashes, tabs and line breaks of free text (the contract columns)', () => {
    expect(copyText('plain')).toBe('plain');
    expect(copyText('a\\b\tc\nd\re')).toBe('a\\\\b\\tc\\nd\\re');
  });
});
