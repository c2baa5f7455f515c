"""Schemathesis hooks (scripts/schemathesis loads them through SCHEMATHESIS_HOOKS).

The contract states each parameter's own bounds, which Schemathesis reads, and the rules between
parameters in each operation's `x-parameter-rules` (the kinds are described in the contract's
info.description), which Schemathesis does not. Drawn at random, nearly every query of the print
feeds, contract history, usage and leaders broke one of them, so the fuzzer met 400 and seldom the
200 and 422 answers whose bodies it checks against the schemas. This hook keeps the generated query
within those rules before it is sent, reading them from the served document:
- exactly_one_of: one group kept (the first given, or the first parameter's example when none is);
- at_most_one_of: the first given group kept, the others left out;
- not_above: a pair given high-to-low swapped;
- values_when / only_when: a parameter left out when its conditions say so (conditions read a
  parameter's schema default when it is absent, as the server does);
- default_when: nothing to do, the server fills it in;
- within_one_session, within_globex_session: the window's bounds left out (a random instant seldom
  falls in the session of the date drawn);
- range_at_most_days: a start strictly before its end (a pair given high-to-low swapped, an equal
  end left out); the length is left to the server (a rule with `when`, such as the bars' longest
  range per interval, counts as broken only while its conditions hold).
What depends on the clock or the service's own state stays coded here:
- no cursor_id: a cursor the service did not issue is always 400 invalid_cursor;
- usage's time window (start_time, end_time) left out: a random instant seldom falls in its
  seven-day retention window;
- a strike of at most three decimals (the contract's custom `strike` format).
Each rule's 400 answer is tested in src/parameters/rules.test.ts and test/integration (trades.test.ts,
contract-history.test.ts, usage.test.ts), and the coverage phase still sends each parameter's
out-of-bounds values.

The examples and coverage phases build their queries without map_query, so they send schema-valid
queries that break a rule between parameters (both of an at_most_one_of pair, a window high-to-low)
and rightly get 400. OpenAPI cannot state those rules of query parameters, so the
positive_data_acceptance check (ST202, run by `--checks all`) is told by filter_failure: its failure
is dropped when the refusal is one the contract states but its schemas cannot:
- 400 naming only parameters of rules of the operation's x-parameter-rules that the query breaks
  (those apply_rules would change the query for);
- 422 no_data: a valid request for which no data is held;
- 400 invalid_cursor: a cursor the service did not issue (the contract's example cursor);
- usage's time window outside the seven-day retention (it moves with the clock);
- an export's `path` that is not an exportable route of the catalog, or its `query` refused by the
  target route's own parameters (ExportRequest.query is an open map: its keys are the target's), or
  its `format` csv or parquet for a route whose data is not rows.
Any other refusal of a schema-valid request stays a failure.

A server error (ST101, the not_a_server_error check) is dropped only for a 503 `data_pending` with
Retry-After: the contract's answer while a computation the request started runs, such as the
volatility index series of a finished session being filled in the background on its first
request (/v1/indices/volatility/bars). Every other 5xx stays a failure.

Both forms of a list parameter (issue 36 §2): the contract declares lists `style: form, explode:
false`, so Schemathesis sends them comma-joined (`side=ask,above_ask`); the server accepts the
repeated form too (`side=ask&side=above_ask`, what most generated clients send). map_query, last,
sends about half of the fuzzed lists repeated instead: the ones whose wire form hashes odd (a
fixed choice, so a case replays the same), on every operation with a list parameter, in the same
number of cases. filter_failure reads a list sent repeated as its comma-joined form, so the rules
compare the same values either way. (The examples and coverage phases, which do not call
map_query, send the declared comma form; test/contract/routes.test.ts sends every list parameter
both ways.)
"""

import datetime
import zlib
from urllib.parse import unquote

import schemathesis
from schemathesis.core.parameters import DelimitedValue
from schemathesis.core.failures import ServerError
from schemathesis.openapi.checks import RejectedPositiveData

def _number(value):
    return isinstance(value, (int, float)) and not isinstance(value, bool)


def _comparable(a, b):
    return (_number(a) and _number(b)) or (isinstance(a, str) and isinstance(b, str))


def _groups(items):
    return [list(item) if isinstance(item, list) else [item] for item in items]


def _holds(query, when, defaults):
    for name, value in when.items():
        if value is None:
            if name in query:
                return False
        elif query.get(name, defaults.get(name)) != value:
            return False
    return True


def apply_rules(rules, query, parameters):
    """Keeps `query` within the declared rules; `parameters` maps a name to its resolved schema."""
    defaults = {name: schema["default"] for name, schema in parameters.items() if "default" in schema}
    for rule in rules:
        (kind, body), = rule.items()
        if kind in ("exactly_one_of", "at_most_one_of"):
            groups = _groups(body)
            given = [g for g in groups if any(name in query for name in g)]
            if given:
                for group in given[1:]:
                    for name in group:
                        query.pop(name, None)
            elif kind == "exactly_one_of":
                first = groups[0][0]
                examples = parameters.get(first, {}).get("examples") or []
                if examples:
                    query[first] = examples[0]
        elif kind == "not_above":
            low, high = body
            if low in query and high in query and _comparable(query[low], query[high]) and query[low] > query[high]:
                query[low], query[high] = query[high], query[low]
        elif kind == "values_when":
            name = body["parameter"]
            if name in query and _holds(query, body["when"], defaults) and query[name] not in body["values"]:
                del query[name]
        elif kind == "only_when":
            name = body["parameter"]
            if name in query and not _holds(query, body["when"], defaults):
                del query[name]
        elif kind == "default_when":
            pass
        elif kind in ("within_one_session", "within_globex_session"):
            query.pop(body["start"], None)
            query.pop(body["end"], None)
        elif kind == "range_at_most_days":
            start, end = body["start"], body["end"]
            if start in query and end in query and _comparable(query[start], query[end]):
                if query[start] > query[end]:
                    query[start], query[end] = query[end], query[start]
                elif query[start] == query[end]:
                    del query[end]
        else:
            raise ValueError(f"unknown x-parameter-rules kind {kind}")
    return query


