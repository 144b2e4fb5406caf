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
