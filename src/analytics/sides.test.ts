import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { ASK_SIDES, BID_SIDES, directionOf, sentimentOf, SIDES, type Sentiment, type Side } from './sides.js';

/** The enum of an OptionPrint property, read from the contract (through the property's $ref). */
function printEnum(property: string): unknown {
  const document = parse(fs.readFileSync(new URL('../../openapi/v1.yaml', import.meta.url), 'utf8')) as {
    components: { schemas: Record<string, { enum?: unknown; properties?: Record<string, { $ref?: string }> }> };
  };
  const schemas = document.components.schemas;
  const target = schemas.OptionPrint?.properties?.[property]?.$ref?.split('/').at(-1);
  return target === undefined ? undefined : schemas[target]?.enum;
}

describe('SIDES', () => {
  it("is the PrintSide schema's enum (OptionPrint.side), in its order", () => {
    expect(SIDES).toEqual(printEnum('side'));
  });
});

describe('directionOf and the side groups', () => {
  it('buys on the ask side, sells on the bid side, neither at mid or unknown', () => {
    expect(SIDES.map((s) => [s, directionOf(s)])).toEqual([
      ['above_ask', 1],
      ['at_ask', 1],
      ['near_ask', 1],
      ['mid', 0],
      ['near_bid', -1],
      ['at_bid', -1],
      ['below_bid', -1],
      ['unknown', 0],
    ]);
  });

  it('groups the ask and bid sides in the contract order', () => {
    expect(ASK_SIDES).toEqual(['above_ask', 'at_ask', 'near_ask']);
    expect(BID_SIDES).toEqual(['near_bid', 'at_bid', 'below_bid']);
  });
});

describe('sentimentOf', () => {
  it.each<[Side, Sentiment, Sentiment]>([
    ['above_ask', 'bullish', 'bearish'],
    ['at_ask', 'bullish', 'bearish'],
    ['near_ask', 'bullish', 'bearish'],
    ['mid', 'neutral', 'neutral'],
    ['near_bid', 'bearish', 'bullish'],
    ['at_bid', 'bearish', 'bullish'],
    ['below_bid', 'bearish', 'bullish'],
    ['unknown', 'unknown', 'unknown'],
  ])('%s: call %s, put %s', (side, call, put) => {
    expect(sentimentOf(side, 'call')).toBe(call);
    expect(sentimentOf(side, 'put')).toBe(put);
  });
});