def _rule_parameters(kind, body):
    """The parameters a rule names."""
    if kind in ("exactly_one_of", "at_most_one_of"):
        return {name for group in _groups(body) for name in group}
    if kind == "not_above":
        return set(body)
    if kind in ("values_when", "only_when", "default_when"):
        return {body["parameter"], *body.get("when", {}).keys()}
    if kind in ("within_one_session", "within_globex_session", "range_at_most_days"):
        return {body[key] for key in ("start", "end", "date", "session") if key in body}
    return set()


def _days_between(start, end):
    """Days from start to end, both Unix ms or both ISO dates; None when they are neither."""
    if _number(start) and _number(end):
        return (end - start) / 86_400_000
    if isinstance(start, str) and isinstance(end, str):
        try:
            return (datetime.date.fromisoformat(end) - datetime.date.fromisoformat(start)).days
        except ValueError:
            return None
    return None


def _breaks(kind, body, query, parameters):
    if kind == "default_when":
        return False
    if kind == "range_at_most_days" and body["start"] in query and body["end"] in query:
        defaults = {name: schema["default"] for name, schema in parameters.items() if "default" in schema}
        days = _days_between(query[body["start"]], query[body["end"]])
        if days is not None and days > body["days"] and _holds(query, body.get("when", {}), defaults):
            return True
    return apply_rules([{kind: body}], dict(query), parameters) != dict(query)


def broken_rule_parameters(rules, query, parameters):
    """The parameters of each rule that `query` breaks (one that apply_rules would change it for, or a range too long)."""
    names = set()
    for rule in rules:
        (kind, body), = rule.items()
        if _breaks(kind, body, query, parameters):
            names |= _rule_parameters(kind, body)
    return names


def refused_as_stated(label, rules, query, parameters, status, body):
    """Whether a refusal of a schema-valid request is one the contract states beyond its schemas (the module's list)."""
    error = body.get("error", {}) if isinstance(body, dict) else {}
    code = error.get("code")
    if status == 422:
        return code == "no_data"
    if status != 400:
        return False
    if code == "invalid_cursor":
        return True
    if code not in ("invalid_parameter", "invalid_body"):
        return False
    named = {detail.get("parameter") for detail in error.get("details", [])}
    if not named:
        return False
    if label == "GET /v1/account/usage" and named <= {"start_time", "end_time"}:
        return True
    if label == "POST /v1/exports" and all(isinstance(n, str) and (n in ("body.path", "body.format") or n.startswith("query.")) for n in named):
        return True
    return named <= broken_rule_parameters(rules, query, parameters)


def pending_as_stated(response):
    """A 503 `data_pending` with Retry-After: the contract's answer while a computation it started runs."""
    if response.status_code != 503 or "retry-after" not in {name.lower() for name in response.headers}:
        return False
    try:
        body = response.json()
    except ValueError:
        return False
    return isinstance(body, dict) and body.get("error", {}).get("code") == "data_pending"


@schemathesis.hook
def filter_failure(ctx, failure, case, response):
    if isinstance(failure, ServerError):
        return not pending_as_stated(response)
    if not isinstance(failure, RejectedPositiveData):
        return True
    try:
        body = response.json()
    except ValueError:
        return True
    rules = case.operation.definition.raw.get("x-parameter-rules", [])
    parameters = _parameters(case.operation)
    query = {name: _typed(_joined(value), parameters.get(name, {})) for name, value in (case.query or {}).items()}
    label = f"{case.operation.method.upper()} {case.operation.path}"
    return not refused_as_stated(label, rules, query, parameters, response.status_code, body)


def _typed(value, schema):
    """A numeric parameter sent as text (the coverage phase's) as its number, so that pairs compare as the server compares them."""
    if isinstance(value, str) and schema.get("type") in ("integer", "number"):
        try:
            return float(value)
        except ValueError:
            return value
    return value


def _joined(value):
    """A list sent repeated (explode_lists) as the comma-joined text it stands for."""
    return ",".join(map(str, value)) if isinstance(value, list) else value


def explode_lists(operation, query):
    """Every comma-joined list of `query` whose wire form hashes odd, as its items, which the HTTP
    client sends as the parameter repeated; an empty list stays as it is (repeated, it would be absent)."""
    lists = {p.name for p in operation.query if p.definition.get("explode") is False}
    for name, value in query.items():
        if name in lists and isinstance(value, DelimitedValue) and value.encoded and zlib.crc32(value.encoded.encode()) % 2:
            query[name] = [unquote(item) for item in value.encoded.split(",")]
    return query


def _parameters(operation):
    return {p.name: p.definition.get("schema", {}) for p in operation.query}


@schemathesis.hook
def map_query(ctx, query):
    if not query:
        query = {}
    operation = ctx.operation if ctx is not None else None
    path = operation.path if operation is not None else ""
    query.pop("cursor_id", None)
    if path == "/v1/account/usage":
        query.pop("start_time", None)
        query.pop("end_time", None)
    if operation is not None:
        apply_rules(operation.definition.raw.get("x-parameter-rules", []), query, _parameters(operation))
    if path.startswith("/v1/options/contract/") and _number(query.get("strike")):
        query["strike"] = max(0.001, round(query["strike"], 3))
    if operation is not None:
        explode_lists(operation, query)
    return query
