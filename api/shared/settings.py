"""Every setting of the service, ``bulk`` and the command line, in one object.

``Settings`` (pydantic-settings) reads the ``RUMMY_SOLVER_*`` environment
variables once -- ``current()`` for the process, ``Settings()`` for a fresh
read -- and is passed to whatever needs a limit.  The engine part is handed
to the library (``solver.config.configure``), whose own defaults are the
defaults here, so the library, the API, ``bulk`` and the CLI share one set of
names and values.  README's "Settings" table is generated from these fields
(``settings_table()``; a test keeps it in sync).

A bad value stops the process at start with a ``SettingsError`` naming the
variable, never a request.  No other module of ``api`` reads the environment;
``export`` is how a process hands its settings to the processes it starts
(``rummy-solver serve``'s uvicorn workers read theirs from the environment).
"""

from __future__ import annotations

import functools
import os
from typing import TYPE_CHECKING, Annotated, Any, Literal
from urllib.parse import urlsplit, urlunsplit

from pydantic import AfterValidator, AliasChoices, BeforeValidator, Field, ValidationError, model_validator
from pydantic_settings import BaseSettings, SettingsConfigDict

from api.shared.logs import LOG_LEVELS
from solver.config import BOUNDS, DEFAULTS, MAX_REQUEST_BUDGET_MS, MAX_TIME_LIMIT_MS, configure
from solver.rules import MAX_HAND_CARDS

if TYPE_CHECKING:
    from limits import RateLimitItem

ENV_PREFIX = "RUMMY_SOLVER_"


class SettingsError(ValueError):
    """An environment variable holds a value the process cannot run with."""


def _whole_number(value: object) -> object:
    """``"2_000"`` and ``" 2000 "`` read as 2000 (environment values are text)."""
    if isinstance(value, str):
        return value.strip().replace("_", "")
    return value


Count = Annotated[int, BeforeValidator(_whole_number)]


def _word(value: object) -> object:
    """``" Closed "`` reads as ``closed``."""
    return value.strip().lower() if isinstance(value, str) else value


def _log_level(value: str) -> str:
    level = value.strip().lower()
    if level not in LOG_LEVELS:
        raise ValueError(f"choose one of {', '.join(LOG_LEVELS)}")
    return level


def _rate_or_off(value: str) -> str:
    """A rate, or empty for none."""
    return _rate(value) if value.strip() else ""


def _rate(value: str) -> str:
    parse_rate(value)
    return value.strip()


def parse_rate(value: str) -> RateLimitItem:
    """A rate in the ``limits`` notation, of at least one request; else
    ``ValueError`` saying what a rate is (a rate of 0 would refuse every
    request, each with a ``Retry-After`` that never comes true)."""
    from limits import parse

    try:
        rate = parse(value)
    except ValueError:
        raise ValueError("a rate such as 100/second or 6000 per minute") from None
    if rate.amount < 1:
        raise ValueError("a rate of at least 1 request (0 would refuse every one)")
    return rate


def _secret(value: str) -> str:
    if value and len(value) < 16:
        raise ValueError("at least 16 characters (or empty, to derive it from the keys)")
    return value


REDIS_SCHEMES = ("redis", "rediss", "redis+unix")
"""The Redis URLs the rate limits can count in: TCP, TLS, a Unix socket."""
REDIS_PORT = 6379


def _redis_url(value: str) -> str:
    """A Redis URL the rate limiter can open, or empty for none: the scheme
    lower-cased and Redis' own port where none is given (the counter's
    library wants one).

    >>> _redis_url("REDIS://cache/0"), _redis_url(" redis+unix:///run/redis.sock ")
    ('redis://cache:6379/0', 'redis+unix:///run/redis.sock')
    """
    url = value.strip()
    if not url:
        return ""
    parts = urlsplit(url)
    scheme = parts.scheme.lower()
    if scheme not in REDIS_SCHEMES:
        raise ValueError("a Redis URL: redis://host:6379/0, rediss://host:6380/0 (TLS) or "
                         "redis+unix:///path/to/redis.sock")
    if scheme == "redis+unix":
        if not parts.path:
            raise ValueError("redis+unix:// needs the socket's path (redis+unix:///run/redis.sock)")
        return f"{scheme}://{url.split('://', 1)[1]}"
    try:
        port = parts.port
    except ValueError:
        raise ValueError("its port is not a number from 0 to 65535") from None
    if not parts.hostname:
        raise ValueError("it names no host (redis://host:6379/0)")
    database = parts.path.strip("/")
    if database and not database.isdigit():
        raise ValueError(f"its database is a number (redis://host:6379/0), not {database!r}")
    netloc = parts.netloc if port is not None else f"{parts.netloc}:{REDIS_PORT}"
    return urlunsplit(parts._replace(scheme=scheme, netloc=netloc))


