/**
 * Rules between parameters, declared once in the contract (`x-parameter-rules` of an operation) and
 * applied here: at the edge after the validator (middleware/parameter-rules.ts), to queries given as
 * data (exports, stream subscriptions: parameters/index.ts queryProblems), and read again by the
 * Schemathesis hook. A rule is one of eight kinds; openapi/v1.yaml's `info.description` states
 * their meaning for clients. Two of them read the exchange calendar (CALENDAR_KINDS): a window
 * within one session (analytics/print-filters.ts resolveWindow) and a range of at most some days.
 *
 * A rule reads the query after the validator: coerced, the schemas' defaults filled in. "Given"
 * means present in that query, so a presence rule may not name a parameter with a schema default
 * (the load refuses it). A condition (`when`) compares a parameter's value, its schema default when
 * absent; a condition value of null means the parameter is not given.
 */
import { resolveGlobexWindow } from '../analytics/futures/trade-window.js';
import { resolveWindow, type SessionChoice } from '../analytics/print-filters.js';
import type { ErrorDetail } from '../errors.js';

export type Scalar = string | number | boolean;

export interface Condition {
  parameter: string;
  /** The value the condition asks for; null: the parameter is not given. */
  value: Scalar | null;
  /** The parameter's schema default, its value when not given. */
  schemaDefault: Scalar | undefined;
}

export type ParameterRule =
  /** Exactly one group given (a group is one parameter, or several that go together). */
  | { kind: 'exactly_one_of'; groups: string[][] }
  /** At most one group given. */
  | { kind: 'at_most_one_of'; groups: string[][] }
  /** When both are given, low is not above high. */
  | { kind: 'not_above'; low: string; high: string }
  /** When every condition holds, the parameter, if given, takes one of these values. */
  | { kind: 'values_when'; parameter: string; when: Condition[]; values: Scalar[] }
  /** The parameter may be given only when every condition holds. */
  | { kind: 'only_when'; parameter: string; when: Condition[] }
  /** When the parameter is not given and every condition holds, it takes this value. */
  | { kind: 'default_when'; parameter: string; when: Condition[]; value: Scalar }
  /**
   * When start or end is given, the window lies within one session of the exchange calendar: that of
   * date when given, else the one the window's start (or end) falls in. The session is a parameter's
   * value (its schema default when absent) or one fixed session (the overnight feed's gth).
   */
  | {
      kind: 'within_one_session';
      start: string;
      end: string;
      date: string;
      session: { parameter: string; schemaDefault: Scalar | undefined } | { fixed: SessionChoice };
    }
  /**
   * When start or end is given, the window lies within the CME Globex session of one trade date: that
   * of date when given, else the one the window's start (or end) falls in (analytics/futures/trade-window.ts).
   */
  | { kind: 'within_globex_session'; start: string; end: string; date: string }
  /**
   * When both are given, start is before end and at most this many days before it; with `when`, the
   * length applies only while every condition holds (a bound per interval: several such rules).
   */
  | { kind: 'range_at_most_days'; start: string; end: string; days: number; when: Condition[] };

export type RuleKind = ParameterRule['kind'];
export const RULE_KINDS: readonly RuleKind[] = [
  'exactly_one_of',
  'at_most_one_of',
  'not_above',
  'values_when',
  'only_when',
  'default_when',
  'within_one_session',
  'within_globex_session',
  'range_at_most_days',
];

/**
 * The kinds that read the exchange calendar. At the edge, a request that breaks only these is
 * answered 400 after the entitlement check (app.ts dispatch), where the services answered it before
 * these rules were declared: an account without the overnight entitlement still gets its 403 first.
 */
export const CALENDAR_KINDS: ReadonlySet<RuleKind> = new Set<RuleKind>([
  'within_one_session',
  'within_globex_session',
  'range_at_most_days',
]);

const SESSIONS: readonly SessionChoice[] = ['rth', 'gth', 'all'];
const DAY_MS = 86_400_000;

type Query = Readonly<Record<string, unknown>>;

const given = (query: Query, name: string): boolean => query[name] !== undefined;

function holds(query: Query, when: readonly Condition[]): boolean {
  return when.every((c) => (c.value === null ? !given(query, c.parameter) : (query[c.parameter] ?? c.schemaDefault) === c.value));
}

/** "a", "a and b", "a, b and c". */
function listed(items: readonly string[], last: 'and' | 'or'): string {
  return items.length <= 1 ? (items[0] ?? '') : `${items.slice(0, -1).join(', ')} ${last} ${items.at(-1)}`;
}

const groupName = (group: readonly string[]): string => group.join('/');
const conditionText = (when: readonly Condition[]): string =>
  when.map((c) => (c.value === null ? `no ${c.parameter}` : `${c.parameter} ${String(c.value)}`)).join(' and ');

