import { describe, expect, it } from 'vitest';
import { loadApiContract, type OperationId } from '../api-contract/openapi.js';
import { applyConditionalDefaults, parameterRuleProblems, parseParameterRules, type ParameterRule, type RuleParameter } from './rules.js';

const contract = loadApiContract();
const rulesOf = (id: OperationId): ParameterRule[] => {
  const operation = contract.byId.get(id);
  if (!operation) throw new Error(`no operation ${id}`);
  return operation.facts.parameterRules;
};
const problems = (id: OperationId, query: Record<string, unknown>) => parameterRuleProblems(rulesOf(id), query);
const names = (id: OperationId, query: Record<string, unknown>) => problems(id, query).map((d) => d.parameter);

/** Parameters for the parser's own tests, shaped as the contract reads them. */
const PARAMETERS: RuleParameter[] = [
  { name: 'grain', required: false, schema: { type: 'string', enum: ['root', 'contract'], default: 'root' } },
  { name: 'sort', required: false, schema: { type: 'string', enum: ['net', 'volume'] } },
  { name: 'symbol', required: true, schema: { type: 'string' } },
  { name: 'date', required: false, schema: { type: 'string', format: 'date' } },
  { name: 'date_of_expiry', required: false, schema: { type: 'string', format: 'date' } },
  { name: 'start_time', required: false, schema: { type: 'integer' } },
  { name: 'end_time', required: false, schema: { type: 'integer' } },
  { name: 'session', required: false, schema: { type: 'string', enum: ['rth', 'gth', 'all'], default: 'rth' } },
];

const FEEDS = ['listOptionTrades', 'listOptionFlow', 'listOvernightOptionFlow', 'getPremiumDrift'] as const;
const PAIRS = [
  ['min_dte', 'max_dte'],
  ['min_premium', 'max_premium'],
  ['min_size', 'max_size'],
  ['min_strike', 'max_strike'],
] as const;

describe('exactly_one_of (the trades route: underlying_symbol or underlying_symbols)', () => {
  const message = 'give exactly one of underlying_symbol and underlying_symbols';

  it('names both parameters when neither or both are given', () => {
    const both = [
      { parameter: 'underlying_symbol', message },
      { parameter: 'underlying_symbols', message },
    ];
    expect(problems('listOptionTrades', {})).toEqual(both);
    expect(problems('listOptionTrades', { underlying_symbol: 'SPY', underlying_symbols: ['QQQ'] })).toEqual(both);
  });

  it('accepts either one alone', () => {
    expect(problems('listOptionTrades', { underlying_symbol: 'SPY' })).toEqual([]);
    expect(problems('listOptionTrades', { underlying_symbols: ['SPY', 'QQQ'] })).toEqual([]);
  });

  it('is a rule of the trades route only', () => {
    expect(problems('listOptionFlow', {})).toEqual([]);
    expect(problems('getPremiumDrift', { underlying_symbol: 'SPY' })).toEqual([]);
  });

  it('names every member of a group when no group is given, and the given ones when two are', () => {
    const [rule] = parseParameterRules([{ exactly_one_of: ['date', ['start_time', 'end_time']] }], PARAMETERS, 'test');
    const rules = [rule!];
    const message2 = 'give exactly one of date and start_time/end_time';
    expect(parameterRuleProblems(rules, {}).map((d) => d.parameter)).toEqual(['date', 'start_time', 'end_time']);
    expect(parameterRuleProblems(rules, {})[0]?.message).toBe(message2);
    expect(parameterRuleProblems(rules, { date: '2026-11-20', end_time: 1 }).map((d) => d.parameter)).toEqual(['date', 'end_time']);
    expect(parameterRuleProblems(rules, { start_time: 1, end_time: 2 })).toEqual([]);
  });
});

