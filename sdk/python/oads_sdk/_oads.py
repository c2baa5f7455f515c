"""The hand-written layer over the generated client (oads_sdk.generated): one method per operation
with the contract's parameter names as keyword arguments, aware datetimes for timestamps, the parsed
JSON body as the result (or the generated model, typed=True), retries that honour Retry-After, a
client-side limiter that keeps the account within its limits, a page iterator and the export helper."""

from __future__ import annotations

import contextlib
import datetime as dt
import enum
import importlib
import random
import threading
import time
import types
import typing
from collections import deque
from collections.abc import Callable, Iterator, Mapping
from typing import Any, Final

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


# The contract's default limits, used for any that the account's read could not give.
DEFAULT_LIMITS: Final[dict[str, int]] = {"in_flight": 4, "per_second": 30, "per_minute": 250}
# How much longer than the service's each window is kept, in seconds (for timer and clock granularity).
WINDOW_MARGIN = 0.02
_WINDOWS: Final[tuple[tuple[str, float], ...]] = (("per_second", 1.0), ("per_minute", 60.0))


class Limiter:
    """Keeps one client's requests within its account's limits, across threads: at most in_flight at
    once, and no more than per_second and per_minute within a rolling second or minute. The service
    stamps a request into its windows when it admits it, at a moment between our sending it and our
    reading its answer that is not known here; so a request counts in every window from its start
    while it is unanswered, then from the moment of its answer (no earlier than the service's stamp)
    for the window's span: a new request never meets more than the limit there, however late each
    earlier one arrived. A
    limit given as a number is kept, None turns it off, one left out is read from GET
    /v1/account/limits once, on first use (the contract's defaults if that read fails). Requests wait
    in arrival order. A request that spends nothing in the windows (GET /v1/account/limits itself)
    still takes an in-flight place, as the service counts it. Only this client's requests are counted:
    other clients of the same account share its limits without it knowing."""

    UNSET_LIMIT: Final = object()

    def __init__(
        self,
        in_flight: int | None | object = UNSET_LIMIT,
        per_second: int | None | object = UNSET_LIMIT,
        per_minute: int | None | object = UNSET_LIMIT,
        *,
        read_account: Callable[[], Mapping[str, Any]] | None = None,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self._configured = {"in_flight": in_flight, "per_second": per_second, "per_minute": per_minute}
        for name, value in self._configured.items():
            if value is not Limiter.UNSET_LIMIT and value is not None and not (isinstance(value, int) and value >= 1):
                raise ValueError(f"limits {name} must be a whole number of at least 1, or None")
        self._read_account = read_account
        self._clock = clock
        self._resolved: dict[str, int | None] | None = None
        self._load_lock = threading.Lock()
        self._condition = threading.Condition()
        self._active = 0
        self._pending = 0  # counted requests sent and not answered: in every window until they are
        self._answers: deque[float] = deque()  # when counted requests were answered, oldest first
        self._queue: deque[object] = deque()

    def limits(self) -> dict[str, int | None]:
        """The limits in force: in_flight, per_second, per_minute (read from the account on first use)."""
        with self._load_lock:
            if self._resolved is None:
                self._resolved = self._load()
            return dict(self._resolved)

    def _load(self) -> dict[str, int | None]:
        account: Mapping[str, Any] = {}
        if any(value is Limiter.UNSET_LIMIT for value in self._configured.values()) and self._read_account is not None:
            try:
                account = self._read_account()
            except (OadsError, httpx.HTTPError):
                pass  # the request it protects meets the same fault and reports it; the defaults stand
        names = {"in_flight": "requests_in_flight", "per_second": "requests_per_second", "per_minute": "requests_per_minute"}
        return {
            name: typing.cast(int | None, value) if value is not Limiter.UNSET_LIMIT else int(account.get(names[name], DEFAULT_LIMITS[name]))
            for name, value in self._configured.items()
        }

    @contextlib.contextmanager
    def place(self, consume: bool = True) -> Iterator[None]:
        """Waits for a place for one request, holds it for the block, then gives it back."""
        limits = self.limits()
        ticket = object()
        with self._condition:
            self._queue.append(ticket)
            while True:
                wait = self._admit(limits, consume) if self._queue[0] is ticket else None
                if wait == 0:
                    self._queue.popleft()
                    self._condition.notify_all()
                    break
                self._condition.wait(timeout=wait)
        try:
            yield
        finally:
            with self._condition:
                self._active -= 1
                if consume:
                    self._pending -= 1
                    self._answers.append(self._clock())
                self._condition.notify_all()

    def _admit(self, limits: dict[str, int | None], consume: bool) -> float | None:
        """Takes a place and answers 0, or answers how long to wait (None: until a place is given back)."""
        in_flight = limits["in_flight"]
        if in_flight is not None and self._active >= in_flight:
            return None
        now = self._clock()
        if consume:
            while self._answers and self._answers[0] <= now - 60.0 - WINDOW_MARGIN:
                self._answers.popleft()
            opens_at = now
            for name, span in _WINDOWS:
                limit = limits[name]
                if limit is None:
                    continue
                answered = [at for at in self._answers if at > now - span - WINDOW_MARGIN]
                over = self._pending + len(answered) - limit
                if over < 0:
                    continue
                # The answered leave oldest first; the (over + 1)th to leave makes room, if there is one.
                if over >= len(answered):
                    return None
                opens_at = max(opens_at, answered[over] + span + WINDOW_MARGIN)
            if opens_at > now:
                return opens_at - now
            self._pending += 1
        self._active += 1
        return 0


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

    typed=True returns the generated models (oads_sdk.generated.models, attrs classes with typed
    members: page.data[0].premium) instead of the parsed JSON; the dicts are the default.

    The client keeps its requests within the account's limits by itself (Limiter): on the first
    request it reads GET /v1/account/limits once, then holds each request until it fits the
    account's in-flight, per-second and per-minute limits, so a thread pool's 40 calls at once are
    paced rather than refused with 429 (and a cooldown of the whole account). limits={"in_flight": 2}
    sets one (None turns one off; those left out are read from the account); limits=False turns the
    limiter off. A retry's wait holds no place.
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
        typed: bool = False,
        limits: Mapping[str, int | None] | typing.Literal[False] | None = None,
    ) -> None:
        self._client = AuthenticatedClient(base_url=base_url, token=api_key, timeout=httpx.Timeout(timeout))
        self.typed = typed
        self.limiter: Limiter | None = None
        if limits is not False:
            given = dict(limits or {})
            unknown = sorted(set(given) - set(DEFAULT_LIMITS))
            if unknown:
                raise TypeError(f"limits: unknown {', '.join(unknown)}; known: {', '.join(DEFAULT_LIMITS)}")
            self.limiter = Limiter(**given, read_account=lambda: self._call("get_account_limits", None, {}, typed=False, limited=False)["data"]["limits"])
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
        """One request of an operation (snake-case operationId); the parsed JSON body of the answer
        (the generated model with typed=True)."""
        return self._call(operation, body, params, typed=self.typed)

    def _call(self, operation: str, body: Mapping[str, Any] | None, params: dict[str, Any], *, typed: bool, limited: bool = True) -> JsonBody:
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
        # The routes that need no key count against no account; GET /v1/account/limits takes an in-flight place only.
        limiter = self.limiter if limited and spec.get("secured", True) else None
        response = self._send(get_kwargs(**arguments), limiter, consume=operation != "get_account_limits")
        if typed:
            return module._parse_response(client=self._client, response=response)
        if response.status_code == 204 or not response.content:
            return None
        return response.json()

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

    def _send(self, request: dict[str, Any], limiter: Limiter | None, *, consume: bool) -> httpx.Response:
        """The 2xx answer (read whole) of one request, retrying 429/503 and a GET without an answer; else raises."""
        http = self._client.get_httpx_client()
        attempt = 0
        while True:
            try:
                with limiter.place(consume) if limiter is not None else contextlib.nullcontext():
                    response = http.request(**request)
            except httpx.TransportError:
                if str(request.get("method", "GET")).upper() != "GET" or attempt >= self.max_retries:
                    raise
                self._sleep(min(self.max_retry_wait, random.uniform(0.0, CONNECTION_BACKOFF * 2**attempt)))
                attempt += 1
                self.retries += 1
                continue
            if response.is_success:
                return response
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
            if self.typed:
                cursor = page.pagination.next_cursor_id
            else:
                cursor = (page.get("pagination") or {}).get("next_cursor_id")
            if cursor is None:
                return

    def run_export(self, body: Mapping[str, Any], *, poll_interval: float = 0.5, timeout: float = 600.0) -> JsonBody:
        """Creates an export, polls it until ready, and returns the downloaded file (parsed JSON; with
        typed=True the generated ExportFile, whose data is the route's JSON as it is). With
        "format": "csv" or "parquet" in the body, the file's bytes as sent (gzip-compressed CSV, or
        Parquet: pyarrow.parquet.read_table(io.BytesIO(data)) reads it).
        Raises OadsError (status None, the job's error_code) if the export fails, TimeoutError if it
        is not ready within timeout seconds."""
        job = self._call("create_export", body, {}, typed=False)["data"]
        deadline = time.monotonic() + timeout
        while job["status"] != "ready":
            if job["status"] == "failed":
                raise OadsError(None, str(job.get("error_code", "export_failed")), str(job.get("failure_reason", "The export failed.")))
            if time.monotonic() > deadline:
                raise TimeoutError(f"export {job['id']} not ready after {timeout} s (status {job['status']})")
            self._sleep(poll_interval)
            job = self._call("get_export", None, {"id": job["id"]}, typed=False)["data"]
        if body.get("format") in ("csv", "parquet"):
            download = importlib.import_module(f"{__package__}.generated.api.exports.download_export")
            return self._send(download._get_kwargs(id=job["id"]), self.limiter, consume=True).content
        return self.call("download_export", id=job["id"])
