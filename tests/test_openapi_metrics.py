"""What ``/metrics`` answers is what openapi.json lists for it."""

from __future__ import annotations

import json
import warnings

from api.server.export_openapi import OPENAPI_PATH
from api.server.main import create_app
from api.shared.settings import Settings

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from fastapi.testclient import TestClient


def test_metrics_refusals_with_metrics_need_key_are_documented() -> None:
    documented = json.loads(OPENAPI_PATH.read_text(encoding="utf-8"))["paths"]["/metrics"]["get"]
    settings = Settings(api_keys="metrics-test-key-1", metrics_need_key=True,
                        auth_failure_limit="1/minute", processes=0)
    with TestClient(create_app(settings)) as client:
        statuses = [client.get("/metrics").status_code,
                    client.get("/metrics", headers={"X-API-Key": "wrong-key-0001"}).status_code,
                    client.get("/metrics", headers={"X-API-Key": "wrong-key-0002"}).status_code,
                    client.get("/metrics", headers={"X-API-Key": "metrics-test-key-1"}).status_code]
    assert statuses == [401, 401, 429, 200]
    for status in statuses:
        assert str(status) in documented["responses"], status
    assert "WWW-Authenticate" in documented["responses"]["401"]["headers"]
    assert "Retry-After" in documented["responses"]["429"]["headers"]