NOT_PRINTABLE_KEY = ("holds a character that is not printable ASCII (keys are sent in a "
                     "header: letters, digits and punctuation)")


def printable_key(key: str) -> bool:
    """Whether ``key`` can be an API key: printable ASCII only, as a header
    carries it (a key of other characters could never be matched).

    >>> printable_key("k3y-0f_the.studio"), printable_key("clé")
    (True, False)
    """
    return all(" " <= c <= "~" for c in key)


def _api_keys(value: str) -> str:
    """Comma-separated keys, each ``printable_key``."""
    for number, key in enumerate(value.split(","), 1):
        if not printable_key(key.strip()):
            raise ValueError(f"key {number} {NOT_PRINTABLE_KEY}")
    return value


SECRET_FIELDS = frozenset({"api_keys", "key_id_secret"})
"""Settings whose value an error message never repeats."""


def shown(field: str, value: object) -> str:
    """How an error message shows the value of setting ``field``: secrets
    hidden, a URL's password masked.

    >>> shown("redis_url", "redis://:hunter2@cache:6379/0")
    "'redis://:***@cache:6379/0'"
    >>> shown("api_keys", "k1,k2")
    '(hidden)'
    """
    if field in SECRET_FIELDS:
        return "(hidden)"
    if field == "redis_url" and isinstance(value, str):
        netloc = urlsplit(value).netloc if "://" in value else ""
        if "@" in netloc:
            credentials, _, host = netloc.rpartition("@")
            user = credentials.partition(":")[0]
            value = value.replace(netloc, f"{user}:***@{host}", 1)
    return repr(value)


def _env(name: str, *old: str) -> Any:
    """The field's variable, and older names still read (the current one wins)."""
    return AliasChoices(ENV_PREFIX + name.upper(), *(ENV_PREFIX + o for o in old))


