"""The answers any path may get are listed on every path of openapi.json."""

from __future__ import annotations

import json

from api.server.export_openapi import OPENAPI_PATH
from api.server.routes.deps import PROTOCOL_RESPONSES


def test_every_operation_lists_the_http_protocols_refusals() -> None:
    # rummy-solver serve's HTTP protocol answers 400 invalid_http and 431
    # headers_too_large before any route runs, /healthz's and /version's too.
    document = json.loads(OPENAPI_PATH.read_text(encoding="utf-8"))
    missing = [f"{method.upper()} {path}: {status}"
               for path, item in document["paths"].items()
               for method, operation in item.items()
               for status in PROTOCOL_RESPONSES
               if str(status) not in operation["responses"]]
    assert not missing, missing


def test_every_response_lists_the_request_id_header() -> None:
    # Every answer carries X-Request-ID (api.server.middleware); clients read it
    # from the answer to find a request in the service's logs.
    document = json.loads(OPENAPI_PATH.read_text(encoding="utf-8"))
    assert document["components"]["headers"]["X-Request-ID"]["schema"] == {"type": "string"}
    missing = [f"{method.upper()} {path}: {status}"
               for path, item in document["paths"].items()
               for method, operation in item.items()
               for status, response in operation["responses"].items()
               if "X-Request-ID" not in response.get("headers", {})]
    assert not missing, missing


def test_every_429_and_503_lists_retry_after() -> None:
    # Every 503 has a Retry-After (docs/INTEGRATION.md), /readyz's not_ready too.
    document = json.loads(OPENAPI_PATH.read_text(encoding="utf-8"))
    missing = [f"{method.upper()} {path}: {status}"
               for path, item in document["paths"].items()
               for method, operation in item.items()
               for status, response in operation["responses"].items()
               if status in ("429", "503") and "Retry-After" not in response.get("headers", {})]
    assert not missing, missing


def test_the_answers_that_carry_deprecation_headers_list_them() -> None:
    # A request setting a deprecated field (rules.opening_points ...) gets
    # Deprecation and Link on its 200, or on a 422 of the solver.
    import warnings

    from api.server.main import create_app
    from api.shared.settings import Settings

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        from fastapi.testclient import TestClient

    document = json.loads(OPENAPI_PATH.read_text(encoding="utf-8"))
    requests = [("/v1/solve", {"variant": "basic", "hand": "4H 5H 6H 7H 9C",
                               "rules": {"opening_points": 30}}),
                ("/v1/solve/batch", {"requests": [{"variant": "gin", "hand": "AS 2S 3S",
                                                   "rules": {"min_sequences": 1}}]}),
                ("/v1/advise", {"game": "gin", "hand": "AS 2S 3S 4S 7H 7D 7C KD QH 4C",
                                "upcard": "9S", "me": 1, "dealer": 0, "history": [],
                                "rules": {"opening_points": 30}})]
    with TestClient(create_app(Settings(processes=0))) as client:
        for path, body in requests:
            response = client.post(path, json=body)
            assert response.headers["Deprecation"].startswith("@"), path
            listed = document["paths"][path]["post"]["responses"][str(response.status_code)]
            assert {"Deprecation", "Link"} <= set(listed.get("headers", {})), (path, listed)