function ruleProblems(rule: ParameterRule, query: Query): ErrorDetail[] {
  switch (rule.kind) {
    case 'exactly_one_of':
    case 'at_most_one_of': {
      const givenGroups = rule.groups.filter((g) => g.some((name) => given(query, name)));
      if (rule.kind === 'exactly_one_of' && givenGroups.length === 0) {
        const message = `give exactly one of ${listed(rule.groups.map(groupName), 'and')}`;
        return rule.groups.flat().map((parameter) => ({ parameter, message }));
      }
      if (givenGroups.length <= 1) return [];
      const message =
        rule.kind === 'exactly_one_of'
          ? `give exactly one of ${listed(rule.groups.map(groupName), 'and')}`
          : rule.groups.length === 2
            ? `give ${listed(rule.groups.map(groupName), 'or')}, not both`
            : `give at most one of ${listed(rule.groups.map(groupName), 'or')}`;
      return givenGroups
        .flat()
        .filter((name) => given(query, name))
        .map((parameter) => ({ parameter, message }));
    }
    case 'not_above': {
      const low = query[rule.low];
      const high = query[rule.high];
      const comparable = (typeof low === 'number' && typeof high === 'number') || (typeof low === 'string' && typeof high === 'string');
      if (!comparable || low <= high) return [];
      return [
        { parameter: rule.low, message: `must not exceed ${rule.high}` },
        { parameter: rule.high, message: `must not be below ${rule.low}` },
      ];
    }
    case 'values_when': {
      const value = query[rule.parameter];
      if (value === undefined || !holds(query, rule.when) || rule.values.includes(value as Scalar)) return [];
      return [{ parameter: rule.parameter, message: `${conditionText(rule.when)} accepts ${rule.parameter} ${rule.values.join(', ')}` }];
    }
    case 'only_when':
      if (!given(query, rule.parameter) || holds(query, rule.when)) return [];
      return [{ parameter: rule.parameter, message: `accepted with ${conditionText(rule.when)} only` }];
    case 'default_when':
      return [];
    case 'within_one_session':
      return windowProblems(rule, query);
    case 'within_globex_session': {
      const instant = (name: string): number | undefined => (typeof query[name] === 'number' ? query[name] : undefined);
      const startTime = instant(rule.start);
      const endTime = instant(rule.end);
      if (startTime === undefined && endTime === undefined) return [];
      const date = typeof query[rule.date] === 'string' ? (query[rule.date] as string) : undefined;
      // With a bound given, the trade date is `date` or the one the bound falls in: the clock (now) is not read.
      const window = resolveGlobexWindow({ date, startTime, endTime, now: 0 });
      if (window.ok) return [];
      const named: Record<string, string> = { start_time: rule.start, end_time: rule.end };
      return window.problems.map((p) => ({ parameter: named[p.parameter] ?? p.parameter, message: p.message }));
    }
    case 'range_at_most_days': {
      const start = query[rule.start];
      const end = query[rule.end];
      // A range of dates (YYYY-MM-DD, both ends included) may be one date; an instant range is half-open.
      if (typeof start === 'string' && typeof end === 'string') {
        if (!holds(query, rule.when)) return [];
        const days = (Date.parse(`${end}T00:00:00Z`) - Date.parse(`${start}T00:00:00Z`)) / DAY_MS;
        const message =
          start > end
            ? `${rule.start} must not be after ${rule.end}`
            : days > rule.days
              ? `the range is at most ${rule.days} days${rule.when.length > 0 ? ` with ${conditionText(rule.when)}` : ''}`
              : null;
        return message === null ? [] : [rule.start, rule.end].map((parameter) => ({ parameter, message }));
      }
      if (typeof start !== 'number' || typeof end !== 'number') return [];
      // A rule whose conditions do not hold says nothing: another of the operation's rules bounds the range.
      if (!holds(query, rule.when)) return [];
      const message =
        start >= end
          ? `${rule.start} must be before ${rule.end}`
          : end - start > rule.days * DAY_MS
            ? `the range is at most ${rule.days} days${rule.when.length > 0 ? ` with ${conditionText(rule.when)}` : ''}`
            : null;
      return message === null ? [] : [rule.start, rule.end].map((parameter) => ({ parameter, message }));
    }
  }
}

