"""The SDK against a live service (run by test/integration/sdk-python.test.ts, which starts the
service with a loaded market and passes, in the environment: OADS_BASE_URL, OADS_API_KEY,
OADS_BURST_KEY (an account of its own for the rate-limit test), OADS_DATE (a loaded session),
OADS_PER_SECOND (the service's per-second limit) and OADS_RESULT (a file for the walked ids, which the
vitest test compares with the store)."""

from __future__ import annotations

import datetime as dt
import io
import json
import os
from pathlib import Path

import pytest

from oads_sdk import Oads, OadsError

pytestmark = pytest.mark.skipif("OADS_BASE_URL" not in os.environ, reason="needs a live service (test/integration/sdk-python.test.ts)")

ASK_SIDE = {"at_ask", "near_ask", "above_ask"}  # side=ask selects at_ask and near_ask (the contract)


@pytest.fixture(scope="module")
def oads() -> Oads:
    with Oads(api_key=os.environ["OADS_API_KEY"], base_url=os.environ["OADS_BASE_URL"]) as client:
        yield client


def record(key: str, value: object) -> None:
    path = Path(os.environ["OADS_RESULT"])
    results = json.loads(path.read_text()) if path.exists() and path.stat().st_size else {}
    results[key] = value
    path.write_text(json.dumps(results))


def test_three_trades_pages_by_cursor_with_a_list_filter(oads: Oads) -> None:
    pages = []
    for page in oads.pages("list_option_trades", underlying_symbol="SPY", date=os.environ["OADS_DATE"], side=["ask", "above_ask"], limit=25):
        pages.append(page)
        if len(pages) == 3:
            break
    assert len(pages) == 3
    rows = [row for page in pages for row in page["data"]]
    assert [len(page["data"]) for page in pages] == [25, 25, 25]
    assert all(page["pagination"]["has_more"] for page in pages)
    assert {row["side"] for row in rows} <= ASK_SIDE
    assert {row["underlying_symbol"] for row in rows} == {"SPY"}
    ids = [row["id"] for row in rows]
    assert len(set(ids)) == len(ids)
    record("trades", ids)


def test_a_direct_call_matches_the_first_page(oads: Oads) -> None:
    page = oads.list_option_trades(underlying_symbol="SPY", date=os.environ["OADS_DATE"], side=("ask", "above_ask"), limit=25)
    walked = json.loads(Path(os.environ["OADS_RESULT"]).read_text())["trades"]
    assert [row["id"] for row in page["data"]] == walked[:25]


def test_aware_datetimes_bound_the_window(oads: Oads) -> None:
    day = dt.date.fromisoformat(os.environ["OADS_DATE"])
    new_york = dt.timezone(dt.timedelta(hours=-5))  # EST on the loaded November dates
    start = dt.datetime.combine(day, dt.time(10, 0), new_york)
    end = dt.datetime.combine(day, dt.time(10, 30), new_york)
    page = oads.list_option_trades(underlying_symbol="SPY", date=day, start_time=start, end_time=end, limit=500)
    stamps = [row["timestamp"] for row in page["data"]]
    assert stamps
    assert min(stamps) >= int(start.timestamp() * 1000)
    assert max(stamps) < int(end.timestamp() * 1000)
    with pytest.raises(ValueError, match="start_time: a naive datetime"):
        oads.list_option_trades(underlying_symbol="SPY", start_time=dt.datetime(2026, 11, 20, 15, 0))


def test_a_429_is_retried_after_retry_after() -> None:
    # Requests one after another until the per-second limit refuses one (a loaded machine may be
    # slow enough that the first few fit in separate seconds); bounded.
    attempts = 10 * int(os.environ["OADS_PER_SECOND"])
    key, base_url = os.environ["OADS_BURST_KEY"], os.environ["OADS_BASE_URL"]
    # The client-side limiter is off in this test: it would keep the service from refusing any.
    with Oads(api_key=key, base_url=base_url, max_retries=0, limits=False) as impatient, pytest.raises(OadsError) as refused:
        for _ in range(attempts):
            impatient.get_account()
    assert refused.value.status == 429
    assert refused.value.code in ("burst_limited", "rate_limited")
    assert refused.value.retry_after is not None and 0 < refused.value.retry_after <= 2
    with Oads(api_key=key, base_url=base_url, limits=False) as patient:
        accounts = set()
        for _ in range(attempts):
            accounts.add(patient.get_account()["data"]["id"])
            if patient.retries:
                break
    assert len(accounts) == 1
    assert patient.retries >= 1
    print(f"retried 429: {patient.retries}")


def test_an_export_runs_to_ready_and_is_downloaded(oads: Oads) -> None:
    day = dt.date.fromisoformat(os.environ["OADS_DATE"])
    start = dt.datetime.combine(day, dt.time(15, 0), dt.UTC)
    file = oads.run_export(
        {"path": "/v1/options/trades", "query": {"underlying_symbol": "SPY", "date": day, "side": ["ask", "above_ask"], "start_time": start, "limit": 40}}
    )
    rows = file["data"]
    assert len(rows) == 40
    assert file["truncated"] is True
    assert {row["side"] for row in rows} <= ASK_SIDE
    assert min(row["timestamp"] for row in rows) >= int(start.timestamp() * 1000)
    record("export", [row["id"] for row in rows])

    # The same export as Parquet: run_export gives the file's bytes, which pyarrow reads.
    parquet = oads.run_export(
        {
            "path": "/v1/options/trades",
            "query": {"underlying_symbol": "SPY", "date": day, "side": ["ask", "above_ask"], "start_time": start, "limit": 40},
            "format": "parquet",
        }
    )
    pyarrow_parquet = pytest.importorskip("pyarrow.parquet")
    table = pyarrow_parquet.read_table(io.BytesIO(parquet))
    assert table.num_rows == 40
    assert table.column("id").to_pylist() == [row["id"] for row in rows]
    assert str(table.schema.field("timestamp").type) == "timestamp[us, tz=UTC]"


def test_a_422_and_a_400_are_oads_errors(oads: Oads) -> None:
    with pytest.raises(OadsError) as no_data:
        oads.list_option_trades(underlying_symbol="NOPE", date=os.environ["OADS_DATE"])
    assert (no_data.value.status, no_data.value.code, no_data.value.details) == (422, "no_data", [])
    assert no_data.value.message

    with pytest.raises(OadsError) as invalid:
        oads.list_option_trades(underlying_symbol="SPY", limit=0, min_dte=-1)
    assert (invalid.value.status, invalid.value.code) == (400, "invalid_parameter")
    assert {detail["parameter"] for detail in invalid.value.details} == {"limit", "min_dte"}
    assert invalid.value.retry_after is None
    print(f"errors: {no_data.value.status} {no_data.value.code}; {invalid.value.status} {invalid.value.code}")
