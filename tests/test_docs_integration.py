"""``docs/INTEGRATION.md`` and the TypeScript client's README say how to get
``@rummy-solver/client``, which is not on the npm registry: ``npm pack`` in
``clients/typescript`` (which builds it first) and ``npm install`` of the
file it writes.  The file name they give is the one npm writes for the
package's name and version, and the package holds what its ``exports`` name.
``tests/test_typescript_client.py`` runs the commands (under ``--run-slow``).
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

from api.shared.error_codes import ERROR_CODES

ROOT = Path(__file__).resolve().parent.parent
CLIENT = ROOT / "clients" / "typescript"
DOCS = [ROOT / "docs" / "INTEGRATION.md", CLIENT / "README.md"]


def _package() -> dict[str, Any]:
    package: dict[str, Any] = json.loads((CLIENT / "package.json").read_text(encoding="utf-8"))
    return package


def tarball_name(package: dict[str, Any]) -> str:
    """What ``npm pack`` names the package's file: ``@scope/name`` -> ``scope-name``."""
    return f"{package['name'].lstrip('@').replace('/', '-')}-{package['version']}.tgz"


def test_the_docs_name_the_file_npm_pack_writes() -> None:
    name = tarball_name(_package())
    for doc in DOCS:
        text = doc.read_text(encoding="utf-8")
        named = set(re.findall(r"rummy-solver-client-[\w.-]+?\.tgz", text))
        assert named == {name}, f"{doc.name} names {sorted(named)}, npm pack writes {name}"


def test_the_docs_import_the_package_by_its_name() -> None:
    name = _package()["name"]
    for doc in DOCS:
        imported = set(re.findall(r'from "([^"./][^"]*)"', doc.read_text(encoding="utf-8")))
        assert imported == {name}, (doc.name, imported)


def test_npm_pack_builds_what_the_package_exports() -> None:
    package = _package()
    assert "npm run build" in package["scripts"]["prepack"], "npm pack would pack no dist/"
    targets = [path for entry in package["exports"].values() for path in entry.values()]
    for target in targets:
        assert any(target.removeprefix("./").startswith(folder + "/") for folder in package["files"]), \
            f"{target} is not in the package's files {package['files']}"


def test_the_error_table_says_what_to_do_for_every_status_the_service_answers() -> None:
    """Every code ``api/shared/error_codes.py`` gives an HTTP status (``"403: ..."``)
    has its row in docs/INTEGRATION.md's table of statuses and what to do (403
    ``cors_refused`` and 405 ``method_not_allowed`` had none)."""
    text = (ROOT / "docs" / "INTEGRATION.md").read_text(encoding="utf-8")
    table = text[text.index("| status | meaning | what to do |"):]
    table = table[:table.index("\n\n")]
    rows = table.splitlines()[2:]
    missing = [f"{code} ({meaning[:3]})" for code, meaning in ERROR_CODES.items()
               if re.match(r"\d{3}\b", meaning) and not any(f"`{code}`" in row for row in rows)]
    assert not missing, missing


def client_methods() -> set[str]:
    """The public methods of ``RummySolver`` in ``clients/typescript/src/client.ts``
    (not the constructor, ``post`` or the private ones)."""
    source = (CLIENT / "src" / "client.ts").read_text(encoding="utf-8")
    body = source[source.index("export class RummySolver"):]
    body = body[:body.index("\n}\n")]
    names = set(re.findall(r"^  (?:async \*)?([a-z]\w*)[<(]", body, re.M))
    return names - {"constructor", "post"}


def test_the_docs_name_every_method_of_the_client() -> None:
    """docs/INTEGRATION.md's list of the client's methods, "one method per
    operation", names each one (``reviewOpenspiel`` was missing) and no other."""
    text = (ROOT / "docs" / "INTEGRATION.md").read_text(encoding="utf-8")
    start = text.index("One method per operation")
    listed = set(re.findall(r"`(\w+)`", text[start:text.index(");", start)]))
    methods = client_methods()
    assert {"solveHand", "reviewOpenspiel", "solveStream"} <= methods
    assert listed == methods, (f"not listed: {sorted(methods - listed)}; "
                               f"no such method: {sorted(listed - methods)}")


def test_the_cors_row_names_the_methods_a_preflight_may_ask_for() -> None:
    """The 403 ``cors_refused`` row of the status table said a preflight for a
    method other than GET and POST is refused; the service allows OPTIONS too
    (its refusal lists the methods it allows), as the Browsers section says."""
    import warnings

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        from fastapi.testclient import TestClient

    from api.server.main import create_app
    from api.shared.settings import Settings

    origin = "https://game.example.com"
    app = create_app(Settings(processes=0, cors_origins=origin))
    with TestClient(app) as client:
        refused = client.options("/v1/solve", headers={
            "origin": origin, "access-control-request-method": "PUT"})
    assert refused.status_code == 403, refused.text
    allowed = refused.json()["detail"][0]["msg"].rpartition("allowed: ")[2].split(", ")
    assert allowed == ["GET", "POST", "OPTIONS"]
    text = (ROOT / "docs" / "INTEGRATION.md").read_text(encoding="utf-8")
    row = next(line for line in text.splitlines() if line.startswith("| 403 |"))
    said = f"a method other than {', '.join(allowed[:-1])} and {allowed[-1]}"
    assert said in row, row