/** within_one_session, by the calendar's own reading of a feed window (analytics/print-filters.ts resolveWindow). */
function windowProblems(rule: Extract<ParameterRule, { kind: 'within_one_session' }>, query: Query): ErrorDetail[] {
  const instant = (name: string): number | undefined => (typeof query[name] === 'number' ? query[name] : undefined);
  const startTime = instant(rule.start);
  const endTime = instant(rule.end);
  if (startTime === undefined && endTime === undefined) return [];
  const date = typeof query[rule.date] === 'string' ? (query[rule.date] as string) : undefined;
  const session =
    'fixed' in rule.session ? rule.session.fixed : ((query[rule.session.parameter] ?? rule.session.schemaDefault) as SessionChoice);
  // With a bound given, the window's date is `date` or the one the bound falls in: the clock (now) is not read.
  const window = resolveWindow({ session, date, startTime, endTime, now: 0 });
  if (window.ok) return [];
  const named: Record<string, string> = { start_time: rule.start, end_time: rule.end };
  return window.problems.map((p) => ({ parameter: named[p.parameter] ?? p.parameter, message: p.message }));
}

/** Every detail of every rule the query breaks, in the order the rules are declared; empty when it keeps them all. */
export function parameterRuleProblems(rules: readonly ParameterRule[], query: Query): ErrorDetail[] {
  return rules.flatMap((rule) => ruleProblems(rule, query));
}

/** The query with the defaults whose conditions hold filled in (in declaration order); the same object when none applies. */
export function applyConditionalDefaults<Q extends Query>(rules: readonly ParameterRule[], query: Q): Q {
  let out: Record<string, unknown> | null = null;
  for (const rule of rules) {
    if (rule.kind !== 'default_when') continue;
    const current = out ?? query;
    if (given(current, rule.parameter) || !holds(current, rule.when)) continue;
    out ??= { ...query };
    out[rule.parameter] = rule.value;
  }
  return (out ?? query) as Q;
}

/** What the parser needs to know of an operation's query parameters. */
export interface RuleParameter {
  name: string;
  required: boolean;
  schema: Record<string, unknown>;
}

type Json = Record<string, unknown>;

const isScalar = (v: unknown): v is Scalar => typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean';
const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

/** The reading of one entry of an operation's `x-parameter-rules`: each check fails naming the entry. */
class RuleReader {
  constructor(
    private readonly byName: ReadonlyMap<string, RuleParameter>,
    private readonly where: string,
    private readonly index: number,
    private readonly entry: unknown,
  ) {}

  fail(message: string): never {
    throw new Error(`${this.where}: x-parameter-rules[${this.index}] ${JSON.stringify(this.entry)}: ${message}`);
  }

  parameter(name: unknown): RuleParameter {
    return (
      (typeof name === 'string' ? this.byName.get(name) : undefined) ??
      this.fail(`${JSON.stringify(name)} is not a query parameter of the operation`)
    );
  }

  static enumOf(p: RuleParameter): unknown[] | null {
    return Array.isArray(p.schema.enum) ? p.schema.enum : null;
  }

  static schemaDefault(p: RuleParameter): Scalar | undefined {
    return isScalar(p.schema.default) ? p.schema.default : undefined;
  }

  scalarOf(p: RuleParameter, value: unknown): Scalar {
    if (!isScalar(value)) return this.fail(`${JSON.stringify(value)} is not a value of ${p.name}`);
    const values = RuleReader.enumOf(p);
    if (values && !values.includes(value)) return this.fail(`${JSON.stringify(value)} is not in the enum of ${p.name}`);
    return value;
  }

  /** A parameter whose presence the rule reads: never required, never defaulted by its schema. */
  optional(name: unknown): string {
    const p = this.parameter(name);
    if (p.required) this.fail(`${p.name} is required, so its presence decides nothing`);
    if (p.schema.default !== undefined) this.fail(`${p.name} has a schema default, so it is always given; state a default_when instead`);
    return p.name;
  }

  conditions(when: unknown): Condition[] {
    if (!isObject(when) || Object.keys(when).length === 0) return this.fail('when must map one or more parameters to values');
    return Object.entries(when).map(([name, value]) => {
      if (value === null) return { parameter: this.optional(name), value: null, schemaDefault: undefined };
      const p = this.parameter(name);
      return { parameter: name, value: this.scalarOf(p, value), schemaDefault: RuleReader.schemaDefault(p) };
    });
  }

  groups(list: unknown): string[][] {
    if (!Array.isArray(list) || list.length < 2) return this.fail('needs a list of two or more parameters or groups of parameters');
    return list.map((g) => (Array.isArray(g) && g.length > 0 ? g.map((name) => this.optional(name)) : [this.optional(g)]));
  }

  fields(body: unknown, names: string[]): Json {
    if (!isObject(body)) return this.fail(`takes ${names.join(', ')}`);
    const extra = Object.keys(body).filter((k) => !names.includes(k));
    if (extra.length > 0 || names.some((n) => body[n] === undefined)) this.fail(`takes exactly ${names.join(', ')}`);
    return body;
  }
}