class Settings(BaseSettings):
    """Limits that keep every request bounded in size, time and memory, and how
    the service runs.  Each field is read from ``RUMMY_SOLVER_<FIELD>``."""

    model_config = SettingsConfigDict(env_prefix=ENV_PREFIX, frozen=True, extra="ignore",
                                      populate_by_name=True, validate_default=True)

    max_hand_cards: Count = Field(
        default=MAX_HAND_CARDS, ge=1, le=MAX_HAND_CARDS,
        description="cards in a hand (validate: melds + deadwood)")
    max_batch: Count = Field(default=1000, ge=1, le=100_000, description="hands in one batch")
    default_time_limit_ms: Count = Field(
        default=DEFAULTS.default_time_limit_ms, ge=1, le=MAX_TIME_LIMIT_MS,
        validation_alias=_env("default_time_limit_ms", "TIME_LIMIT_MS"),
        description="a solve's deadline when it gives none (old name "
                    "RUMMY_SOLVER_TIME_LIMIT_MS still read)")
    max_time_limit_ms: Count = Field(default=2000, ge=1, le=MAX_TIME_LIMIT_MS,
                                     description="the largest time_limit_ms of a solve")
    request_budget_ms: Count = Field(
        default=DEFAULTS.request_budget_ms, ge=1, le=MAX_REQUEST_BUDGET_MS,
        validation_alias=_env("request_budget_ms", "BATCH_BUDGET_MS"),
        description="deadline of batches, play and advice requests, and their largest "
                    "time_limit_ms (old name RUMMY_SOLVER_BATCH_BUDGET_MS still read)")
    max_body_bytes: Count = Field(default=1_000_000, ge=1, le=1 << 30,
                                  description="request body size (413 above); a stream's line size")
    max_header_bytes: Count = Field(default=32 * 1024, ge=1024, le=1 << 24, description=(
        "bytes of a request's head, its request line and every header (431 above, refused as "
        "they arrive)"))
    max_headers: Count = Field(default=100, ge=1, le=10_000,
                               description="headers in one request (431 above)")
    max_stream_bytes: Count = Field(default=64 * 1024 * 1024, ge=1, le=1 << 40,
                                    description="bytes one /v1/solve/stream request may send")
    max_stream_s: Count = Field(default=600, ge=1, le=86_400,
                                description="seconds one /v1/solve/stream request may run")
    processes: Count = Field(default=3, ge=0, le=64, description=(
        "solver processes per uvicorn worker (0: threads, for embedding); the last free one "
        "is kept for a client running nothing, so 3 lets two long clients run beside everyone "
        "else"))
    queue_size: Count = Field(default=1024, ge=1, le=100_000, description=(
        "requests waiting per worker at most: when full, a request that would start before the "
        "last one waiting takes its place (the newest of the client with most waiting, then "
        "refused), else it is refused; a request is refused sooner when the work ahead of it "
        "would pass its deadline"))
    drain_s: Count = Field(default=10, ge=1, le=3600, description=(
        "seconds to drain on SIGTERM; a request still in flight then gets a 503 (a stream: a "
        "last error line)"))
    body_timeout_s: Count = Field(default=10, ge=1, le=3600, description=(
        "seconds from a request's arrival for its whole body to arrive (408 after); not "
        "/v1/solve/stream"))
    connection_max_s: Count = Field(default=5, ge=0, le=86_400, description=(
        "the longest a keep-alive connection lives: it is closed after its next answer once "
        "its lifetime, spread from half of this to this, is up (a pool opened at once does not "
        "reconnect at once), so clients spread over the workers again (0: never)"))
    access_log_per_s: Count = Field(default=100, ge=0, le=1_000_000, description=(
        "access-log lines per second per worker at most; the requests left out are counted in "
        "a summary line every 10 s (0: a line per request)"))
    recycle_tasks: Count = Field(default=5000, ge=1, le=10**9,
                                 description="a solver process is replaced after this many requests")
    recycle_rss_mb: Count = Field(default=768, ge=1, le=1 << 20,
                                  description="... or once it holds this much memory (MB)")
    api_keys: Annotated[str, AfterValidator(_api_keys)] = Field(default="", description=(
        "comma-separated API keys; when set (or a key file), every /v1 request needs one "
        "(Authorization: Bearer KEY or X-API-Key: KEY); never logged"))
    api_keys_file: str = Field(default="", description=(
        "a file of keys, one SHA-256 hex digest a line and an optional rate (python -m api.server.keys "
        "KEY prints the line)"))
    key_id_secret: Annotated[str, AfterValidator(_secret)] = Field(default="", description=(
        "the secret (16 characters or more) under which a key's id in logs and Redis is an "
        "HMAC of the key, so an id cannot be tried against guessed keys; empty: derived from "
        "the configured keys (stable while they are; set it when replicas share Redis)"))
    rate_limit: Annotated[str, AfterValidator(_rate)] = Field(
        default="1000/second", description="each key's rate limit where the file gives none "
                                           "(limits notation: 100/second, 6000 per minute)")
    auth_failure_limit: Annotated[str, AfterValidator(_rate)] = Field(
        default="10/minute", description=(
            "requests with an unknown API key one client address (an IPv6 /64) may make; past "
            "it every keyed request from there gets 429 too_many_failed_keys, its key unchecked, "
            "until the window allows again (other addresses are not affected)"))
    forwarded_allow_ips: str = Field(
        default="127.0.0.1,::1", validation_alias=AliasChoices("FORWARDED_ALLOW_IPS"),
        description=(
            "proxies whose X-Forwarded-For gives the client address (uvicorn's own variable, no "
            "prefix; addresses or networks such as 10.0.0.0/8): behind a proxy, list it, or every "
            "client is the proxy's address to RUMMY_SOLVER_AUTH_FAILURE_LIMIT; * trusts what any "
            "client writes, so only where no client reaches the service but through the proxy"))
    redis_url: Annotated[str, AfterValidator(_redis_url)] = Field(default="", description=(
        "Redis that counts the rate limits across workers and replicas (redis://host:6379/0, "
        "rediss:// for TLS, redis+unix:///path for a socket; a password as "
        "redis://:PASSWORD@host:6379/0); empty: each worker counts in memory"))
    redis_connect_timeout_ms: Count = Field(default=50, ge=1, le=60_000, description=(
        "the longest a rate limit check waits to connect to Redis"))
    redis_timeout_ms: Count = Field(default=50, ge=1, le=60_000, description=(
        "the longest a rate limit check waits for Redis to answer a command (no retry); past "
        "either, RUMMY_SOLVER_RATE_LIMIT_FAIL applies and Redis is left alone for a second"))
    redis_pool_size: Count = Field(default=8, ge=1, le=1000, description=(
        "connections to Redis each worker holds for the rate limit checks, opened at start; "
        "a burst of checks waits for a free one (a wait not counted in the timeouts, at most "
        "a second, then the fail policy) rather than opening more"))
    rate_limit_fail: Annotated[Literal["open", "closed"], BeforeValidator(_word)] = Field(
        default="open", description=(
            "when Redis does not answer: open lets keyed requests through uncounted, closed "
            "refuses them (503 rate_limit_unavailable with Retry-After; /readyz then 503 too)"))
    metrics_need_key: bool = Field(default=False, description="/metrics needs an API key too")
    prometheus_multiproc_dir: str = Field(
        default="", validation_alias=AliasChoices("PROMETHEUS_MULTIPROC_DIR"), description=(
            "where the workers keep their Prometheus values for /metrics to add up "
            "(prometheus-client's own variable, no prefix); rummy-solver serve with several "
            "workers makes a fresh directory when it is unset"))
    cors_origins: str = Field(default="", description="comma-separated origins a browser game may call "
                                              "from (* for any); empty: no CORS headers")
    playground_rate: Annotated[str, AfterValidator(_rate_or_off)] = Field(
        default="120/minute", description=(
            "with API keys on: the key-less calls one client address (an IPv6 /64) may make from "
            "the playground's pages (marked X-Playground: 1; only the operations the pages use; "
            "all of them one client of the solvers' fair share); empty: none, the pages ask for "
            "a key"))
    log_level: Annotated[str, AfterValidator(_log_level)] = Field(
        default="info", description=f"log level of every process: {', '.join(LOG_LEVELS)}")
    cpsat_workers: Count = Field(default=DEFAULTS.cpsat_workers, ge=BOUNDS["cpsat_workers"][0],
                                 le=BOUNDS["cpsat_workers"][1],
                                 description="CP-SAT search workers per solve (1: reproducible)")
    node_budget: Count = Field(default=DEFAULTS.node_budget, ge=BOUNDS["node_budget"][0],
                               le=BOUNDS["node_budget"][1],
                               description="ceiling on the search work of one solve")
    auto_search_ms: Count = Field(default=DEFAULTS.auto_search_ms, ge=BOUNDS["auto_search_ms"][0],
                                  le=BOUNDS["auto_search_ms"][1],
                                  description="engine auto: the search's share before CP-SAT")

    @model_validator(mode="after")
    def _consistent(self) -> Settings:
        if self.default_time_limit_ms > self.max_time_limit_ms:
            raise ValueError(
                f"{ENV_PREFIX}DEFAULT_TIME_LIMIT_MS ({self.default_time_limit_ms}) must not "
                f"exceed {ENV_PREFIX}MAX_TIME_LIMIT_MS ({self.max_time_limit_ms})")
        return self

    @property
    def origins(self) -> list[str]:
        """The CORS origins, one per entry."""
        return [o.strip() for o in self.cors_origins.split(",") if o.strip()]

    def engine_values(self) -> dict[str, int]:
        """The part the library runs with (``solver.config``)."""
        return {name: getattr(self, name) for name in BOUNDS}

    def apply_to_engines(self) -> None:
        """Hand the engine settings to the library (once per process)."""
        configure(**self.engine_values())


