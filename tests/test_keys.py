"""API keys and rate limits (api.server.keys, api.server.auth, api.server.rate_limit).

In the app (TestClient, counts in memory) and, where Debian's ``redis-server``
is installed (``.ci/run`` installs it), against a real Redis shared by two
apps, as two workers or replicas would share it.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import hmac
import logging
import os
import shutil
import signal
import socket
import struct
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from concurrent.futures import TimeoutError as FutureTimeout
from contextlib import contextmanager
from pathlib import Path
from typing import Any, TypeVar

import httpx
import pytest
from limits import parse as parse_rate

from api.server.keys import KeyFileError, KeyRing, derived_secret, digest_of, main
from api.server.main import create_app
from api.server.rate_limit import RateLimiter
from api.shared.settings import Settings, SettingsError, load_settings

try:  # Starlette 1.x prefers httpx2 for its TestClient; httpx works the same here.
    import warnings

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        from fastapi.testclient import TestClient
except ImportError:  # pragma: no cover
    raise

HAND = {"variant": "gin", "hand": "AS 2S 3S 7H 7D 7C KD QH 4C 9S"}

T = TypeVar("T")


def make(**settings: Any) -> TestClient:
    """A test client of an app with ``settings``, calling from ``settings["client"]``
    (an address and port) when given."""
    client = settings.pop("client", ("testclient", 50000))
    return TestClient(create_app(Settings(**{"processes": 0, **settings})), client=client)


def test_without_keys_everything_is_open() -> None:
    with make() as client:
        assert client.post("/v1/solve", json=HAND).status_code == 200


def test_a_key_is_needed_and_checked() -> None:
    with make(api_keys="alpha-key, beta-key") as client:
        missing = client.post("/v1/solve", json=HAND)
        assert missing.status_code == 401
        assert missing.json()["detail"][0]["type"] == "unauthorized"
        assert missing.headers["www-authenticate"] == "Bearer"
        wrong = client.post("/v1/solve", json=HAND, headers={"Authorization": "Bearer nope"})
        assert wrong.status_code == 401 and "not known" in wrong.json()["detail"][0]["msg"]
        # the message says what to do, as the missing key's does
        assert "send a key this service was configured with" in wrong.json()["detail"][0]["msg"]
        assert client.post("/v1/solve", json=HAND,
                           headers={"Authorization": "Bearer alpha-key"}).status_code == 200
        assert client.post("/v1/solve", json=HAND,
                           headers={"X-API-Key": "beta-key"}).status_code == 200
        # the variants are /v1 too; the probes, metrics and docs stay open
        assert client.get("/v1/variants").status_code == 401
        for path in ("/healthz", "/readyz", "/metrics", "/openapi.json", "/version"):
            assert client.get(path).status_code == 200, path


def test_a_key_answer_points_at_the_header_that_carried_the_key() -> None:
    """``loc`` is the path to the input at fault (docs/INTEGRATION.md, "Errors"):
    a key sent as ``X-API-Key`` is answered at ``["header", "x-api-key"]``, not
    at the Authorization header the request does not have."""
    with make(api_keys="alpha-key", rate_limit="1/minute") as client:
        def loc(headers: dict[str, str]) -> tuple[int, list[str]]:
            answer = client.post("/v1/solve", json=HAND, headers=headers)
            return answer.status_code, answer.json()["detail"][0]["loc"]

        assert loc({"X-API-Key": "nope"}) == (401, ["header", "x-api-key"])
        assert loc({"Authorization": "Bearer nope"}) == (401, ["header", "authorization"])
        assert loc({}) == (401, ["header", "authorization"])  # no key: where it goes
        assert client.post("/v1/solve", json=HAND,
                           headers={"X-API-Key": "alpha-key"}).status_code == 200
        assert loc({"X-API-Key": "alpha-key"}) == (429, ["header", "x-api-key"])
        assert loc({"Authorization": "Bearer alpha-key"}) == (429, ["header", "authorization"])


def test_openapi_documents_the_key_answers_of_every_v1_operation() -> None:
    """Every ``/v1`` request is checked for its key before its route runs, the
    variants and the stream included: the document lists their 401, 429 and
    503 (``rate_limit_unavailable``) as it does the other operations', so a
    client generated from it expects them."""
    with make(api_keys="alpha-key", rate_limit="1/minute") as client:
        document = client.get("/openapi.json").json()
        for path, operations in document["paths"].items():
            if not path.startswith("/v1/"):
                continue
            for method, operation in operations.items():
                where = f"{method.upper()} {path}"
                assert {"401", "429", "503"} <= set(operation["responses"]), where
                assert "Retry-After" in operation["responses"]["429"]["headers"], where
                assert "Retry-After" in operation["responses"]["503"]["headers"], where
                url = path.replace("{name}", "gin")
                assert client.request(method, url).status_code == 401, where


def test_metrics_can_need_a_key() -> None:
    with make(api_keys="alpha-key", metrics_need_key=True) as client:
        assert client.get("/metrics").status_code == 401
        assert client.get("/metrics", headers={"X-API-Key": "alpha-key"}).status_code == 200


def test_a_keyed_scrape_is_not_metered() -> None:
    """With /metrics behind a key, a scrape does not spend the key's rate: Prometheus
    scrapes every few seconds whatever the key's limit."""
    with make(api_keys="alpha-key", metrics_need_key=True, rate_limit="1/minute") as client:
        headers = {"X-API-Key": "alpha-key"}
        assert [client.get("/metrics", headers=headers).status_code for _ in range(3)] == [200] * 3
        assert client.post("/v1/solve", json=HAND, headers=headers).status_code == 200
        assert client.post("/v1/solve", json=HAND, headers=headers).status_code == 429


def test_an_unknown_callers_body_is_not_read() -> None:
    with make(api_keys="alpha-key", max_body_bytes=100) as client:
        # over the size limit, but refused for its missing key first: never read
        assert client.post("/v1/solve", content=b"x" * 1000).status_code == 401


def test_each_key_has_its_rate(tmp_path: Path) -> None:
    keys = tmp_path / "keys"
    keys.write_text(f"# the slow key\n{digest_of('slow').hex()}  2/minute\n"
                    f"{digest_of('fast').hex()}\n")
    with make(api_keys_file=str(keys), rate_limit="100/minute") as client:
        slow = {"X-API-Key": "slow"}
        assert [client.post("/v1/solve", json=HAND, headers=slow).status_code
                for _ in range(3)] == [200, 200, 429]
        refused = client.post("/v1/solve", json=HAND, headers=slow)
        assert refused.json()["detail"][0]["type"] == "rate_limited"
        assert 1 <= int(refused.headers["retry-after"]) <= 60
        # another key has its own count
        assert client.post("/v1/solve", json=HAND, headers={"X-API-Key": "fast"}).status_code == 200


