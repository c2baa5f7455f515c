"""The requests the SDK builds, without a server: httpx's MockTransport answers in place of the service."""

from __future__ import annotations

import datetime as dt
import json
import re
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import httpx
import pytest
import yaml

from oads_sdk import Limiter, Oads, OadsError
from oads_sdk.generated.models import AccountResponse, ContractType, OptionPrint
from oads_sdk.generated.operations import OPERATIONS


def client_answering(handler, **options: object) -> tuple[Oads, list[httpx.Request], list[float]]:
    """A client whose requests the handler answers; its limiter is off unless limits= is given (the
    tests count every request sent)."""
    seen: list[httpx.Request] = []
    slept: list[float] = []
    lock = threading.Lock()

    def record(request: httpx.Request) -> httpx.Response:
        with lock:
            seen.append(request)
            count = len(seen)
        return handler(request, count)

    oads = Oads(api_key="oads_test", base_url="http://oads.test", sleep=slept.append, **{"limits": False, **options})
    oads._client.set_httpx_client(
        httpx.Client(base_url="http://oads.test", transport=httpx.MockTransport(record), headers={"Authorization": "Bearer oads_test"})
    )
    return oads, seen, slept


def ok(_: httpx.Request, __: int) -> httpx.Response:
    return httpx.Response(200, json={"data": [], "pagination": {"next_cursor_id": None}})


def test_lists_go_repeated_and_only_given_parameters_are_sent() -> None:
    # The generator's own form (the service takes it as well as the comma-separated one).
    oads, seen, _ = client_answering(ok)
    oads.list_option_trades(underlying_symbol="SPY", side=["ask", "above_ask"], exchange=["cboe", "ise"])
    query = seen[0].url.params
    assert query.get_list("side") == ["ask", "above_ask"]
    assert query.get_list("exchange") == ["cboe", "ise"]
    assert sorted(query.keys()) == ["exchange", "side", "underlying_symbol"]
    assert seen[0].headers["authorization"] == "Bearer oads_test"


def test_aware_datetimes_become_unix_ms_and_naive_ones_are_refused() -> None:
    oads, seen, _ = client_answering(ok)
    start = dt.datetime(2026, 11, 20, 9, 30, 0, 250_000, tzinfo=dt.timezone(dt.timedelta(hours=-5)))
    oads.list_option_trades(underlying_symbol="SPY", start_time=start, date=dt.date(2026, 11, 20))
    # 2026-11-20T14:30:00.250Z: 56 years of 365 days, 14 leap days and 323 days into 2026 after the
    # epoch (20,777 days), then 52,200.25 s into the day.
    assert seen[0].url.params["start_time"] == str((56 * 365 + 14 + 323) * 86_400_000 + 52_200_250)
    assert seen[0].url.params["date"] == "2026-11-20"
    with pytest.raises(ValueError, match="naive datetime"):
        oads.list_option_trades(underlying_symbol="SPY", end_time=dt.datetime(2026, 11, 20, 15, 0))
    assert len(seen) == 1


def test_unknown_and_missing_parameters_are_refused_before_sending() -> None:
    oads, seen, _ = client_answering(ok)
    with pytest.raises(TypeError, match="underlying"):
        oads.list_option_trades(underlying="SPY")  # the contract's name is underlying_symbol
    with pytest.raises(TypeError, match="unknown parameter.*underlying"):
        oads.call("list_option_trades", underlying="SPY")
    with pytest.raises(TypeError, match="missing required parameter.*id"):
        oads.call("get_export")
    with pytest.raises(ValueError, match="'sideways' is not a valid"):
        oads.list_option_trades(side=["sideways"])
    assert seen == []


def test_every_operation_of_the_contract_is_a_method() -> None:
    contract = yaml.safe_load((Path(__file__).parents[3] / "openapi" / "v1.yaml").read_text(encoding="utf-8"))
    operation_ids = [
        operation["operationId"]
        for item in contract["paths"].values()
        for operation in item.values()
        if isinstance(operation, dict) and "operationId" in operation
    ]
    snake = {re.sub(r"(?<=[a-z0-9])([A-Z])", r"_\1", operation_id).lower() for operation_id in operation_ids}
    assert len(snake) == len(operation_ids) > 20
    assert snake == set(OPERATIONS)
    assert all(callable(getattr(Oads, name, None)) for name in snake)


