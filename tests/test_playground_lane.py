"""The playground's lane (``api.server.playground_lane``) over HTTP, with API keys on.

What it admits (the pages' calls with their marker, no key, from a page of this
site or a client that says nothing of where it is), what it refuses with the
usual 401 (no marker, a call the pages do not make, a page of another site, a
wrong key), its 429 past the rate per address (a key holder from the same
address unaffected), and that ``api.pages.calls.CALLS`` is exactly what the page
scripts call.  The pages themselves with keys on: ``test_playground_keys.py``.
"""

from __future__ import annotations

import re
import warnings
from collections.abc import Iterator
from typing import Any

import httpx
import pytest

from api.pages.assets import STATIC_DIR
from api.pages.calls import CALLS, MARKER
from api.server.auth import failure_bucket as client_bucket
from api.server.playground_lane import wants_lane
from api.shared.settings import Settings
from tests.test_playground import GIN_HAND, serve_app

KEY = "playground-test-key-0123456789"
PAGE = {MARKER: "1", "Sec-Fetch-Site": "same-origin"}
"""The headers a page's call carries (the browser adds Sec-Fetch-Site itself)."""


def keyed_settings(**overrides: Any) -> Settings:
    """The environment's settings with ``RUMMY_SOLVER_API_KEYS`` set (and ``overrides``)."""
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("RUMMY_SOLVER_API_KEYS", KEY)
        return Settings(processes=0, **overrides)


@pytest.fixture(scope="module")
def base_url() -> Iterator[str]:
    """Keys on, the lane at its default rate."""
    with serve_app(keyed_settings()) as url:
        yield url


def scope(method: str, path: str, **headers: str) -> dict[str, object]:
    return {"type": "http", "method": method, "path": path, "client": ("192.0.2.1", 1),
            "headers": [(k.lower().replace("_", "-").encode(), v.encode()) for k, v in headers.items()]}


def test_what_the_lane_takes_without_a_server() -> None:
    marked = {"x_playground": "1"}
    assert wants_lane(scope("POST", "/v1/advise", **marked))
    assert wants_lane(scope("POST", "/v1/advise", **marked, sec_fetch_site="same-origin"))
    assert not wants_lane(scope("POST", "/v1/advise", **marked, sec_fetch_site="cross-site"))
    assert not wants_lane(scope("POST", "/v1/advise"))
    assert not wants_lane(scope("POST", "/v1/advise", x_playground="yes"))
    assert not wants_lane(scope("GET", "/v1/advise", **marked))
    assert not wants_lane(scope("POST", "/v1/solve/stream", **marked))
    assert not wants_lane(scope("POST", "/v1/advise", **marked, x_api_key="k"))
    assert not wants_lane(scope("POST", "/v1/advise", **marked, authorization="Bearer k"))
    assert client_bucket({"client": ("::ffff:198.51.100.4", 1)}) == "198.51.100.4"
    assert client_bucket({}) == "-"


def test_the_pages_calls_are_the_lanes_list() -> None:
    called = set()
    for script in STATIC_DIR.glob("*.js"):
        called |= set(re.findall(r"""["'`](v1/[a-z/]+)["'`]""", script.read_text(encoding="utf-8")))
    assert {f"/{path}" for path in called} == {path for _, path in CALLS}


def test_the_lane_admits_only_the_pages_calls(base_url: str) -> None:
    variants = base_url + "/v1/variants"
    assert httpx.get(variants, headers=PAGE).status_code == 200
    assert httpx.get(variants, headers={MARKER: "1"}).status_code == 200  # no browser: its word
    refused = httpx.get(variants)  # a client that forgot its key: the usual 401
    assert refused.status_code == 401 and refused.json()["detail"][0]["type"] == "unauthorized"
    assert httpx.get(variants, headers={**PAGE, "Sec-Fetch-Site": "cross-site"}).status_code == 401
    assert httpx.get(variants, headers={**PAGE, "Sec-Fetch-Site": "same-site"}).status_code == 401
    assert httpx.get(variants, headers={**PAGE, "Authorization": "Bearer wrong"}).status_code == 401
    assert httpx.get(variants, headers={**PAGE, "Authorization": f"Bearer {KEY}"}).status_code == 200
    batch = httpx.post(base_url + "/v1/solve/batch", headers=PAGE,
                       json={"variant": "gin", "hands": [GIN_HAND]})
    assert batch.status_code == 401  # not a call of the pages
    solve = httpx.post(base_url + "/v1/solve", headers=PAGE, json={"variant": "gin", "hand": GIN_HAND})
    assert solve.status_code == 200 and solve.json()["deadwood_points"] == 33


def test_the_lane_is_limited_per_address() -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        from fastapi.testclient import TestClient

    from api.server.main import create_app

    app = create_app(keyed_settings(playground_rate="3/minute"))
    with TestClient(app, raise_server_exceptions=False) as client:
        answers = [client.get("/v1/variants", headers=PAGE) for _ in range(4)]
        assert [a.status_code for a in answers] == [200, 200, 200, 429]
        over = answers[-1]
        assert over.json()["detail"][0]["type"] == "rate_limited"
        assert "without an API key" in over.json()["detail"][0]["msg"]
        assert int(over.headers["Retry-After"]) >= 1
        # a key holder from the same address is not held back by the lane's count
        assert client.get("/v1/variants", headers={"Authorization": f"Bearer {KEY}"}).status_code == 200


def test_the_lane_is_refused_when_redis_is_silent_and_the_policy_closed() -> None:
    """With the rate limits counted in a Redis that cannot be reached and the
    closed policy, the lane refuses as the key check does: 503
    rate_limit_unavailable with Retry-After, never an uncounted call."""
    import socket

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        from fastapi.testclient import TestClient

    from api.server.main import create_app

    with socket.socket() as probe:  # a port nothing listens on: the connection is refused
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    app = create_app(keyed_settings(redis_url=f"redis://127.0.0.1:{port}/0",
                                    rate_limit_fail="closed"))
    with TestClient(app, raise_server_exceptions=False) as client:
        answer = client.get("/v1/variants", headers=PAGE)
        assert answer.status_code == 503
        assert answer.json()["detail"][0]["type"] == "rate_limit_unavailable"
        assert int(answer.headers["Retry-After"]) >= 1