def test_keys_are_never_logged(caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.INFO)
    with make(api_keys="secret-key-123", access_log_per_s=0) as client:
        client.post("/v1/solve", json=HAND, headers={"X-API-Key": "secret-key-123"})
        client.post("/v1/solve", json=HAND, headers={"X-API-Key": "secret-key-456"})
    text = "\n".join(f"{record.getMessage()} {vars(record)}" for record in caplog.records)
    assert "secret-key" not in text
    ring = KeyRing.load("secret-key-123", "", "10/second")
    known = ring.find("secret-key-123")
    assert known is not None and known.id in text  # the key's id names it


SECRET = "a server secret, 32 characters.."


def _hmac_id(secret: bytes, key: str) -> str:
    """A key's id computed here, independently of ``api.server.keys``."""
    return hmac.new(secret, hashlib.sha256(key.encode()).digest(), hashlib.sha256).hexdigest()[:16]


def test_a_key_id_is_an_hmac_under_the_server_secret(caplog: pytest.LogCaptureFixture) -> None:
    """What names a key in logs and Redis is an HMAC-SHA256 of it under
    ``RUMMY_SOLVER_KEY_ID_SECRET``: not a prefix of its plain hash, which
    anyone could compute for guessed keys (issue 38 item 8); the same in
    every worker with that secret, and another under another secret."""
    caplog.set_level(logging.INFO)
    with make(api_keys="weak-key", key_id_secret=SECRET, access_log_per_s=0) as first, \
            make(api_keys="weak-key", key_id_secret=SECRET, access_log_per_s=0) as second:
        for client in (first, second):
            assert client.post("/v1/solve", json=HAND,
                               headers={"X-API-Key": "weak-key"}).status_code == 200
    logged = [vars(record).get("key") for record in caplog.records
              if record.name == "api.access"]
    expected = _hmac_id(SECRET.encode(), "weak-key")
    assert logged == [expected, expected]
    assert digest_of("weak-key").hex()[:12] not in expected
    other = KeyRing.load("weak-key", "", "10/second", "another secret, 16+ chars").find("weak-key")
    assert other is not None and other.id != expected


def test_without_a_secret_ids_are_derived_from_the_keys(tmp_path: Path) -> None:
    """Unset, the secret comes from the configured keys: the same keys name a
    key alike in every worker and after a restart, and the id is still no
    function of the key alone."""
    keys = tmp_path / "keys"
    keys.write_text(f"{digest_of('alpha').hex()}\n{digest_of('beta').hex()}  5/second\n")
    worker = KeyRing.load("", str(keys), "10/second").find("alpha")
    restarted = KeyRing.load("", str(keys), "10/second").find("alpha")
    assert worker is not None and restarted is not None and worker.id == restarted.id
    assert worker.id != digest_of("alpha").hex()[:16]
    assert worker.id == _hmac_id(derived_secret([digest_of("alpha"), digest_of("beta")]),
                                       "alpha")
    alone = KeyRing.load("alpha", "", "10/second").find("alpha")
    assert alone is not None and alone.id != worker.id  # another key set: another secret


def test_a_short_id_secret_is_refused_at_start() -> None:
    with pytest.raises(SettingsError, match=r"KEY_ID_SECRET.*16 characters"):
        load_settings(key_id_secret="short")


def test_the_key_id_command(monkeypatch: pytest.MonkeyPatch,
                            capsys: pytest.CaptureFixture[str]) -> None:
    from api.shared.settings import current

    monkeypatch.setenv("RUMMY_SOLVER_API_KEYS", "alpha,beta")
    monkeypatch.setenv("RUMMY_SOLVER_KEY_ID_SECRET", SECRET)
    current.cache_clear()
    try:
        assert main(["--id", "alpha"]) == 0
        assert capsys.readouterr().out.strip() == _hmac_id(SECRET.encode(), "alpha")
        assert main(["--id", "gamma"]) == 1
        assert "not configured" in capsys.readouterr().err
    finally:
        current.cache_clear()


def test_a_bad_key_file_is_refused_at_start(tmp_path: Path) -> None:
    bad = tmp_path / "keys"
    bad.write_text("not-a-digest\n")
    with pytest.raises(KeyFileError, match="SHA-256"):
        KeyRing.load("", str(bad), "10/second")
    bad.write_text(f"{digest_of('k').hex()} fast\n")
    with pytest.raises(KeyFileError, match="not a rate"):
        KeyRing.load("", str(bad), "10/second")
    with pytest.raises(KeyFileError, match="cannot read"):
        KeyRing.load("", str(tmp_path / "missing"), "10/second")


def test_a_key_file_that_is_not_text_or_lists_a_key_twice_is_refused_at_start(
        tmp_path: Path) -> None:
    """Bytes that are not UTF-8 and a digest on two lines (which rate would
    hold?) name the line; a leading BOM is no line of its own."""
    line = f"{digest_of('k').hex()}  5/second\n"
    keys = tmp_path / "keys"
    keys.write_bytes(line.encode() + b"\xff\xfe bad\n")
    with pytest.raises(KeyFileError, match=r"keys:2: not UTF-8"):
        KeyRing.load("", str(keys), "10/second")
    keys.write_text(line + "# another rate for the same key\n" + line.replace("5/", "9/"))
    with pytest.raises(KeyFileError, match=r"keys:3: the key of line 1 again"):
        KeyRing.load("", str(keys), "10/second")
    keys.write_bytes(b"\xef\xbb\xbf" + line.encode())
    found = KeyRing.load("", str(keys), "10/second").find("k")
    assert found is not None and str(found.rate) == str(parse_rate("5/second"))


@pytest.mark.parametrize("keys", ["cl\u00e9-secret", "ok-key,abc\udcff"])
def test_a_key_that_no_header_can_carry_is_refused_at_start(keys: str) -> None:
    """A key of characters beyond printable ASCII (a header's bytes read as
    Latin-1 never match its UTF-8 digest; bytes that are not UTF-8 arrive as
    surrogates): refused naming the setting, the keys never repeated."""
    with pytest.raises(SettingsError, match=r"API_KEYS: .*not printable ASCII") as refused:
        load_settings(api_keys=keys)
    assert "secret" not in str(refused.value) and "ok-key" not in str(refused.value)
    assert "(hidden)" in str(refused.value)


