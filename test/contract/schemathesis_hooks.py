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
- within_one_session: the window's bounds left out (a random instant seldom falls in the session
  of the date drawn);
- range_at_most_days: a start strictly before its end (a pair given high-to-low swapped, an equal
  end left out); the length is left to the server.
What depends on the clock or the service's own state stays coded here:
- no cursor_id: a cursor the service did not issue is always 400 invalid_cursor;
- usage's time window (start_time, end_time) left out: a random instant seldom falls in its
  seven-day retention window;
- a strike of at most three decimals (the contract's custom `strike` format).
Each rule's 400 answer is tested in src/parameters/rules.test.ts and test/integration (trades.test.ts,
contract-history.test.ts, usage.test.ts), and the coverage phase still sends each parameter's
out-of-bounds values.
"""

import schemathesis

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
        elif kind == "within_one_session":
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
    return query