describe('not_above (a minimum not above its maximum)', () => {
  it.each(FEEDS)('%s: names both of each reversed pair, in the order declared, with the messages of before', (id) => {
    const query: Record<string, unknown> = { underlying_symbol: 'SPY' };
    for (const [low, high] of PAIRS) Object.assign(query, { [low]: 10, [high]: 5 });
    expect(problems(id, query)).toEqual(
      PAIRS.flatMap(([low, high]) => [
        { parameter: low, message: `must not exceed ${high}` },
        { parameter: high, message: `must not be below ${low}` },
      ]),
    );
  });

  it('accepts equal bounds, one bound alone, and ordered bounds', () => {
    expect(problems('listOptionFlow', { min_dte: 3, max_dte: 3, min_premium: 0, max_strike: 5, min_size: 1, max_size: 2 })).toEqual([]);
  });

  it('is declared on the routes that take the pairs', () => {
    expect(names('getOpenInterest', { min_dte: 2, max_dte: 1, min_strike: 6000, max_strike: 5000 })).toEqual([
      'min_dte',
      'max_dte',
      'min_strike',
      'max_strike',
    ]);
    expect(names('getExposureLevels', { min_dte: 2, max_dte: 1 })).toEqual(['min_dte', 'max_dte']);
    expect(names('getExposureHeatmap', { min_dte: 2, max_dte: 1 })).toEqual(['min_dte', 'max_dte']);
  });

  it('compares dates as text, and leaves values of different types alone', () => {
    const rules = parseParameterRules([{ not_above: ['date', 'date_of_expiry'] }], PARAMETERS, 'test');
    expect(parameterRuleProblems(rules, { date: '2026-11-20', date_of_expiry: '2026-11-19' }).map((d) => d.parameter)).toEqual([
      'date',
      'date_of_expiry',
    ]);
    expect(parameterRuleProblems(rules, { date: '2026-11-19', date_of_expiry: '2026-11-20' })).toEqual([]);
    expect(parameterRuleProblems(rules, { date: '2026-11-20', date_of_expiry: 3 })).toEqual([]);
  });
});

describe('values_when, only_when and default_when (the flow leaders)', () => {
  const ROOT = 'grain root accepts sort net, bullish, bearish, premium, volume, trades';
  const CONTRACT = 'grain contract accepts sort change_percent, premium, volume';

  it('accepts each grain its own sorts, the grain read as its schema default when absent', () => {
    for (const sort of ['net', 'bullish', 'bearish', 'premium', 'volume', 'trades']) {
      expect(problems('listFlowLeaders', { sort })).toEqual([]);
      expect(problems('listFlowLeaders', { grain: 'root', sort })).toEqual([]);
    }
    for (const sort of ['change_percent', 'premium', 'volume'])
      expect(problems('listFlowLeaders', { grain: 'contract', sort })).toEqual([]);
  });

  it('refuses a sort of the other grain with the message of before', () => {
    expect(problems('listFlowLeaders', { sort: 'change_percent' })).toEqual([{ parameter: 'sort', message: ROOT }]);
    expect(problems('listFlowLeaders', { grain: 'root', sort: 'change_percent' })).toEqual([{ parameter: 'sort', message: ROOT }]);
    expect(problems('listFlowLeaders', { grain: 'contract', sort: 'trades' })).toEqual([{ parameter: 'sort', message: CONTRACT }]);
    expect(problems('listFlowLeaders', { grain: 'contract', sort: 'net' })).toEqual([{ parameter: 'sort', message: CONTRACT }]);
  });

  it('accepts underlying_symbols with grain contract only', () => {
    const only = { parameter: 'underlying_symbols', message: 'accepted with grain contract only' };
    expect(problems('listFlowLeaders', { underlying_symbols: ['SPY'] })).toEqual([only]);
    expect(problems('listFlowLeaders', { grain: 'root', underlying_symbols: ['SPY'] })).toEqual([only]);
    expect(problems('listFlowLeaders', { grain: 'contract', underlying_symbols: ['SPY'] })).toEqual([]);
    expect(names('listFlowLeaders', { grain: 'root', sort: 'change_percent', underlying_symbols: ['SPY'] })).toEqual([
      'sort',
      'underlying_symbols',
    ]);
  });

  it('fills the sort of the grain when none is given, and keeps a given one', () => {
    const rules = rulesOf('listFlowLeaders');
    expect(applyConditionalDefaults(rules, { grain: 'root' })).toEqual({ grain: 'root', sort: 'net' });
    expect(applyConditionalDefaults(rules, {})).toEqual({ sort: 'net' });
    expect(applyConditionalDefaults(rules, { grain: 'contract', limit: 5 })).toEqual({
      grain: 'contract',
      limit: 5,
      sort: 'change_percent',
    });
    const given = { grain: 'contract', sort: 'volume' };
    expect(applyConditionalDefaults(rules, given)).toBe(given);
  });

  it('leaves the query it is given unchanged', () => {
    const query = { grain: 'root' };
    applyConditionalDefaults(rulesOf('listFlowLeaders'), query);
    expect(query).toEqual({ grain: 'root' });
  });
});