def test_an_empty_key_file_leaves_the_api_open_with_a_warning(
        tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    """The shipped Kubernetes Secret holds no key: the API is open, and the log says so."""
    keys = tmp_path / "keys"
    keys.write_text("# sha256 of the key    rate\n")
    with caplog.at_level(logging.WARNING, logger="api.keys"), \
            make(api_keys_file=str(keys)) as client:
        assert client.post("/v1/solve", json=HAND).status_code == 200
    assert any("holds no key" in r.getMessage() and "open" in r.getMessage()
               for r in caplog.records)


def test_the_key_line_command(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["k", "5/second"]) == 0
    assert capsys.readouterr().out.split() == [digest_of("k").hex(), "5/second"]
    assert main(["cl\u00e9"]) == 2 and "printable ASCII" in capsys.readouterr().err
    assert main([" k"]) == 2 and "spaces" in capsys.readouterr().err


@pytest.mark.parametrize("flag", ["-h", "--help"])
def test_the_key_line_command_answers_help_with_its_usage(
        flag: str, capsys: pytest.CaptureFixture[str]) -> None:
    """``--help`` is asked for the usage, not a key line for the key "--help"."""
    assert main([flag]) == 0
    captured = capsys.readouterr()
    assert captured.out.startswith("usage: python -m api.server.keys KEY [RATE]")
    assert digest_of(flag).hex() not in captured.out


@pytest.mark.parametrize("rate", ["0/second", "0 per hour"])
def test_a_rate_of_nothing_is_refused_at_start(
        rate: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A rate of 0 (an operator's "off") refused every keyed request for good,
    each with ``Retry-After: 1``: as the auth failure limit, every key got 429
    too_many_failed_keys, no key ever sent wrong.  Refused at start instead,
    wherever a rate is read."""
    for setting in ("rate_limit", "auth_failure_limit", "playground_rate"):
        with pytest.raises(SettingsError, match="at least 1"):
            load_settings(**{setting: rate})
    (tmp_path / "keys").write_text(f"{digest_of('k').hex()}  {rate}\n")
    with pytest.raises(KeyFileError, match="at least 1"):
        KeyRing.load("", str(tmp_path / "keys"), "1000/second")
    assert main(["k", rate]) == 2
    assert "at least 1" in capsys.readouterr().err


@pytest.mark.parametrize("rate", ["200/sec", "200 a second", "fast"])
def test_the_key_line_command_refuses_a_rate_the_key_file_would_not_take(
        rate: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A line printed with a mistyped rate would stop the service at start
    (``KeyFileError``, every replica at once): the command says so instead."""
    with pytest.raises(KeyFileError):
        (tmp_path / "keys").write_text(f"{digest_of('k').hex()}  {rate}\n")
        KeyRing.load("", str(tmp_path / "keys"), "1000/second")
    assert main(["k", rate]) == 2
    captured = capsys.readouterr()
    assert captured.out == "" and "not a rate such as 100/second" in captured.err


@pytest.mark.parametrize(("url", "problem"), [
    ("http://127.0.0.1:6379/0", "a Redis URL"),
    ("unix:///run/redis.sock", "a Redis URL"),
    ("redis://:s3cretpw@127.0.0.1:notaport/0", "port is not a number"),
    ("redis:///0", "names no host"),
    ("redis://cache:6379/zero", "database is a number"),
])
def test_a_redis_url_the_counter_cannot_open_is_refused_at_start(url: str, problem: str) -> None:
    """Refused by the settings (``rummy-solver serve`` exits 2 before a worker
    starts), never in the workers, and a password never printed."""
    with pytest.raises(SettingsError, match=f"REDIS_URL: .*{problem}") as refused:
        load_settings(redis_url=url)
    assert "s3cretpw" not in str(refused.value)


def test_redis_urls_read_as_redis_reads_them() -> None:
    """The scheme in any case, Redis' port when none is given, TLS and sockets."""
    assert load_settings(redis_url="REDIS://:pw@cache/2").redis_url == "redis://:pw@cache:6379/2"
    assert load_settings(redis_url="rediss://cache:6380").redis_url == "rediss://cache:6380"
    assert (load_settings(redis_url="redis+unix:///run/redis.sock").redis_url
            == "redis+unix:///run/redis.sock")
    RateLimiter(load_settings(redis_url="redis://cache/0").redis_url)  # opens (connects lazily)


def _from(app: Any, address: str) -> TestClient:
    """Another client of a running app, calling from ``address`` (no lifespan of
    its own; each request on a loop of its own, so not for counts in Redis)."""
    return TestClient(app, client=(address, 40000))


def test_failed_keys_are_limited_per_address() -> None:
    """Past RUMMY_SOLVER_AUTH_FAILURE_LIMIT unknown keys, an address gets 429
    ``too_many_failed_keys`` whatever key it sends (a right guess answers as
    a wrong one); a key holder at another address is not refused, and
    requests without a key are not counted (issue 38 item 8)."""
    with make(api_keys="right-key", auth_failure_limit="3/minute") as started:
        attacker, holder, keyless = (_from(started.app, address) for address in
                                     ("203.0.113.9", "198.51.100.20", "192.0.2.33"))
        guesses = [attacker.post("/v1/solve", json=HAND, headers={"X-API-Key": f"guess-{n}"})
                   for n in range(4)]
        assert [g.status_code for g in guesses] == [401, 401, 401, 429]
        refused = guesses[3].json()["detail"][0]
        assert refused["type"] == "too_many_failed_keys"
        assert refused["loc"] == ["header", "x-api-key"]  # the header that carried the key
        assert 1 <= int(guesses[3].headers["retry-after"]) <= 60
        right = attacker.post("/v1/solve", json=HAND, headers={"X-API-Key": "right-key"})
        assert right.status_code == 429  # not checked: no oracle past the limit
        assert holder.post("/v1/solve", json=HAND,
                           headers={"X-API-Key": "right-key"}).status_code == 200
        assert holder.post("/v1/solve", json=HAND,
                           headers={"X-API-Key": "typo"}).status_code == 401
        assert [keyless.post("/v1/solve", json=HAND).status_code for _ in range(5)] == [401] * 5
        assert keyless.post("/v1/solve", json=HAND,
                            headers={"X-API-Key": "right-key"}).status_code == 200


def test_a_key_holder_behind_a_shared_address_is_not_locked_out() -> None:
    """Clients behind one proxy share an address: ten wrong keys from one of
    them must not refuse the others' keys.  A key admitted from the address
    before passes its block; a key never used from there is refused unchecked
    as a guess is (audit 4: the shipped manifests locked every key out)."""
    with make(api_keys="right-key,idle-key", auth_failure_limit="3/minute") as started:
        proxy = _from(started.app, "10.0.0.1")
        assert proxy.post("/v1/solve", json=HAND,
                          headers={"X-API-Key": "right-key"}).status_code == 200
        guesses = [proxy.post("/v1/solve", json=HAND, headers={"X-API-Key": f"guess-{n}"})
                   for n in range(4)]
        assert [g.status_code for g in guesses] == [401, 401, 401, 429]
        statuses = {key: proxy.post("/v1/solve", json=HAND, headers={"X-API-Key": key}).status_code
                    for key in ("right-key", "idle-key", "guess-9")}
        assert statuses == {"right-key": 200, "idle-key": 429, "guess-9": 429}


def test_failed_keys_stay_bounded_while_redis_is_down() -> None:
    """With Redis away (the open policy) each worker counts the unknown keys
    itself: guessing is bounded through the outage, and a key admitted here
    before still passes."""
    dead = f"redis://127.0.0.1:{_free_port()}/0"
    with make(api_keys="k", auth_failure_limit="3/minute", redis_url=dead,
              client=("203.0.113.5", 40000)) as client:
        assert client.post("/v1/solve", json=HAND, headers={"X-API-Key": "k"}).status_code == 200
        statuses = [client.post("/v1/solve", json=HAND,
                                headers={"X-API-Key": f"wrong-{n}"}).status_code
                    for n in range(5)]
        assert statuses == [401, 401, 401, 429, 429]
        assert client.post("/v1/solve", json=HAND, headers={"X-API-Key": "k"}).status_code == 200


def test_an_ipv6_client_is_counted_by_its_network() -> None:
    from api.server.auth import failure_bucket

    def bucket(host: str) -> str:
        return failure_bucket({"client": (host, 1)})

    assert bucket("2001:db8:0:1::1") == bucket("2001:db8:0:1:ffff::2") == "2001:db8:0:1::/64"
    assert bucket("2001:db8:0:2::1") != bucket("2001:db8:0:1::1")
    assert bucket("::ffff:203.0.113.9") == bucket("203.0.113.9") == "203.0.113.9"
    assert bucket("testclient") == "testclient"
    assert failure_bucket({}) == "-"


def test_the_fair_share_is_per_key() -> None:
    from api.server.dispatch import client_of

    scope: dict[str, Any] = {"client": ("10.0.0.1", 5000), "state": {}}
    assert client_of(scope) == "10.0.0.1:5000"
    scope["state"]["key_id"] = "abc"
    assert client_of(scope) == "key:abc"


# ---------------------------------------------------------------------------
# Redis: one count for every worker and replica


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


@contextmanager
def _redis_server(port: int = 0) -> Iterator[tuple[subprocess.Popen[bytes], str]]:
    """A redis-server of its own on ``port``, else on a free one (skips the
    test without one)."""
    server = shutil.which("redis-server")
    if server is None:
        pytest.skip("redis-server is not installed (apt-get install redis-server)")
    port = port or _free_port()
    process = subprocess.Popen(
        [server, "--port", str(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no"],
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        deadline = time.monotonic() + 10
        while True:
            try:
                with socket.create_connection(("127.0.0.1", port), timeout=0.2):
                    break
            except OSError:
                if time.monotonic() > deadline or process.poll() is not None:
                    pytest.fail("redis-server did not start")
                time.sleep(0.05)
        yield process, f"redis://127.0.0.1:{port}/0"
    finally:
        process.send_signal(signal.SIGCONT)  # a paused server cannot act on SIGTERM
        process.terminate()
        process.wait(10)


@pytest.fixture(scope="module")
def redis_url() -> Iterator[str]:
    with _redis_server() as (_, url):
        yield url


def test_two_workers_share_one_count_in_redis(redis_url: str) -> None:
    settings = {"api_keys": "shared-key", "rate_limit": "3/minute", "redis_url": redis_url}
    headers = {"X-API-Key": "shared-key"}
    with make(**settings) as first, make(**settings) as second:
        statuses = [client.post("/v1/solve", json=HAND, headers=headers).status_code
                    for client in (first, second, first, second)]
    assert statuses == [200, 200, 200, 429]


def test_failed_keys_are_counted_across_workers(redis_url: str) -> None:
    """With Redis, an address's unknown keys count in every worker."""
    settings = {"api_keys": "right-key", "auth_failure_limit": "3/minute",
                "redis_url": redis_url}
    guesser = ("203.0.113.77", 40000)
    with make(client=guesser, **settings) as first, make(client=guesser, **settings) as second, \
            make(client=("198.51.100.77", 40000), **settings) as elsewhere:
        statuses = [client.post("/v1/solve", json=HAND, headers={"X-API-Key": "wrong"}).status_code
                    for client in (first, second, first, second)]
        assert statuses == [401, 401, 401, 429]
        assert elsewhere.post("/v1/solve", json=HAND,
                              headers={"X-API-Key": "right-key"}).status_code == 200


def test_a_keys_admission_from_an_address_is_known_to_every_worker(redis_url: str) -> None:
    """The mark that lets a key holder pass its address's block is in Redis:
    admitted by one worker, it passes the block in another."""
    settings = {"api_keys": "right-key", "auth_failure_limit": "3/minute",
                "redis_url": redis_url}
    proxy = ("10.0.0.77", 40000)
    with make(client=proxy, **settings) as first, make(client=proxy, **settings) as second:
        assert first.post("/v1/solve", json=HAND,
                          headers={"X-API-Key": "right-key"}).status_code == 200
        statuses = [first.post("/v1/solve", json=HAND, headers={"X-API-Key": "wrong"}).status_code
                    for _ in range(4)]
        assert statuses == [401, 401, 401, 429]
        assert second.post("/v1/solve", json=HAND,
                           headers={"X-API-Key": "right-key"}).status_code == 200


def test_redis_down_lets_requests_through() -> None:
    dead = f"redis://127.0.0.1:{_free_port()}/0"
    with make(api_keys="k", rate_limit="1/minute", redis_url=dead) as client:
        assert [client.post("/v1/solve", json=HAND, headers={"X-API-Key": "k"}).status_code
                for _ in range(2)] == [200, 200]


# ---------------------------------------------------------------------------
# A burst of checks at once to one worker: its connections to Redis are a
# bounded pool opened at start.  An audit sent about 60 keyed requests at once
# to one worker on a loaded machine: each check in flight opened a connection
# of its own, a connect overran the 50 ms timeout, and under closed 13 were
# refused (503 rate_limit_unavailable) while Redis answered.  The connections
# opened are counted by Redis (deterministic); the timeouts are widened so
# that a loaded machine's event loop, which runs the checks one after another,
# cannot refuse one.

POOL = 4
BURST = 100


@pytest.mark.parametrize("fail", ["open", "closed"])
def test_a_check_that_finds_no_connection_free_in_time_gets_the_policy(
        fail: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """Every connection held by this worker's other checks past ``SLOT_WAIT_S``
    (a Redis answering slowly to a large burst): the waiting check gets the
    policy -- goes on under open, 503 under closed -- instead of waiting on
    without end, and Redis, which the checks ahead reach, is not taken for
    away.  The wait had no bound."""
    from api.server import rate_limit
    from api.server.rate_limit import CounterUnavailable

    monkeypatch.setattr(rate_limit, "SLOT_WAIT_S", 0.1)
    rate = parse_rate("5/minute")

    async def crowded() -> tuple[str, float, float | None]:
        limiter = RateLimiter("redis://127.0.0.1:1", fail=fail,  # type: ignore[arg-type]
                              pool_size=2)
        for _ in range(2):  # the checks ahead, each on a connection
            await limiter.slots.acquire()
        started = time.monotonic()
        try:
            outcome = repr(await asyncio.wait_for(limiter.allow("crowd", rate), 5))
        except CounterUnavailable as refused:
            outcome = f"503 retry in {refused.retry_after}"
        return outcome, time.monotonic() - started, limiter.down_since

    outcome, waited, down_since = asyncio.run(crowded())
    assert outcome == ("None" if fail == "open" else "503 retry in 1")
    assert 0.1 <= waited < 2.0
    assert down_since is None  # Redis answers the checks ahead: it is not left alone


@pytest.mark.parametrize("warmed", [True, False])
def test_a_burst_of_checks_opens_no_more_connections_than_the_pool(
        redis_url: str, warmed: bool) -> None:
    """100 checks at once to one limiter: every one counted, none refused under
    closed, and no connection opened beyond the pool's (none at all once
    warmed).  Each check opened its own: 100 connections (and with the default
    timeouts 72 checks refused)."""
    name = f"burst-{warmed}-{time.monotonic_ns()}"
    rate = parse_rate(f"{BURST}/minute")

    async def burst() -> tuple[int, list[int | None], int, int | None]:
        import redis

        limiter = RateLimiter(redis_url, connect_timeout_ms=5000, timeout_ms=5000,
                              fail="closed", pool_size=POOL)
        try:
            opened_at_start = await limiter.warm() if warmed else 0
            with redis.Redis.from_url(redis_url) as admin:
                before = admin.info("stats")["total_connections_received"]
                waits = await asyncio.gather(*(limiter.allow(name, rate) for _ in range(BURST)))
                opened = admin.info("stats")["total_connections_received"] - before
            return opened_at_start, list(waits), opened, await limiter.allow(name, rate)
        finally:
            await limiter.close()

    opened_at_start, waits, opened, next_wait = asyncio.run(burst())
    assert waits == [None] * BURST  # none refused (CounterUnavailable would raise)
    assert next_wait is not None  # every one counted: the next is over the rate
    if warmed:
        assert (opened_at_start, opened) == (POOL, 0)
    else:
        assert opened <= POOL


def test_a_burst_of_keyed_requests_to_the_real_server_opens_no_connection(
        paused_redis: tuple[subprocess.Popen[bytes], str]) -> None:
    """``rummy-solver serve`` with one worker, 60 keyed requests at once under
    closed: all served, and Redis (of this test alone) saw the pool's
    connections opened at start and none during the burst."""
    import redis

    from benchmarks.service.load import Server

    _, url = paused_redis
    server = Server(workers=1, settings={"api_keys": "k", "redis_url": url, "processes": "1",
                                         "rate_limit_fail": "closed", "redis_timeout_ms": "5000",
                                         "redis_pool_size": str(POOL)})
    headers = {"X-API-Key": "k"}

    async def burst() -> list[int]:
        async with httpx.AsyncClient(base_url=server.url, timeout=30,
                                     limits=httpx.Limits(max_connections=60)) as client:
            answers = await asyncio.gather(*(client.get("/v1/variants", headers=headers)
                                             for _ in range(60)))
        return [answer.status_code for answer in answers]

    try:
        server.wait_ready()
        with redis.Redis.from_url(url) as admin:
            served = admin.info("clients")["connected_clients"] - 1  # not this one
            before = admin.info("stats")["total_connections_received"]
            statuses = asyncio.run(burst())
            opened = admin.info("stats")["total_connections_received"] - before
    finally:
        server.close()
    assert statuses == [200] * 60
    assert served == POOL
    assert opened == 0


@pytest.mark.parametrize("policy", ["open", "closed"])
def test_the_service_starts_and_answers_with_redis_away(
        policy: str, paused_redis: tuple[subprocess.Popen[bytes], str],
        caplog: pytest.LogCaptureFixture) -> None:
    """Redis paused (it accepts connections and never answers) while a worker
    starts: the warm-up gives up within the timeouts, with a line in the log,
    the worker serves by the policy, and once Redis answers the connections
    open as the checks need them."""
    process, url = paused_redis
    caplog.set_level(logging.INFO, logger="api.rate_limit")
    headers = {"X-API-Key": "k"}

    async def warm() -> tuple[int, float]:
        limiter = RateLimiter(url, pool_size=POOL)
        started = time.monotonic()
        try:
            return await limiter.warm(), time.monotonic() - started
        finally:
            await limiter.close()

    with _paused(process):
        opened, took = asyncio.run(warm())
        assert opened == 0
        assert took <= REDIS_WAIT_S + MARGIN_S, f"{took:.3f} s"
        with make(api_keys="k", redis_url=url, rate_limit_fail=policy,
                  redis_pool_size=POOL) as client:
            assert client.get("/healthz").status_code == 200
            answer = client.post("/v1/solve", json=HAND, headers=headers)
            assert answer.status_code == {"open": 200, "closed": 503}[policy], answer.text
            assert client.get("/readyz").status_code == {"open": 200, "closed": 503}[policy]
            process.send_signal(signal.SIGCONT)
            assert client.get("/readyz").json()["redis"] == "ok"
            assert client.post("/v1/solve", json=HAND, headers=headers).status_code == 200
    lines = [record.getMessage() for record in caplog.records if record.name == "api.rate_limit"]
    assert "0 of 4 connections" in lines[0] and "0 of 4 connections" in lines[1]
    assert "failed a check" in lines[2] and "answers again" in lines[3]
    assert len(lines) == 4, lines


# ---------------------------------------------------------------------------
# A Redis that stops answering (issue 38 item 1): paused with SIGSTOP, it
# still accepts connections (the kernel does) and never answers.

LIMIT_MS = 100  # the requests' own deadline
REDIS_WAIT_S = (50 + 50) / 1000.0  # the default connect and command timeouts
MARGIN_S = 0.5  # a loaded two-core machine answering a request


@pytest.fixture()
def paused_redis() -> Iterator[tuple[subprocess.Popen[bytes], str]]:
    """A Redis of its own for a test that pauses it."""
    with _redis_server() as started:
        yield started


@contextmanager
def _paused(process: subprocess.Popen[bytes]) -> Iterator[None]:
    process.send_signal(signal.SIGSTOP)
    try:
        yield
    finally:
        process.send_signal(signal.SIGCONT)


def _timed(call: Callable[[], T], limit_s: float) -> tuple[T, float]:
    """``call()``'s result and seconds, failing (not hanging) past ``limit_s``."""
    pool = ThreadPoolExecutor(1)
    started = time.monotonic()
    try:
        result = pool.submit(call).result(timeout=limit_s)
    except FutureTimeout:
        pytest.fail(f"no answer within {limit_s:.1f} s while Redis is paused")
    finally:
        pool.shutdown(wait=False)  # a hung call ends once Redis is resumed
    return result, time.monotonic() - started


def _sample(metrics_text: str, series: str) -> float:
    """A series' value in Prometheus text (0 when absent)."""
    for line in metrics_text.splitlines():
        if line.startswith(series + " "):
            return float(line.rsplit(" ", 1)[1])
    return 0.0


FAILURES = 'rummy_solver_rate_limit_failures_total{{policy="{}"}}'
REDIS_UP = 'rummy_solver_redis_up{use="rate_limits"}'
TIMED = {**HAND, "time_limit_ms": LIMIT_MS}


@pytest.mark.parametrize("policy", ["open", "closed"])
def test_a_paused_redis_holds_no_request(
        policy: str, paused_redis: tuple[subprocess.Popen[bytes], str],
        caplog: pytest.LogCaptureFixture) -> None:
    """While Redis does not answer, a keyed request answers within its deadline
    plus the Redis timeouts, by the policy (open: 200 uncounted; closed: 503
    ``rate_limit_unavailable`` with Retry-After); the next ones at once; the
    metrics and /readyz say so; one warning, not one per request, and a line
    when Redis is back."""
    process, url = paused_redis
    caplog.set_level(logging.INFO, logger="api.rate_limit")
    headers = {"X-API-Key": "k"}
    bound = LIMIT_MS / 1000.0 + REDIS_WAIT_S + MARGIN_S
    with make(api_keys="k", redis_url=url, rate_limit_fail=policy) as client:
        assert client.post("/v1/solve", json=TIMED, headers=headers).status_code == 200
        assert client.get("/readyz").json()["redis"] == "ok"
        before = client.get("/metrics").text
        assert _sample(before, REDIS_UP) == 1.0
        with _paused(process):
            answers = []
            for _ in range(4):
                answer, took = _timed(
                    lambda: client.post("/v1/solve", json=TIMED, headers=headers), bound + 5)
                assert took <= bound, f"{took:.3f} s"
                answers.append(answer)
            ready, took = _timed(lambda: client.get("/readyz"), bound + 5)
            assert took <= bound, f"/readyz took {took:.3f} s"
            during = client.get("/metrics").text
        if policy == "open":
            assert [a.status_code for a in answers] == [200] * 4
            assert ready.status_code == 200 and ready.json()["redis"] == "unreachable"
        else:
            assert [a.status_code for a in answers] == [503] * 4
            refused = answers[0].json()["detail"][0]
            assert refused["type"] == "rate_limit_unavailable"
            assert 1 <= int(answers[0].headers["retry-after"]) <= 2
            assert ready.status_code == 503
            assert ready.json()["detail"][0]["type"] == "not_ready"
            assert "Redis" in ready.json()["detail"][0]["msg"]
        assert _sample(during, REDIS_UP) == 0.0
        # two checks a request when both get through (the address's failed keys,
        # the key's rate), one when the first refuses
        assert _sample(during, FAILURES.format(policy)) - _sample(
            before, FAILURES.format(policy)) == {"open": 8, "closed": 4}[policy]
        # resumed: /readyz probes at once, and the requests are counted again
        assert client.get("/readyz").json()["redis"] == "ok"
        assert client.post("/v1/solve", json=TIMED, headers=headers).status_code == 200
        assert _sample(client.get("/metrics").text, REDIS_UP) == 1.0
    lines = [record.getMessage() for record in caplog.records if record.name == "api.rate_limit"]
    assert len(lines) == 2, lines  # gone (once for five failed checks), back
    assert "failed a check" in lines[0] and f"RATE_LIMIT_FAIL={policy}" in lines[0]
    assert "answers again" in lines[1]


def test_a_keyed_scrape_reads_redis_down_under_closed(
        paused_redis: tuple[subprocess.Popen[bytes], str]) -> None:
    """/metrics behind a key, Redis away, the closed policy: the scrape is answered and says
    Redis is down (it got 503 rate_limit_unavailable, so the alert on redis_up could never
    fire when it should), while a keyed solve is refused as the policy says."""
    process, url = paused_redis
    headers = {"X-API-Key": "k"}
    with make(api_keys="k", redis_url=url, rate_limit_fail="closed",
              metrics_need_key=True) as client:
        assert client.post("/v1/solve", json=TIMED, headers=headers).status_code == 200
        with _paused(process):
            assert client.post("/v1/solve", json=TIMED, headers=headers).status_code == 503
            scrape = client.get("/metrics", headers=headers)
        assert scrape.status_code == 200
        assert _sample(scrape.text, REDIS_UP) == 0.0
        assert client.get("/metrics").status_code == 401  # still behind its key


_WORKER = """
import sys
from api.server.rate_limit import RateLimiter
limiter = RateLimiter("redis://127.0.0.1:1")  # never called: the test says what it saw
for line in sys.stdin:
    limiter._answered() if line.strip() == "up" else limiter._failed("the test says so")
    print("done", flush=True)
"""


def test_redis_up_is_the_latest_any_worker_saw(tmp_path: Path) -> None:
    """Two workers: one saw Redis fail, then the other counted in it. The gauge says 1 (it
    said 0, the lowest of the workers', until the first had a call again: the alert on it
    fired while Redis answered every call)."""
    from prometheus_client import CollectorRegistry, generate_latest
    from prometheus_client.multiprocess import MultiProcessCollector

    env = {**os.environ, "PROMETHEUS_MULTIPROC_DIR": str(tmp_path)}
    workers = [subprocess.Popen([sys.executable, "-c", _WORKER], stdin=subprocess.PIPE,
                                stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True,
                                env=env) for _ in range(2)]

    def tell(worker: subprocess.Popen[str], what: str) -> float:
        assert worker.stdin is not None and worker.stdout is not None
        worker.stdin.write(what + "\n")
        worker.stdin.flush()
        assert worker.stdout.readline().strip() == "done"
        registry = CollectorRegistry()
        MultiProcessCollector(registry, path=str(tmp_path))  # type: ignore[no-untyped-call]
        return _sample(generate_latest(registry).decode(), REDIS_UP)

    try:
        assert tell(workers[0], "up") == 1.0
        assert tell(workers[1], "up") == 1.0
        assert tell(workers[0], "down") == 0.0  # seen by one worker: down
        assert tell(workers[1], "up") == 1.0  # then counted by another: up again
        assert tell(workers[1], "down") == 0.0
    finally:
        for worker in workers:
            worker.kill()
            worker.wait()


# Each policy is held in-process by test_a_paused_redis_holds_no_request; over
# HTTP the default run checks one (a server of its own each), the slow lane both.
@pytest.mark.parametrize("policy", [pytest.param("open", marks=pytest.mark.slow), "closed"])
def test_a_paused_redis_holds_no_request_of_the_real_server(
        policy: str, paused_redis: tuple[subprocess.Popen[bytes], str]) -> None:
    """The same against ``rummy-solver serve`` over HTTP: a keyed solve with a
    100 ms deadline answers within its deadline plus the timeouts (it waited
    77 s for the pause to end), /readyz reports Redis, /metrics moves.  And
    (while Redis answers) uvicorn's client address behind a proxy is what
    the failed keys are counted by."""
    from benchmarks.service.load import Server

    process, url = paused_redis
    server = Server(workers=1, settings={"api_keys": "k", "redis_url": url, "processes": "1",
                                         "rate_limit_fail": policy, "auth_failure_limit": "2/hour"})
    headers = {"X-API-Key": "k"}
    bound = LIMIT_MS / 1000.0 + REDIS_WAIT_S + MARGIN_S
    try:
        server.wait_ready()
        with httpx.Client(base_url=server.url, timeout=bound + 5) as client:
            assert client.post("/v1/solve", json=TIMED, headers=headers).status_code == 200
            assert client.get("/readyz").json()["redis"] == "ok"
            # Behind a trusted proxy (FORWARDED_ALLOW_IPS: this host by default) the
            # failed keys count by the client's own address, not the proxy's.
            guesser = {"X-API-Key": "guess", "X-Forwarded-For": "203.0.113.9"}
            assert [client.post("/v1/solve", json=TIMED, headers=guesser).status_code
                    for _ in range(3)] == [401, 401, 429]
            assert client.post("/v1/solve", json=TIMED, headers={
                **headers, "X-Forwarded-For": "198.51.100.1"}).status_code == 200
            with _paused(process):
                started = time.monotonic()
                answer = client.post("/v1/solve", json=TIMED, headers=headers)
                took = time.monotonic() - started
                ready = client.get("/readyz")
                metrics_text = client.get("/metrics").text
            assert took <= bound, f"{took:.3f} s"
            if policy == "open":
                assert answer.status_code == 200 and answer.json()["deadwood_points"] == 33
                assert ready.status_code == 200 and ready.json()["redis"] == "unreachable"
            else:
                assert answer.status_code == 503, answer.text
                assert answer.json()["detail"][0]["type"] == "rate_limit_unavailable"
                assert "retry-after" in answer.headers
                assert ready.status_code == 503
            assert _sample(metrics_text, REDIS_UP) == 0.0
            assert _sample(metrics_text, FAILURES.format(policy)) >= 1
            assert client.get("/readyz").status_code == 200  # resumed
    finally:
        server.close()


@pytest.mark.parametrize("policy", ["open", "closed"])
def test_a_redis_that_answers_ping_but_counts_nothing_is_not_ready(
        policy: str, paused_redis: tuple[subprocess.Popen[bytes], str]) -> None:
    """A full Redis (maxmemory reached under noeviction) answers PING but refuses
    every count: /readyz and the gauge say it is unreachable, as the keyed
    requests find it (a PING probe said "ok" and, under closed, stayed ready
    while every keyed request got 503)."""
    import redis

    _, url = paused_redis
    headers = {"X-API-Key": "k"}
    with make(api_keys="k", redis_url=url, rate_limit_fail=policy) as client:
        assert client.get("/readyz").json()["redis"] == "ok"
        with redis.Redis.from_url(url) as admin:
            admin.config_set("maxmemory-policy", "noeviction")
            admin.config_set("maxmemory", 1)
            try:
                answer = client.post("/v1/solve", json=HAND, headers=headers)
                ready = client.get("/readyz")
                # a second apart: a sliding window's shift would let a count through
                time.sleep(1.1)
                again = client.get("/readyz")
                metrics_text = client.get("/metrics").text
            finally:
                admin.config_set("maxmemory", 0)
        assert answer.status_code == {"open": 200, "closed": 503}[policy], answer.text
        for probed in (ready, again):
            if policy == "open":
                assert probed.status_code == 200 and probed.json()["redis"] == "unreachable"
            else:
                assert probed.status_code == 503, probed.text
                assert probed.json()["detail"][0]["type"] == "not_ready"
        assert _sample(metrics_text, REDIS_UP) == 0.0
        assert client.get("/readyz").json()["redis"] == "ok"  # room again


def test_a_redis_that_reads_but_counts_nothing_is_reported_gone_once(
        paused_redis: tuple[subprocess.Popen[bytes], str], caplog: pytest.LogCaptureFixture,
        monkeypatch: pytest.MonkeyPatch) -> None:
    """A read-only Redis (a replica) answers a keyed request's first look (a
    read) and refuses its count (a write): one warning and the gauge at 0 for
    as long as it lasts, and one line when it counts again.  A read taken for
    Redis back logged "answers again" and a new warning at each retry, and set
    the gauge to 1 a moment."""
    import redis

    from api.server import rate_limit

    monkeypatch.setattr(rate_limit, "RETRY_S", 0.05)
    _, url = paused_redis
    caplog.set_level(logging.INFO, logger="api.rate_limit")
    headers = {"X-API-Key": "k"}
    with make(api_keys="k", redis_url=url) as client, redis.Redis.from_url(url) as admin:
        assert client.post("/v1/solve", json=HAND, headers=headers).status_code == 200
        admin.replicaof("127.0.0.1", _free_port())  # a master that is not there: read-only
        try:
            for _ in range(4):
                time.sleep(0.1)  # past RETRY_S: each request tries Redis again
                assert client.post("/v1/solve", json=HAND, headers=headers).status_code == 200
                assert _sample(client.get("/metrics").text, REDIS_UP) == 0.0
        finally:
            admin.replicaof("NO", "ONE")
        time.sleep(0.1)
        assert client.post("/v1/solve", json=HAND, headers=headers).status_code == 200
        assert _sample(client.get("/metrics").text, REDIS_UP) == 1.0
    lines = [record.getMessage() for record in caplog.records if record.name == "api.rate_limit"]
    assert len(lines) == 2, lines
    assert "failed a check" in lines[0] and "answers again" in lines[1]


def test_concurrent_guesses_get_no_more_answers_than_the_limit(redis_url: str) -> None:
    """Unknown keys sent at once from one address: at most the failure limit
    of them are answered 401 (a guess checked), every other one 429.  The
    count is taken and checked in one step: a look at the count and a later
    hit let every guess in flight pass the look (all 32 were answered 401)."""
    from starlette.types import Message

    from api.server.auth import ApiKeyMiddleware
    from api.server.keys import KeyRing

    async def inner(scope: Any, receive: Any, send: Any) -> None:
        raise AssertionError("no guess reaches the app")

    async def guesses() -> list[int]:
        # Redis alone counts (no fallback to the worker's own count on a slow answer)
        limiter = RateLimiter(redis_url, connect_timeout_ms=5000, timeout_ms=5000)
        middleware = ApiKeyMiddleware(inner, KeyRing.load("right-key", "", "100/minute"),
                                      limiter, parse_rate("3/minute"))

        async def guess(n: int) -> int:
            scope = {"type": "http", "method": "POST", "path": "/v1/solve",
                     "client": ("203.0.113.99", 40000),
                     "headers": [(b"x-api-key", f"wrong-{n}".encode())]}
            statuses: list[int] = []

            async def receive() -> Message:
                return {"type": "http.request", "body": b"", "more_body": False}

            async def send(message: Message) -> None:
                if message["type"] == "http.response.start":
                    statuses.append(message["status"])

            await middleware(scope, receive, send)
            return statuses[0]

        return sorted(await asyncio.gather(*(guess(n) for n in range(32))))

    assert asyncio.run(guesses()) == [401] * 3 + [429] * 29


# ---------------------------------------------------------------------------
# Redis restarted or failed over under a worker's warmed pool: every pooled
# connection is dead, and a check on one fails (no retry), leaving Redis alone
# for RETRY_S.

def _counts_after(limiter: RateLimiter, name: str) -> Callable[[], Any]:
    """Checks under ``name`` one after another, then a burst of them at once:
    how many were refused (CounterUnavailable) and whether every other one
    was counted (the next check is over the rate)."""
    from api.server.rate_limit import CounterUnavailable

    rate = parse_rate(f"{2 * POOL + BURST}/minute")

    async def one() -> bool:
        try:
            await limiter.allow(name, rate)
        except CounterUnavailable:
            return False
        return True

    async def checks() -> tuple[int, bool]:
        counted = [await one() for _ in range(2 * POOL)]
        counted += await asyncio.gather(*(one() for _ in range(BURST)))
        try:
            over = await limiter.allow(name, rate) is not None
        except CounterUnavailable:
            over = False
        return counted.count(False), over

    return checks


@pytest.mark.parametrize("how", ["restart", "client kill"])
def test_a_restarted_redis_counts_every_check_once_it_answers(how: str) -> None:
    """Redis restarted on the same port (a deploy, a crash) or every client's
    connection killed (CLIENT KILL TYPE normal): once it answers, no check is
    refused under closed and every one is counted, over connections the pool
    opened again (at most its size).  Redis closes the sockets, and the pool
    sees that when it hands one out and reconnects: this passed before any
    change for it.  It guards the path that the warmed pool made new."""
    import redis

    with _redis_server() as (first, url):
        port = int(url.rsplit(":", 1)[1].split("/")[0])

        async def restarted() -> tuple[int, bool, int]:
            limiter = RateLimiter(url, connect_timeout_ms=5000, timeout_ms=5000,
                                  fail="closed", pool_size=POOL)
            try:
                assert await limiter.warm() == POOL
                await asyncio.gather(*(limiter.allow("before", parse_rate("1000/minute"))
                                       for _ in range(3 * POOL)))
                async with contextlib.AsyncExitStack() as stack:
                    if how == "restart":
                        # off the event loop, which sees the sockets close meanwhile
                        await asyncio.to_thread(first.terminate)
                        await asyncio.to_thread(first.wait, 10)
                        await asyncio.to_thread(stack.enter_context, _redis_server(port))
                    else:
                        with redis.Redis.from_url(url) as admin:
                            assert admin.client_kill_filter(_type="normal", skipme=True) >= POOL
                    await asyncio.sleep(0.1)  # the loop reads the closes, as a worker's does
                    with redis.Redis.from_url(url) as admin:
                        assert admin.ping()  # Redis answers
                        before = admin.info("stats")["total_connections_received"]
                        refused, all_counted = await _counts_after(limiter, how)()
                        opened = admin.info("stats")["total_connections_received"] - before
                return refused, all_counted, opened
            finally:
                await limiter.close()

        refused, all_counted, opened = asyncio.run(restarted())
    assert (refused, all_counted) == (0, True)
    assert 1 <= opened <= POOL


class _FailoverProxy:
    """A TCP proxy to Redis in the test's event loop, whose ``fail_over()``
    resets the connections it carries without closing them (RST, as a
    failover's new address or a proxy's restart does): the client sees
    nothing until it writes.  New connections reach Redis as before."""

    def __init__(self, redis_url: str) -> None:
        self.redis_port = int(redis_url.rsplit(":", 1)[1].split("/")[0])
        self.carried: list[asyncio.StreamWriter] = []
        self.opened = 0
        self.url = ""

    async def start(self) -> asyncio.Server:
        server = await asyncio.start_server(self._carry, "127.0.0.1", 0)
        self.url = f"redis://127.0.0.1:{server.sockets[0].getsockname()[1]}/0"
        return server

    async def _carry(self, client_reader: asyncio.StreamReader,
                     client_writer: asyncio.StreamWriter) -> None:
        self.opened += 1
        redis_reader, redis_writer = await asyncio.open_connection("127.0.0.1", self.redis_port)
        self.carried += [client_writer, redis_writer]

        async def pump(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
            with contextlib.suppress(OSError):
                while data := await reader.read(65536):
                    writer.write(data)
                    await writer.drain()
            writer.close()

        await asyncio.gather(pump(client_reader, redis_writer), pump(redis_reader, client_writer))

    def fail_over(self) -> None:
        for writer in self.carried:
            # an abort with a zero linger resets the connection instead of closing it
            writer.get_extra_info("socket").setsockopt(socket.SOL_SOCKET, socket.SO_LINGER,
                                                       struct.pack("ii", 1, 0))
            writer.transport.abort()
        self.carried.clear()


def test_a_failover_that_resets_the_connections_costs_one_failure(redis_url: str) -> None:
    """Every pooled connection reset without being closed (a failover, a
    proxy's restart), Redis answering new connections at once: at most the
    first check fails (its connection was dead, nothing told), and after
    RETRY_S none is refused under closed, one after another or in a burst,
    over no more connections than the pool's.  The pool handed out its other
    dead connections in turn, each failing a check and leaving Redis alone
    for another second (15 checks refused here; 3.5 s of 503s with
    checks at rising concurrency, 5.4 s when the old connections go silent
    instead)."""
    from api.server import rate_limit
    from api.server.rate_limit import CounterUnavailable

    async def failed_over() -> tuple[int, bool, int]:
        proxy = _FailoverProxy(redis_url)
        server = await proxy.start()
        limiter = RateLimiter(proxy.url, connect_timeout_ms=5000, timeout_ms=5000,
                              fail="closed", pool_size=POOL)
        try:
            assert await limiter.warm() == POOL
            proxy.fail_over()
            await asyncio.sleep(0.1)  # the resets arrive
            with contextlib.suppress(CounterUnavailable):
                await limiter.allow("failover-first", parse_rate("5/minute"))
            await asyncio.sleep(rate_limit.RETRY_S + 0.1)
            opened_before = proxy.opened
            refused, all_counted = await _counts_after(limiter, f"failover-{time.time_ns()}")()
            return refused, all_counted, proxy.opened - opened_before
        finally:
            await limiter.close()
            server.close()

    refused, all_counted, opened = asyncio.run(failed_over())
    assert (refused, all_counted) == (0, True)
    assert opened <= POOL