def load_settings(**overrides: Any) -> Settings:
    """Read the environment (``overrides`` win); ``SettingsError`` naming the
    variable when a value is unusable."""
    try:
        return Settings(**overrides)
    except ValidationError as exc:
        problems = []
        for error in exc.errors(include_url=False):
            field = str(error["loc"][0]) if error["loc"] else ""
            name = variable(field) if field else "settings"
            problems.append(f"{name}: {error['msg']} (got {shown(field, error.get('input'))})"
                            if field else f"{error['msg']}")
        raise SettingsError("; ".join(problems)) from None


def variable(name: str) -> str:
    """The environment variable field ``name`` of ``Settings`` is read from (the
    first of its names, where older ones are read too).

    >>> variable("max_batch"), variable("default_time_limit_ms"), variable("prometheus_multiproc_dir")
    ('RUMMY_SOLVER_MAX_BATCH', 'RUMMY_SOLVER_DEFAULT_TIME_LIMIT_MS', 'PROMETHEUS_MULTIPROC_DIR')
    """
    field = Settings.model_fields.get(name)
    alias = field.validation_alias if field is not None else None
    first = alias.choices[0] if isinstance(alias, AliasChoices) else alias
    return first if isinstance(first, str) else ENV_PREFIX + name.upper()


def export(**values: str) -> None:
    """Put setting values (by field name) into this process's environment, so
    the processes it starts read them into their own ``Settings``."""
    for name, value in values.items():
        if name not in Settings.model_fields:
            raise KeyError(f"no setting {name!r}")
        os.environ[variable(name)] = value


@functools.cache
def current() -> Settings:
    """This process's settings, read from the environment the first time."""
    return load_settings()


def settings_table() -> str:
    """The Markdown table of every setting: variable, default, meaning."""
    rows = ["| variable | default | |", "|---|---|---|"]
    for name, field in Settings.model_fields.items():
        default = field.default if field.default != "" else "(none)"
        if isinstance(default, bool):
            default = str(default).lower()
        elif isinstance(default, int):
            default = f"{default}"
        rows.append(f"| `{variable(name)}` | {default} | {field.description} |")
    return "\n".join(rows)