describe('at_most_one_of', () => {
  const IV = 'give date or start_time/end_time, not both';

  it('contract history: date or a time range, naming date and each bound given', () => {
    expect(problems('listContractImpliedVolatility', { date: '2026-11-20', end_time: 1 })).toEqual([
      { parameter: 'date', message: IV },
      { parameter: 'end_time', message: IV },
    ]);
    expect(names('listContractImpliedVolatility', { date: '2026-11-20', start_time: 1, end_time: 2 })).toEqual([
      'date',
      'start_time',
      'end_time',
    ]);
    expect(problems('listContractImpliedVolatility', { start_time: 1, end_time: 2 })).toEqual([]);
    expect(problems('listContractImpliedVolatility', { date: '2026-11-20' })).toEqual([]);
    expect(problems('listContractImpliedVolatility', {})).toEqual([]);
  });

  it('heat map: strikes_around not with strike bounds; 40 strikes around when no bound is given', () => {
    const message = 'give strikes_around or min_strike/max_strike, not both';
    expect(problems('getExposureHeatmap', { strikes_around: 10, min_strike: 5000 })).toEqual([
      { parameter: 'strikes_around', message },
      { parameter: 'min_strike', message },
    ]);
    expect(problems('getExposureHeatmap', { min_strike: 5000, max_strike: 6000 })).toEqual([]);
    expect(problems('getExposureHeatmap', { strikes_around: 10 })).toEqual([]);
    const rules = rulesOf('getExposureHeatmap');
    expect(applyConditionalDefaults(rules, {})).toEqual({ strikes_around: 40 });
    expect(applyConditionalDefaults(rules, { max_strike: 6000 })).toEqual({ max_strike: 6000 });
    expect(applyConditionalDefaults(rules, { strikes_around: 5 })).toEqual({ strikes_around: 5 });
  });

  it('open interest combines strikes_around with strike bounds (all apply)', () => {
    expect(problems('getOpenInterest', { strikes_around: 10, min_strike: 5000, max_strike: 6000 })).toEqual([]);
  });

  it('with three groups, says at most one', () => {
    const rules = parseParameterRules([{ at_most_one_of: ['date', 'date_of_expiry', ['start_time', 'end_time']] }], PARAMETERS, 'test');
    expect(parameterRuleProblems(rules, { date: 'a', end_time: 1 })).toEqual([
      { parameter: 'date', message: 'give at most one of date, date_of_expiry or start_time/end_time' },
      { parameter: 'end_time', message: 'give at most one of date, date_of_expiry or start_time/end_time' },
    ]);
  });
});

