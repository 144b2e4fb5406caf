"""Write ``api/shared/examples.json``: the service's real answers to every request example.

Run ``python -m api.server.export_examples`` after changing an answer's format or a
rule; a test fails while the file is stale.  Each example of
``api.shared.examples.REQUESTS`` is sent to its operation's endpoint through the
real app (solver threads, no deadline pressure); timings are replaced by a
fixed value so the file is stable.
"""

from __future__ import annotations

import json
import warnings
from typing import Any

from api.server.main import create_app
from api.shared.examples import EXAMPLE_ELAPSED_MS, EXAMPLES_PATH, REQUESTS
from api.shared.operations import OPERATIONS
from api.shared.settings import Settings


def build() -> dict[str, list[dict[str, Any]]]:
    """The answer to every request example, by operation name."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        from fastapi.testclient import TestClient

    answers: dict[str, list[dict[str, Any]]] = {}
    settings = Settings.model_construct(processes=0, request_budget_ms=60_000,
                                        max_time_limit_ms=60_000, default_time_limit_ms=60_000)
    with TestClient(create_app(settings)) as client:
        for name, requests in REQUESTS.items():
            answers[name] = []
            for body in requests:
                response = client.post(OPERATIONS[name].path, json=body)
                if response.status_code != 200:
                    raise RuntimeError(f"example {name} {body} answered {response.status_code}: "
                                       f"{response.text}")
                answers[name].append(_fix_timings(response.json()))
    return answers


def _fix_timings(value: Any) -> Any:
    if isinstance(value, dict):
        return {k: EXAMPLE_ELAPSED_MS if k == "elapsed_ms" else _fix_timings(v)
                for k, v in value.items()}
    if isinstance(value, list):
        return [_fix_timings(v) for v in value]
    return value


def render(answers: dict[str, list[dict[str, Any]]]) -> str:
    """The examples file's text (stable: sorted keys, indent 1, final newline)."""
    return json.dumps(answers, indent=1, sort_keys=True, ensure_ascii=False) + "\n"


def main() -> None:
    """Regenerate ``examples.json``."""
    EXAMPLES_PATH.write_text(render(build()), encoding="utf-8")
    print(f"wrote {EXAMPLES_PATH}")


if __name__ == "__main__":
    main()