def test_429_and_503_are_retried_after_retry_after_then_surface() -> None:
    def busy(_: httpx.Request, count: int) -> httpx.Response:
        if count <= 2:
            return httpx.Response(
                429 if count == 1 else 503,
                headers={"Retry-After": str(count)},
                json={"error": {"code": "rate_limited", "message": "slow down", "status": 429, "request_id": "r", "details": [], "retry_after_ms": 1000}},
            )
        return httpx.Response(200, json={"data": {"id": "acct_1"}})

    oads, seen, slept = client_answering(busy)
    assert oads.get_account() == {"data": {"id": "acct_1"}}
    assert slept == [1.0, 2.0]
    assert oads.retries == 2

    def always(_: httpx.Request, __: int) -> httpx.Response:
        return httpx.Response(
            429,
            headers={"Retry-After": "1"},
            json={"error": {"code": "burst_limited", "message": "m", "status": 429, "request_id": "r", "details": [], "retry_after_ms": 1000}},
        )

    oads, seen, slept = client_answering(always)
    with pytest.raises(OadsError) as error:
        oads.get_account()
    assert (error.value.status, error.value.code, error.value.retry_after, error.value.request_id) == (429, "burst_limited", 1.0, "r")
    assert len(seen) == 1 + oads.max_retries


def test_pages_follow_the_cursor_until_null() -> None:
    def paged(request: httpx.Request, count: int) -> httpx.Response:
        cursor = request.url.params.get("cursor_id")
        assert cursor == (None if count == 1 else f"c{count - 1}")
        return httpx.Response(200, json={"data": [count], "pagination": {"next_cursor_id": f"c{count}" if count < 3 else None}})

    oads, _seen, _ = client_answering(paged)
    assert [page["data"] for page in oads.pages("list_stock_splits")] == [[1], [2], [3]]
    with pytest.raises(ValueError, match="not a paginated operation"):
        next(oads.pages("get_account"))


def test_export_body_timestamps_follow_the_target_route() -> None:
    def export(request: httpx.Request, count: int) -> httpx.Response:
        if request.method == "POST":
            body = json.loads(request.content)
            assert body == {
                "path": "/v1/options/trades",
                "query": {"underlying_symbol": "SPY", "start_time": 1795185000000, "date": "2026-11-20", "side": ["ask", "mid"]},
            }
            return httpx.Response(202, json={"data": {"id": "exp_1", "status": "queued"}, "meta": {}})
        if request.url.path.endswith("/download"):
            return httpx.Response(200, json={"data": [1, 2], "truncated": False})
        return httpx.Response(200, json={"data": {"id": "exp_1", "status": "ready" if count > 2 else "queued"}, "meta": {}})

    oads, seen, _ = client_answering(export)
    start = dt.datetime(2026, 11, 20, 14, 30, tzinfo=dt.UTC)
    file = oads.run_export(
        {"path": "/v1/options/trades", "query": {"underlying_symbol": "SPY", "start_time": start, "date": dt.date(2026, 11, 20), "side": ["ask", "mid"]}}
    )
    assert file == {"data": [1, 2], "truncated": False}
    assert [request.url.path for request in seen] == ["/v1/exports", "/v1/exports/exp_1", "/v1/exports/exp_1", "/v1/exports/exp_1/download"]


def test_a_get_without_an_answer_is_retried_with_backoff_but_a_post_is_not() -> None:
    def refused_twice(request: httpx.Request, count: int) -> httpx.Response:
        if count <= 2:
            raise httpx.ConnectError("connection refused", request=request)
        return httpx.Response(200, json={"data": {"id": "acct_1"}})

    oads, seen, slept = client_answering(refused_twice)
    assert oads.get_account() == {"data": {"id": "acct_1"}}
    assert len(seen) == 3 and oads.retries == 2
    assert len(slept) == 2 and 0 <= slept[0] <= 0.5 and 0 <= slept[1] <= 1.0

    oads, seen, slept = client_answering(refused_twice)
    with pytest.raises(httpx.ConnectError):
        oads.create_export({"path": "/v1/options/trades", "query": {"underlying_symbol": "SPY"}})
    assert [r.method for r in seen] == ["POST"] and slept == []

    def never(request: httpx.Request, _: int) -> httpx.Response:
        raise httpx.ReadError("connection reset", request=request)

    oads, seen, slept = client_answering(never)
    with pytest.raises(httpx.ReadError):
        oads.get_account()
    assert len(seen) == 1 + oads.max_retries


