"""Write the README's generated parts: the error codes and the settings table.

Run ``python -m api.server.export_docs`` after adding an error code
(``api.shared.error_codes``) or a setting (``api.shared.settings``); a test fails while
the README is stale.  Each part sits between ``<!-- name -->`` and
``<!-- /name -->`` markers.
"""

from __future__ import annotations

import re
from pathlib import Path

from api.shared.error_codes import codes_table
from api.shared.settings import settings_table

README = Path(__file__).resolve().parents[2] / "README.md"
PARTS = {"error-codes": codes_table, "settings": settings_table}


def render(text: str) -> str:
    """``text`` with every generated part rewritten."""
    for name, make in PARTS.items():
        pattern = re.compile(rf"(<!-- {name} -->\n).*?(\n<!-- /{name} -->)", re.DOTALL)
        if pattern.search(text) is None:
            raise ValueError(f"README has no <!-- {name} --> ... <!-- /{name} --> part")
        found = pattern.search(text)
        assert found is not None
        text = text[:found.start()] + found.group(1) + make() + found.group(2) + text[found.end():]
    return text


def main() -> None:
    """Rewrite the README's generated parts."""
    README.write_text(render(README.read_text(encoding="utf-8")), encoding="utf-8")
    print(f"wrote {README}")


if __name__ == "__main__":
    main()