describe('within_one_session (the print feeds and premium drift)', () => {
  // 10:00 ET on Friday 2026-11-20; 22:00 ET on Thursday 2026-11-19 (the overnight session of the 20th).
  const DAY = Date.parse('2026-11-20T15:00:00Z');
  const NIGHT = Date.parse('2026-11-20T03:00:00Z');
  const before = 'start_time must be before end_time';
  // The trades route's underlying (its exactly_one_of) given, so that only the window's problems show.
  const windowProblems = (id: (typeof FEEDS)[number], query: Record<string, unknown>) =>
    problems(id, id === 'listOptionTrades' ? { underlying_symbol: 'SPY', ...query } : query);

  it('is declared last on each feed, so its problems follow the other rules as when the services checked it', () => {
    for (const id of FEEDS) expect(rulesOf(id).at(-1)?.kind).toBe('within_one_session');
  });

  it('accepts a window within the session of date, or of the instant it starts in, and no window at all', () => {
    for (const id of ['listOptionTrades', 'listOptionFlow', 'getPremiumDrift'] as const) {
      expect(windowProblems(id, { session: 'rth', date: '2026-11-20', start_time: DAY, end_time: DAY + 60_000 })).toEqual([]);
      expect(windowProblems(id, { session: 'rth', start_time: DAY })).toEqual([]);
      expect(windowProblems(id, { session: 'gth', end_time: NIGHT })).toEqual([]);
      expect(windowProblems(id, { session: 'rth', date: '2026-11-21' })).toEqual([]);
    }
    expect(windowProblems('listOvernightOptionFlow', { start_time: NIGHT })).toEqual([]);
  });

  it('names each bound given, with the calendar messages of before', () => {
    expect(windowProblems('listOptionTrades', { session: 'rth', start_time: DAY, end_time: DAY })).toEqual([
      { parameter: 'start_time', message: before },
      { parameter: 'end_time', message: before },
    ]);
    expect(windowProblems('listOptionFlow', { session: 'rth', date: '2026-11-19', start_time: DAY })).toEqual([
      {
        parameter: 'start_time',
        message:
          'the window must lie within the rth session of 2026-11-19 (09:30 ET to the options regular close, 16:15 ET or 13:15 on an early close, inclusive)',
      },
    ]);
    expect(windowProblems('getPremiumDrift', { session: 'rth', date: '2026-11-21', end_time: DAY })).toEqual([
      { parameter: 'end_time', message: '2026-11-21 is not a trading date' },
    ]);
    expect(windowProblems('listOptionTrades', { session: 'rth', start_time: Date.parse('2040-01-02T15:00:00Z') })).toEqual([
      { parameter: 'start_time', message: 'outside the exchange calendar (2000 to 2035)' },
    ]);
  });

  it('reads the session parameter, or the fixed gth of the overnight feed', () => {
    const overnightOnly = {
      parameter: 'start_time',
      message: 'the window must lie within one overnight session (20:15 to 09:25 ET); give date to name it',
    };
    expect(windowProblems('listOptionTrades', { session: 'gth', start_time: DAY })).toEqual([overnightOnly]);
    expect(windowProblems('listOvernightOptionFlow', { start_time: DAY })).toEqual([overnightOnly]);
    // The schema default (rth) when the session is absent: a day instant is within it.
    expect(windowProblems('listOptionTrades', { start_time: DAY })).toEqual([]);
  });
});

