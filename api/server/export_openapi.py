"""Write the OpenAPI document to ``openapi.json`` at the repository root.

Run ``python -m api.server.export_openapi`` after changing a route or a schema; a
test fails while the checked-in file is stale.  The document is built with
default settings, so the environment does not change it.
"""

from __future__ import annotations

import json
from pathlib import Path

from api.server.main import create_app
from api.shared.settings import Settings

OPENAPI_PATH = Path(__file__).resolve().parents[2] / "openapi.json"


def render_openapi() -> str:
    """The OpenAPI document as stable text (sorted keys, indent 2, final newline)."""
    document = create_app(Settings.model_construct()).openapi()
    return json.dumps(document, indent=2, sort_keys=True, ensure_ascii=False) + "\n"


def main() -> None:
    """Regenerate ``openapi.json``."""
    OPENAPI_PATH.write_text(render_openapi(), encoding="utf-8")
    print(f"wrote {OPENAPI_PATH}")


if __name__ == "__main__":
    main()