type WindowRule = Extract<ParameterRule, { kind: 'within_one_session' }>;

/** within_one_session: the window's parameters, and its session as a parameter of sessions or a fixed one. */
function readWindowRule(r: RuleReader, body: unknown): WindowRule {
  const b =
    isObject(body) && 'fixed_session' in body
      ? r.fields(body, ['start', 'end', 'date', 'fixed_session'])
      : r.fields(body, ['start', 'end', 'date', 'session']);
  let session: WindowRule['session'];
  if (b.fixed_session !== undefined) {
    if (!SESSIONS.includes(b.fixed_session as SessionChoice)) return r.fail(`fixed_session must be one of ${SESSIONS.join(', ')}`);
    session = { fixed: b.fixed_session as SessionChoice };
  } else {
    const p = r.parameter(b.session);
    const values = RuleReader.enumOf(p);
    if (!values || values.some((v) => !SESSIONS.includes(v as SessionChoice)))
      return r.fail(`${p.name} must take sessions only (${SESSIONS.join(', ')})`);
    session = { parameter: p.name, schemaDefault: RuleReader.schemaDefault(p) };
  }
  return {
    kind: 'within_one_session',
    start: r.parameter(b.start).name,
    end: r.parameter(b.end).name,
    date: r.parameter(b.date).name,
    session,
  };
}

/** One rule of its kind's body. */
function readRule(r: RuleReader, kind: string, body: unknown): ParameterRule {
  switch (kind as RuleKind) {
    case 'exactly_one_of':
    case 'at_most_one_of':
      return { kind: kind as 'exactly_one_of' | 'at_most_one_of', groups: r.groups(body) };
    case 'not_above': {
      if (!Array.isArray(body) || body.length !== 2) return r.fail('not_above takes [low, high]');
      return { kind: 'not_above', low: r.parameter(body[0]).name, high: r.parameter(body[1]).name };
    }
    case 'values_when': {
      const b = r.fields(body, ['parameter', 'when', 'values']);
      const p = r.parameter(b.parameter);
      if (!Array.isArray(b.values) || b.values.length === 0) return r.fail('values must be a list of one or more values');
      return { kind: 'values_when', parameter: p.name, when: r.conditions(b.when), values: b.values.map((v) => r.scalarOf(p, v)) };
    }
    case 'only_when': {
      const b = r.fields(body, ['parameter', 'when']);
      return { kind: 'only_when', parameter: r.optional(b.parameter), when: r.conditions(b.when) };
    }
    case 'default_when': {
      const b = r.fields(body, ['parameter', 'when', 'value']);
      const name = r.optional(b.parameter);
      return { kind: 'default_when', parameter: name, when: r.conditions(b.when), value: r.scalarOf(r.parameter(name), b.value) };
    }
    case 'within_one_session':
      return readWindowRule(r, body);
    case 'within_globex_session': {
      const b = r.fields(body, ['start', 'end', 'date']);
      return {
        kind: 'within_globex_session',
        start: r.parameter(b.start).name,
        end: r.parameter(b.end).name,
        date: r.parameter(b.date).name,
      };
    }
    case 'range_at_most_days': {
      const b =
        isObject(body) && 'when' in body ? r.fields(body, ['start', 'end', 'days', 'when']) : r.fields(body, ['start', 'end', 'days']);
      if (typeof b.days !== 'number' || !Number.isInteger(b.days) || b.days < 1)
        return r.fail('days must be a whole number of days, at least 1');
      const when = b.when === undefined ? [] : r.conditions(b.when);
      return { kind: 'range_at_most_days', start: r.parameter(b.start).name, end: r.parameter(b.end).name, days: b.days, when };
    }
    default:
      return r.fail(`unknown kind ${kind} (known: ${RULE_KINDS.join(', ')})`);
  }
}

/**
 * Reads an operation's `x-parameter-rules`. Throws, naming the operation and the rule, on an
 * unknown kind, a malformed rule, a parameter the operation does not have, a presence rule on a
 * parameter that is required or has a schema default, or a value outside a parameter's enum.
 */
export function parseParameterRules(raw: unknown, parameters: readonly RuleParameter[], where: string): ParameterRule[] {
  if (raw === undefined) return [];
  if (!Array.isArray(raw)) throw new Error(`${where}: x-parameter-rules must be a list`);
  const byName = new Map(parameters.map((p) => [p.name, p]));
  return raw.map((entry: unknown, index) => {
    const reader = new RuleReader(byName, where, index, entry);
    if (!isObject(entry) || Object.keys(entry).length !== 1)
      return reader.fail(`a rule is an object of one key, its kind (${RULE_KINDS.join(', ')})`);
    const [kind, body] = Object.entries(entry)[0]!;
    return readRule(reader, kind, body);
  });
}