describe('range_at_most_days (contract implied volatility)', () => {
  const T = Date.parse('2026-11-20T15:00:00Z');
  const DAYS_31 = 31 * 86_400_000;

  it('accepts one bound alone, and a range of up to 31 days', () => {
    expect(problems('listContractImpliedVolatility', { start_time: T })).toEqual([]);
    expect(problems('listContractImpliedVolatility', { end_time: T })).toEqual([]);
    expect(problems('listContractImpliedVolatility', { start_time: T, end_time: T + DAYS_31 })).toEqual([]);
  });

  it('names both bounds of an empty, reversed or longer range', () => {
    const both = (message: string) => [
      { parameter: 'start_time', message },
      { parameter: 'end_time', message },
    ];
    expect(problems('listContractImpliedVolatility', { start_time: T, end_time: T })).toEqual(both('start_time must be before end_time'));
    expect(problems('listContractImpliedVolatility', { start_time: T, end_time: T - 1 })).toEqual(
      both('start_time must be before end_time'),
    );
    expect(problems('listContractImpliedVolatility', { start_time: T, end_time: T + DAYS_31 + 1 })).toEqual(
      both('the range is at most 31 days'),
    );
  });

  it('follows at_most_one_of: date with a range names date and the bounds, then the range', () => {
    expect(names('listContractImpliedVolatility', { date: '2026-11-20', start_time: T, end_time: T })).toEqual([
      'date',
      'start_time',
      'end_time',
      'start_time',
      'end_time',
    ]);
  });
});

describe('range_at_most_days over dates (futures continuous mapping: both ends included)', () => {
  it('accepts one date, and up to 366 days from start_date to end_date', () => {
    expect(problems('listFuturesContinuous', { symbol: 'ES.c.0', start_date: '2026-11-20', end_date: '2026-11-20' })).toEqual([]);
    expect(problems('listFuturesContinuous', { symbol: 'ES.c.0', start_date: '2025-11-20', end_date: '2026-11-21' })).toEqual([]);
  });

  it('names both dates of a reversed or longer range', () => {
    const both = (message: string) => [
      { parameter: 'start_date', message },
      { parameter: 'end_date', message },
    ];
    expect(problems('listFuturesContinuous', { symbol: 'ES.c.0', start_date: '2026-11-21', end_date: '2026-11-20' })).toEqual(
      both('start_date must not be after end_date'),
    );
    expect(problems('listFuturesContinuous', { symbol: 'ES.c.0', start_date: '2025-11-20', end_date: '2026-11-22' })).toEqual(
      both('the range is at most 366 days'),
    );
  });
});

describe('range_at_most_days with when (option bars: a longest range per interval)', () => {
  const T = Date.parse('2026-11-20T15:00:00Z');
  const DAY_MS = 86_400_000;
  const range = (interval: string | undefined, days: number) => ({
    underlying_symbol: 'SPY',
    ...(interval === undefined ? {} : { interval }),
    start_time: T - days * DAY_MS,
    end_time: T,
  });

  it('bounds the range by the rule whose condition holds, the schema default counting when absent', () => {
    expect(problems('listOptionBars', range('1m', 7))).toEqual([]);
    expect(problems('listOptionBars', range('1m', 7.01))).toEqual([
      { parameter: 'start_time', message: 'the range is at most 7 days with interval 1m' },
      { parameter: 'end_time', message: 'the range is at most 7 days with interval 1m' },
    ]);
    expect(problems('listOptionBars', range(undefined, 31))).toEqual([]);
    expect(names('listOptionBars', range(undefined, 32))).toEqual(['start_time', 'end_time']);
    expect(problems('listOptionBars', range('1h', 92))).toEqual([]);
    expect(problems('listOptionBars', range('1d', 366))).toEqual([]);
    expect(names('listOptionBars', range('1d', 367))).toEqual(['start_time', 'end_time']);
  });

  it('refuses a reversed range once, by the rule of the interval asked', () => {
    expect(problems('listOptionBars', { underlying_symbol: 'SPY', interval: '1d', start_time: T, end_time: T })).toEqual([
      { parameter: 'start_time', message: 'start_time must be before end_time' },
      { parameter: 'end_time', message: 'start_time must be before end_time' },
    ]);
  });
});