LIMITS = {
    "requests_per_minute": 250,
    "requests_per_second": 30,
    "requests_in_flight": 3,
    "keyless_requests_per_minute": 60,
    "endpoint_timeout_ms": 20000,
    "exports_queued_or_running": 5,
    "export_max_rows": 100000,
    "export_max_bytes": 67108864,
    "export_max_query_params": 32,
    "export_bytes_held_max": 1073741824,
}


def test_the_limiter_reads_the_account_once_and_keeps_its_in_flight_limit_across_threads() -> None:
    open_now = 0
    most = 0
    lock = threading.Lock()

    def answer(request: httpx.Request, _: int) -> httpx.Response:
        nonlocal open_now, most
        if request.url.path == "/v1/account/limits":
            return httpx.Response(200, json={"data": {"limits": LIMITS}})
        with lock:
            open_now += 1
            most = max(most, open_now)
        time.sleep(0.02)
        with lock:
            open_now -= 1
        return httpx.Response(200, json={"data": {"id": "acct_1"}})

    oads, seen, _ = client_answering(answer, limits=None)
    with ThreadPoolExecutor(max_workers=12) as pool:
        answers = list(pool.map(lambda _: oads.get_account(), range(12)))
    assert answers == [{"data": {"id": "acct_1"}}] * 12
    assert [request.url.path for request in seen].count("/v1/account/limits") == 1
    assert seen[0].url.path == "/v1/account/limits"
    assert most == 3
    assert oads.limiter is not None and oads.limiter.limits() == {"in_flight": 3, "per_second": 30, "per_minute": 250}
    # A limit given is kept without asking; None turns one off.
    oads, seen, _ = client_answering(answer, limits={"in_flight": 1, "per_second": None, "per_minute": None})
    oads.get_account()
    assert [request.url.path for request in seen] == ["/v1/account"]
    with pytest.raises(TypeError, match="unknown burst"):
        Oads(api_key="k", limits={"burst": 3})


def test_the_limiter_spaces_starts_beyond_the_per_second_window() -> None:
    limiter = Limiter(in_flight=None, per_second=2, per_minute=None)
    starts: list[float] = []
    for _ in range(3):
        with limiter.place():
            starts.append(time.monotonic())
    assert starts[1] - starts[0] < 0.5
    assert starts[2] - starts[0] >= 1.0  # the first left the window a second (and its margin) after its answer
    # GET /v1/account/limits spends no window place.
    began = time.monotonic()
    with limiter.place(consume=False):
        assert time.monotonic() - began < 0.5


# The contract's response examples (captured from the service): real bodies for the models to read.
EXAMPLES = Path(__file__).resolve().parents[3] / "openapi" / "examples"


def test_typed_returns_the_generated_models() -> None:
    def answer(request: httpx.Request, _: int) -> httpx.Response:
        if request.url.path == "/v1/options/trades":
            return httpx.Response(200, json=json.loads((EXAMPLES / "listOptionTrades.json").read_text()))
        return httpx.Response(200, json=json.loads((EXAMPLES / "getAccount.json").read_text()))

    oads, _, _ = client_answering(answer, typed=True)
    page = oads.list_option_trades(underlying_symbol="SPY", limit=2)
    assert isinstance(page.data[0], OptionPrint)
    assert isinstance(page.data[0].contract_type, ContractType)
    assert isinstance(page.data[0].date_of_expiry, dt.date)
    assert page.data[0].id == json.loads((EXAMPLES / "listOptionTrades.json").read_text())["data"][0]["id"]
    assert isinstance(oads.get_account(), AccountResponse)
    # pages() follows the typed page's cursor (the mock answers the same page, with a cursor, each time).
    pages = oads.pages("list_option_trades", underlying_symbol="SPY", limit=2)
    first, second = next(pages), next(pages)
    assert type(first).__name__ == "PrintPage" and first.pagination.next_cursor_id
    assert second.data[0].id == first.data[0].id
