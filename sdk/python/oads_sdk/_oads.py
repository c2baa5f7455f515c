"""The hand-written layer over the generated client (oads_sdk.generated): one method per operation
with the contract's parameter names as keyword arguments, aware datetimes for timestamps, the parsed
JSON body as the result, retries that honour Retry-After, a page iterator and the export helper."""

from __future__ import annotations

import datetime as dt
import enum
import importlib
import random
import time
import types
import typing
from collections.abc import Callable, Iterator, Mapping
from typing import Any

import httpx

from .generated.client import AuthenticatedClient
from .generated.methods import Operations
from .generated.operations import OPERATIONS
from .generated.types import UNSET, Unset

JsonBody = Any

RETRY_STATUSES = (429, 503)
# Without an answer to go by: the first backoff before a GET is sent again, in seconds (doubled each time).
CONNECTION_BACKOFF = 0.5


class OadsError(Exception):
    """A non-2xx answer (or an export that failed): the API's error code, message and details.

    status: the HTTP status (None for an export that failed after it was accepted);
    code: the error code (invalid_parameter, no_data, rate_limited, ...);
    details: one {"parameter", "message"} per bad parameter on a 400, else empty;
    retry_after: seconds to wait, from Retry-After (429 and 503), else None.
    """

    def __init__(
        self,
        status: int | None,
        code: str,
        message: str,
        details: list[dict[str, Any]] | None = None,
        retry_after: float | None = None,
        request_id: str | None = None,
    ) -> None:
        super().__init__(f"{status} {code}: {message}" if status is not None else f"{code}: {message}")
        self.status = status
        self.code = code
        self.message = message
        self.details = details or []
        self.retry_after = retry_after
        self.request_id = request_id

    @classmethod
    def from_response(cls, response: httpx.Response) -> OadsError:
        retry_after = _retry_after_seconds(response)
        try:
            error = response.json()["error"]
        except (ValueError, KeyError, TypeError):
            return cls(response.status_code, "http_error", response.reason_phrase or "unexpected answer", retry_after=retry_after)
        return cls(
            response.status_code,
            str(error.get("code", "http_error")),
            str(error.get("message", "")),
            list(error.get("details") or []),
            retry_after,
            error.get("request_id"),
        )


def _retry_after_seconds(response: httpx.Response) -> float | None:
    header = response.headers.get("Retry-After")
    if header is None:
        return None
    try:
        return max(0.0, float(header))
    except ValueError:
        return None


EPOCH = dt.datetime(1970, 1, 1, tzinfo=dt.UTC)


def _unix_ms(name: str, value: dt.datetime) -> int:
    return (_aware(name, value) - EPOCH) // dt.timedelta(milliseconds=1)


def _aware(name: str, value: dt.datetime) -> dt.datetime:
    if value.tzinfo is None or value.tzinfo.utcoffset(value) is None:
        raise ValueError(f"{name}: a naive datetime is ambiguous; give a timezone-aware one (e.g. tzinfo=datetime.timezone.utc)")
    return value


def _types_of(hint: object) -> list[object]:
    """The types a parameter accepts, without Unset and None."""
    if typing.get_origin(hint) in (typing.Union, types.UnionType):
        return [arg for arg in typing.get_args(hint) if arg not in (Unset, type(None))]
    return [hint]