describe('parseParameterRules', () => {
  const parse = (raw: unknown) => parseParameterRules(raw, PARAMETERS, 'op');

  it('reads each kind, conditions carrying the schema default of their parameter', () => {
    expect(
      parse([
        { exactly_one_of: ['date', ['start_time', 'end_time']] },
        { at_most_one_of: ['date', 'date_of_expiry'] },
        { not_above: ['start_time', 'end_time'] },
        { values_when: { parameter: 'sort', when: { grain: 'root' }, values: ['net'] } },
        { only_when: { parameter: 'date', when: { grain: 'contract', date_of_expiry: null } } },
        { default_when: { parameter: 'sort', when: { grain: 'contract' }, value: 'volume' } },
        { within_one_session: { start: 'start_time', end: 'end_time', date: 'date', session: 'session' } },
        { within_one_session: { start: 'start_time', end: 'end_time', date: 'date', fixed_session: 'gth' } },
        { range_at_most_days: { start: 'start_time', end: 'end_time', days: 31 } },
      ]),
    ).toEqual([
      { kind: 'exactly_one_of', groups: [['date'], ['start_time', 'end_time']] },
      { kind: 'at_most_one_of', groups: [['date'], ['date_of_expiry']] },
      { kind: 'not_above', low: 'start_time', high: 'end_time' },
      { kind: 'values_when', parameter: 'sort', when: [{ parameter: 'grain', value: 'root', schemaDefault: 'root' }], values: ['net'] },
      {
        kind: 'only_when',
        parameter: 'date',
        when: [
          { parameter: 'grain', value: 'contract', schemaDefault: 'root' },
          { parameter: 'date_of_expiry', value: null, schemaDefault: undefined },
        ],
      },
      {
        kind: 'default_when',
        parameter: 'sort',
        when: [{ parameter: 'grain', value: 'contract', schemaDefault: 'root' }],
        value: 'volume',
      },
      {
        kind: 'within_one_session',
        start: 'start_time',
        end: 'end_time',
        date: 'date',
        session: { parameter: 'session', schemaDefault: 'rth' },
      },
      { kind: 'within_one_session', start: 'start_time', end: 'end_time', date: 'date', session: { fixed: 'gth' } },
      { kind: 'range_at_most_days', start: 'start_time', end: 'end_time', days: 31, when: [] },
    ]);
    expect(parse(undefined)).toEqual([]);
  });

  it.each([
    ['an unknown kind', [{ one_of: ['date', 'sort'] }], /op: x-parameter-rules\[0\].*unknown kind one_of/],
    ['a rule of two kinds', [{ not_above: ['start_time', 'end_time'], at_most_one_of: ['date', 'sort'] }], /an object of one key/],
    ['a list that is not one', { not_above: ['start_time', 'end_time'] }, /must be a list/],
    [
      'a parameter the operation does not have',
      [{ not_above: ['start_time', 'finish'] }],
      /"finish" is not a query parameter of the operation/,
    ],
    ['an unknown parameter in a group', [{ at_most_one_of: ['date', ['start_time', 'stop']] }], /"stop" is not a query parameter/],
    [
      'an unknown condition parameter',
      [{ only_when: { parameter: 'date', when: { granularity: 'day' } } }],
      /"granularity" is not a query parameter/,
    ],
    [
      'a condition value outside the enum',
      [{ only_when: { parameter: 'date', when: { grain: 'expiry' } } }],
      /"expiry" is not in the enum of grain/,
    ],
    [
      'a value outside the enum',
      [{ values_when: { parameter: 'sort', when: { grain: 'root' }, values: ['net', 'bullish'] } }],
      /"bullish" is not in the enum of sort/,
    ],
    [
      'a presence rule on a defaulted parameter',
      [{ only_when: { parameter: 'grain', when: { sort: 'net' } } }],
      /grain has a schema default/,
    ],
    ['a presence rule on a required parameter', [{ exactly_one_of: ['symbol', 'date'] }], /symbol is required/],
    [
      'a default for a defaulted parameter',
      [{ default_when: { parameter: 'grain', when: { sort: 'net' }, value: 'root' } }],
      /grain has a schema default/,
    ],
    ['"not given" of a defaulted parameter', [{ only_when: { parameter: 'date', when: { grain: null } } }], /grain has a schema default/],
    ['a one-member group list', [{ at_most_one_of: ['date'] }], /two or more/],
    ['not_above of one parameter', [{ not_above: ['date'] }], /takes \[low, high\]/],
    ['a missing field', [{ values_when: { parameter: 'sort', values: ['net'] } }], /takes exactly parameter, when, values/],
    ['an extra field', [{ only_when: { parameter: 'date', when: { grain: 'root' }, values: ['x'] } }], /takes exactly parameter, when/],
    ['an empty condition', [{ only_when: { parameter: 'date', when: {} } }], /when must map one or more/],
    [
      'a window without its date',
      [{ within_one_session: { start: 'start_time', end: 'end_time', session: 'session' } }],
      /takes exactly start, end, date, session/,
    ],
    [
      'a window of an unknown parameter',
      [{ within_one_session: { start: 'from', end: 'end_time', date: 'date', session: 'session' } }],
      /"from" is not a query parameter/,
    ],
    [
      'a window session that is not a session',
      [{ within_one_session: { start: 'start_time', end: 'end_time', date: 'date', session: 'grain' } }],
      /grain must take sessions only/,
    ],
    [
      'an unknown fixed session',
      [{ within_one_session: { start: 'start_time', end: 'end_time', date: 'date', fixed_session: 'day' } }],
      /fixed_session must be one of rth, gth, all/,
    ],
    [
      'a session and a fixed session',
      [{ within_one_session: { start: 'start_time', end: 'end_time', date: 'date', session: 'session', fixed_session: 'gth' } }],
      /takes exactly start, end, date, fixed_session/,
    ],
    [
      'a range of no days',
      [{ range_at_most_days: { start: 'start_time', end: 'end_time', days: 0 } }],
      /days must be a whole number of days, at least 1/,
    ],
    ['a range of part days', [{ range_at_most_days: { start: 'start_time', end: 'end_time', days: 1.5 } }], /days must be a whole number/],
  ])('refuses %s, naming the operation and the rule', (_what, raw, error) => {
    expect(() => parse(raw)).toThrow(error);
  });
});

