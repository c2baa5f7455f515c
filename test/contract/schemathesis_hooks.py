"""Schemathesis hooks (scripts/schemathesis loads them through SCHEMATHESIS_HOOKS).

The contract states each parameter's own bounds, which Schemathesis reads; the rules between
parameters are prose, and some values depend on the market calendar or the clock. Drawn at random,
nearly every query of the print feeds, contract history, usage and leaders broke one of them, so
the fuzzer met 400 and seldom the 200 and 422 answers whose bodies it checks against the schemas.
This hook keeps the generated query within those rules before it is sent:
- no cursor_id: a cursor the service did not issue is always 400 invalid_cursor;
- a minimum not above its maximum (the pair swapped), a start before its end;
- the trades route: exactly one of underlying_symbol and underlying_symbols (SPX when neither);
- flow leaders: underlying_symbols with grain contract only, a sort of the grain;
- time windows (start_time, end_time) on the print feeds and usage left out: a random instant
  seldom falls in the session of the date drawn, or in usage's seven-day retention window;
- contract history: date or a time range, not both; a strike of at most three decimals.
Each rule's 400 answer is tested in test/integration (trades.test.ts, with the cursor and leaders
rules; contract-history.test.ts; usage.test.ts), and the coverage phase still sends each
parameter's out-of-bounds values.
"""

import schemathesis

# Pairs of (lower, upper) parameters, as the contract names them.
ORDERED_PAIRS = [
    ("min_dte", "max_dte"),
    ("min_premium", "max_premium"),
    ("min_size", "max_size"),
    ("min_strike", "max_strike"),
    ("start_time", "end_time"),
]

PRINT_FEEDS = {
    "/v1/options/trades",
    "/v1/options/flow",
    "/v1/options/flow/overnight",
    "/v1/options/flow/premium-drift",
}

# The sorts each grain accepts: SORTS_OF in src/analytics/flow-leaders.ts (the contract says it in prose).
LEADER_SORTS = {
    "root": ["net", "bullish", "bearish", "premium", "volume", "trades"],
    "contract": ["change_percent", "premium", "volume"],
}


def _number(value):
    return isinstance(value, (int, float)) and not isinstance(value, bool)


def _ordered(query):
    for low, high in ORDERED_PAIRS:
        if low not in query or high not in query:
            continue
        a, b = query[low], query[high]
        if (_number(a) and _number(b)) or (isinstance(a, str) and isinstance(b, str)):
            if a > b:
                query[low], query[high] = b, a
            elif a == b and low == "start_time":
                del query[high]


@schemathesis.hook
def map_query(ctx, query):
    if not query:
        query = {}
    path = ctx.operation.path if ctx is not None and ctx.operation is not None else ""
    query.pop("cursor_id", None)
    if path in PRINT_FEEDS or path == "/v1/account/usage":
        query.pop("start_time", None)
        query.pop("end_time", None)
    if path == "/v1/options/trades":
        if "underlying_symbol" in query:
            query.pop("underlying_symbols", None)
        elif "underlying_symbols" not in query:
            query["underlying_symbol"] = "SPX"
    if path == "/v1/options/flow/leaders":
        grain = query.get("grain", "root")
        if grain != "contract":
            query.pop("underlying_symbols", None)
        if grain in LEADER_SORTS and "sort" in query and query["sort"] not in LEADER_SORTS[grain]:
            del query["sort"]
    if path == "/v1/options/contract/implied-volatility" and "date" in query:
        query.pop("start_time", None)
        query.pop("end_time", None)
    if path.startswith("/v1/options/contract/") and _number(query.get("strike")):
        query["strike"] = max(0.001, round(query["strike"], 3))
    _ordered(query)
    return query