def _coerce(name: str, value: object, hint: object, timestamp: str | None) -> object:
    """A keyword argument as the generated _get_kwargs wants it: enums from their values, dates from
    ISO text, lists from any sequence, aware datetimes as Unix ms or ISO text."""
    if timestamp == "unix_ms" and isinstance(value, dt.datetime):
        return _unix_ms(name, value)
    for accepted in _types_of(hint):
        origin = typing.get_origin(accepted)
        if origin is list:
            (item_hint,) = typing.get_args(accepted)
            items = [value] if isinstance(value, (str, bytes)) or not isinstance(value, (list, tuple, set, frozenset)) else list(value)
            return [_coerce(name, item, item_hint, timestamp) for item in items]
        if isinstance(accepted, type) and issubclass(accepted, enum.Enum):
            return value if isinstance(value, accepted) else accepted(value)
        if accepted is dt.datetime:
            if isinstance(value, str):
                value = dt.datetime.fromisoformat(value)
            if isinstance(value, dt.datetime):
                return _aware(name, value)
        if accepted is dt.date:
            if isinstance(value, dt.datetime):
                raise TypeError(f"{name}: a calendar date is expected (datetime.date or 'YYYY-MM-DD'), not a datetime")
            if isinstance(value, str):
                return dt.date.fromisoformat(value)
    return value