describe('the contract', () => {
  it('loads every operation with its rules, each naming parameters the operation has', () => {
    const declared = contract.operations.filter((o) => o.facts.parameterRules.length > 0).map((o) => o.operationId);
    expect(declared.sort()).toEqual(
      [
        'getExposureHeatmap',
        'getExposureLevels',
        'getOpenInterest',
        'getOptionChain',
        'getPremiumDrift',
        'getVolatilityDrift',
        'listContractImpliedVolatility',
        'listFlowLeaders',
        'listOptionBars',
        'listOptionContracts',
        'listOptionFlow',
        'listOptionTrades',
        'listOvernightOptionFlow',
        'getVolatilitySkew',
        'getIndexVolatility',
        'listFuturesContracts',
        'listFuturesBars',
        'listFuturesContinuous',
        'listFuturesTrades',
        'listFuturesSettlements',
        'getFuturesBasis',
        'listIndexBars',
        'listIndexVolatilityBars',
      ].sort(),
    );
  });

  it('marks getAccountLimits quota-free and the overnight feed overnight-only, no other route', () => {
    expect(contract.operations.filter((o) => o.facts.quotaFree).map((o) => o.operationId)).toEqual(['getAccountLimits']);
    expect(contract.operations.filter((o) => o.facts.overnightOnly).map((o) => o.operationId)).toEqual(['listOvernightOptionFlow']);
  });

  it('gives the heat map strikes_around no schema default: its default is conditional', () => {
    const strikesAround = contract.byId.get('getExposureHeatmap')?.parameters.find((p) => p.name === 'strikes_around');
    expect(strikesAround?.schema.default).toBeUndefined();
  });
});
