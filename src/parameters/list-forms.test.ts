import { describe, expect, it } from 'vitest';
import { joinRepeatedLists } from './list-forms.js';

const LISTS = new Set(['side', 'exchange']);

describe('joinRepeatedLists', () => {
  it('writes a repeated list parameter as one, its values comma-joined in the order sent, where it first stood', () => {
    expect(joinRepeatedLists('underlying_symbol=SPX&side=ask&limit=5&side=above_ask', LISTS)).toBe(
      'underlying_symbol=SPX&side=ask,above_ask&limit=5',
    );
    expect(joinRepeatedLists('side=ask&exchange=cboe&side=bid&exchange=ise&exchange=arca', LISTS)).toBe(
      'side=ask,bid&exchange=cboe,ise,arca',
    );
  });

  it('joins a repeated form whose values are themselves comma-separated', () => {
    expect(joinRepeatedLists('side=ask,bid&side=above_ask', LISTS)).toBe('side=ask,bid,above_ask');
  });

  it('keeps each value and name as sent, percent-encoding included, matching names as URLSearchParams decodes them', () => {
    expect(joinRepeatedLists('si%64e=ask&side=b%69d&x=a+b', LISTS)).toBe('si%64e=ask,b%69d&x=a+b');
  });

  it('keeps an empty value as an empty item, for the validator to refuse', () => {
    expect(joinRepeatedLists('side=&side=ask', LISTS)).toBe('side=,ask');
    expect(joinRepeatedLists('side&side=ask', LISTS)).toBe('side=,ask');
  });

  it('leaves the query alone when no list is repeated, and never joins a parameter that is not a list', () => {
    expect(joinRepeatedLists('side=ask,above_ask&exchange=cboe', LISTS)).toBeNull();
    expect(joinRepeatedLists('limit=5&limit=6', LISTS)).toBeNull();
    expect(joinRepeatedLists('limit=5&limit=6&side=ask&side=bid', LISTS)).toBe('limit=5&limit=6&side=ask,bid');
    expect(joinRepeatedLists('', LISTS)).toBeNull();
    expect(joinRepeatedLists('side=ask&side=bid', new Set())).toBeNull();
  });
});