class Oads(Operations):
    """Client of the Options Analytics Data Service.

        oads = Oads(api_key=os.environ["OADS_API_KEY"], base_url="http://127.0.0.1:8080")
        page = oads.list_option_trades(underlying_symbol="SPY", side=["ask", "above_ask"], limit=100)

    Every operation of the contract is a method named after its operationId in snake case (from
    oads_sdk.generated.methods), taking its path and query parameters as keyword arguments by their
    contract names (createExport takes the request body) and returning the parsed JSON body. Any
    non-2xx answer raises OadsError.
    429 and 503 answers are retried after their Retry-After, at most max_retries times and only when
    the wait is at most max_retry_wait seconds. A GET that got no answer at all (httpx.TransportError:
    the connection refused or dropped, a timeout) is retried too, at most max_retries times, after a
    backoff of up to 0.5 s doubled each time (full jitter); a POST (create_export) is not, since the
    first may have created the export.
    """

    def __init__(
        self,
        api_key: str,
        base_url: str = "http://127.0.0.1:8080",
        *,
        timeout: float = 30.0,
        max_retries: int = 3,
        max_retry_wait: float = 60.0,
        sleep: Callable[[float], None] = time.sleep,
    ) -> None:
        self._client = AuthenticatedClient(base_url=base_url, token=api_key, timeout=httpx.Timeout(timeout))
        self.max_retries = max_retries
        self.max_retry_wait = max_retry_wait
        self._sleep = sleep
        self.retries = 0  # requests retried so far (429/503 answers, GETs without an answer), for callers who want to know

    def close(self) -> None:
        self._client.get_httpx_client().close()

    def __enter__(self) -> typing.Self:
        return self

    def __exit__(self, *_: object) -> None:
        self.close()

    def call(self, operation: str, body: Mapping[str, Any] | None = None, /, **params: Any) -> JsonBody:
        """One request of an operation (snake-case operationId); the parsed JSON body of the answer."""
        spec = OPERATIONS.get(operation)
        if spec is None:
            raise AttributeError(f"unknown operation {operation!r}; known: {', '.join(sorted(OPERATIONS))}")
        module = importlib.import_module(f"{__package__}.generated.api.{spec['module']}")
        get_kwargs = module._get_kwargs
        hints = typing.get_type_hints(get_kwargs)
        declared = typing.cast(dict[str, tuple[str, bool, bool, str | None]], spec["params"])

        unknown = sorted(set(params) - set(declared))
        if unknown:
            raise TypeError(f"{operation}: unknown parameter(s) {', '.join(unknown)}; the contract's are {', '.join(declared) or 'none'}")
        missing = sorted(name for name, (_, required, _, _) in declared.items() if required and params.get(name) is None)
        if missing:
            raise TypeError(f"{operation}: missing required parameter(s) {', '.join(missing)}")
        # A parameter not given is not sent (UNSET), rather than sent with the generator's default:
        # the service applies the contract's defaults itself, and the request says only what the caller said.
        arguments: dict[str, Any] = {name: UNSET for name, (location, _, _, _) in declared.items() if location == "query"}
        arguments.update((name, _coerce(name, value, hints.get(name), declared[name][3])) for name, value in params.items() if value is not None)
        if spec["body"]:
            if body is None:
                raise TypeError(f"{operation}: the request body is required")
            arguments["body"] = hints["body"].from_dict(self._export_body(body) if operation == "create_export" else dict(body))
        elif body is not None:
            raise TypeError(f"{operation} takes keyword arguments only")
        return self._send(get_kwargs(**arguments))

    def _export_body(self, body: Mapping[str, Any]) -> dict[str, Any]:
        """createExport's body with aware datetimes in its query converted as the target route wants."""
        query = body.get("query")
        if not isinstance(query, Mapping):
            return dict(body)
        target = next(
            (spec for spec in OPERATIONS.values() if spec["method"] == "GET" and spec["path"] == body.get("path")),
            None,
        )
        declared = typing.cast(dict[str, tuple[str, bool, bool, str | None]], target["params"]) if target else {}

        def convert(name: str, value: object) -> object:
            if isinstance(value, (list, tuple)):
                return [convert(name, item) for item in value]
            kind = declared.get(name, (None, None, None, None))[3]
            if isinstance(value, dt.datetime):
                if kind == "unix_ms":
                    return _unix_ms(f"query.{name}", value)
                return _aware(f"query.{name}", value).isoformat()
            if isinstance(value, dt.date):
                return value.isoformat()
            return value

        return {**body, "query": {name: convert(name, value) for name, value in query.items()}}

    def _send(self, request: dict[str, Any]) -> JsonBody:
        http = self._client.get_httpx_client()
        attempt = 0
        while True:
            try:
                response = http.request(**request)
            except httpx.TransportError:
                if str(request.get("method", "GET")).upper() != "GET" or attempt >= self.max_retries:
                    raise
                self._sleep(min(self.max_retry_wait, random.uniform(0.0, CONNECTION_BACKOFF * 2**attempt)))
                attempt += 1
                self.retries += 1
                continue
            if response.is_success:
                if response.status_code == 204 or not response.content:
                    return None
                return response.json()
            error = OadsError.from_response(response)
            wait = error.retry_after if error.retry_after is not None else 1.0
            if response.status_code not in RETRY_STATUSES or attempt >= self.max_retries or wait > self.max_retry_wait:
                raise error
            attempt += 1
            self.retries += 1
            self._sleep(wait)

    def pages(self, operation: str, **params: Any) -> Iterator[JsonBody]:
        """Every page of a paginated operation, following pagination.next_cursor_id until it is null."""
        spec = OPERATIONS.get(operation)
        if spec is None or not spec["paginated"]:
            paginated = sorted(name for name, op in OPERATIONS.items() if op["paginated"])
            raise ValueError(f"{operation!r} is not a paginated operation; these are: {', '.join(paginated)}")
        cursor = params.pop("cursor_id", None)
        while True:
            page = self.call(operation, **params, **({"cursor_id": cursor} if cursor is not None else {}))
            yield page
            cursor = (page.get("pagination") or {}).get("next_cursor_id")
            if cursor is None:
                return

    def run_export(self, body: Mapping[str, Any], *, poll_interval: float = 0.5, timeout: float = 600.0) -> JsonBody:
        """Creates an export, polls it until ready, and returns the downloaded file (parsed JSON).
        Raises OadsError (status None, the job's error_code) if the export fails, TimeoutError if it
        is not ready within timeout seconds."""
        job = self.call("create_export", body)["data"]
        deadline = time.monotonic() + timeout
        while job["status"] != "ready":
            if job["status"] == "failed":
                raise OadsError(None, str(job.get("error_code", "export_failed")), str(job.get("failure_reason", "The export failed.")))
            if time.monotonic() > deadline:
                raise TimeoutError(f"export {job['id']} not ready after {timeout} s (status {job['status']})")
            self._sleep(poll_interval)
            job = self.call("get_export", id=job["id"])["data"]
        return self.call("download_export", id=job["id"])
