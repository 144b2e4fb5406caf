"""The TypeScript client (``clients/typescript``) as a game studio meets it.

* its generated types are what ``openapi.json`` (and ``api/shared/error_codes.py``)
  make today: regenerated into a temporary directory and compared;
* its dependencies are pinned to exact versions, as the lockfile has them;
* its Node tests (``npm test``: a strict ``tsc`` build, then ``node --test``)
  pass against a live ``rummy-solver serve`` with API keys: a solve, typed 422
  items, 401 without a key, a real 429 with ``Retry-After``, the advisor, the
  stream, retries on 503/429 (a scripted local server), deadlines, and the
  gin-hand example played to its end.

``npm ci`` runs once per lockfile (offline-friendly: ``--prefer-offline``
reads npm's cache first); the module skips where ``node`` or ``npm`` is
missing (``.ci/run`` installs them).
"""

from __future__ import annotations

import difflib
import hashlib
import json
import os
import re
import shutil
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from benchmarks.service.load import Server

ROOT = Path(__file__).resolve().parent.parent
CLIENT = ROOT / "clients" / "typescript"
GENERATED = CLIENT / "src" / "generated"
NODE = shutil.which("node")
NPM = shutil.which("npm")
REGENERATE = "cd clients/typescript && npm run generate"



def _node_major() -> int:
    if NODE is None:
        return 0
    version = subprocess.run([NODE, "--version"], capture_output=True, text=True, check=False,
                             timeout=30).stdout
    match = re.match(r"v(\d+)\.", version)
    return int(match.group(1)) if match else 0


pytestmark = [
    pytest.mark.skipif(NODE is None or NPM is None,
                       reason="node and npm are needed for the TypeScript client (.ci/run "
                              "installs Debian's nodejs and npm)"),
    pytest.mark.skipif(NODE is not None and _node_major() < 18,
                       reason="Node 18 or newer is needed (the global fetch)"),
]


def _run(command: list[str], timeout_s: float, **env: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(command, cwd=CLIENT, env={**os.environ, **env}, capture_output=True,
                          text=True, timeout=timeout_s, check=False)


@pytest.fixture(scope="module")
def node_modules() -> Path:
    """``npm ci`` from the committed lockfile, skipped while node_modules was
    installed from this very lockfile (a stamp holds its digest)."""
    assert NPM is not None
    lock = hashlib.sha256((CLIENT / "package-lock.json").read_bytes()).hexdigest()
    stamp = CLIENT / "node_modules" / ".installed-from-lock"
    if not stamp.exists() or stamp.read_text() != lock:
        result = _run([NPM, "ci", "--prefer-offline", "--no-audit", "--no-fund"], 900)
        assert result.returncode == 0, f"npm ci failed:\n{result.stdout}\n{result.stderr}"
        stamp.write_text(lock)
    return CLIENT / "node_modules"


# The live service runs with API keys, as a studio's would: the Node tests call
# with KEY, check the 401 without one, and a 429 with Retry-After on LIMITED_KEY.
# LIMITED_KEY has one request an hour: the limiter's sliding window lets a key
# on again as its counting window turns, so one request a minute, made in the
# minute's last seconds, was told to wait only a second or two (the Node test
# wants a Retry-After past its 2 s budget; an hour's window ends within 2 s
# once in 1,800 runs).
KEY = "studio-test-key"
LIMITED_KEY = "studio-limited-key"
HOUR_TURN_GUARD_S = 40
"""The Node tests (build included) take about 20 s; started closer than this to
the turn of an hour (the limiter's windows begin on the clock's hours), the
limited key's two requests could fall either side of it, where the sliding
window counts the first at a shade under one and lets the second through
(CI at 19:59:45 got no 429). Then the test waits for the hour to turn."""


def _wait_past_the_turn_of_the_hour() -> None:
    """Sleep until the hour turns when it turns within ``HOUR_TURN_GUARD_S``."""
    left = 3600 - time.time() % 3600
    if left < HOUR_TURN_GUARD_S:
        time.sleep(left + 1)


@pytest.fixture(scope="module")
def service(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    keys = tmp_path_factory.mktemp("keys") / "keys.txt"
    keys.write_text(f"{hashlib.sha256(KEY.encode()).hexdigest()} 100000/minute\n"
                    f"{hashlib.sha256(LIMITED_KEY.encode()).hexdigest()} 1/hour\n")
    running = Server(workers=1, settings={"api_keys_file": str(keys)})
    try:
        running.wait_ready()
    except RuntimeError as error:
        running.close()
        pytest.fail(str(error))
    try:
        yield running
    finally:
        running.close()


def test_the_generated_types_match_openapi_json(node_modules: Path, tmp_path: Path) -> None:
    assert NODE is not None
    result = _run([NODE, "scripts/generate.mjs", "--out", str(tmp_path)], 300,
                  PYTHON=sys.executable)
    assert result.returncode == 0, result.stdout + result.stderr
    generated = sorted(path.name for path in tmp_path.iterdir())
    assert generated == sorted(path.name for path in GENERATED.iterdir())
    stale = []
    for name in generated:
        fresh = (tmp_path / name).read_text(encoding="utf-8")
        committed = (GENERATED / name).read_text(encoding="utf-8")
        if fresh != committed:
            stale.append("".join(list(difflib.unified_diff(
                committed.splitlines(keepends=True), fresh.splitlines(keepends=True),
                f"{name} (committed)", f"{name} (from openapi.json)"))[:30]))
    assert not stale, (
        "clients/typescript/src/generated is stale against openapi.json / api/shared/error_codes.py: "
        f"run `{REGENERATE}` and commit the result\n" + "\n".join(stale))


def test_dependencies_are_pinned_to_what_the_lockfile_holds() -> None:
    package = json.loads((CLIENT / "package.json").read_text(encoding="utf-8"))
    lock = json.loads((CLIENT / "package-lock.json").read_text(encoding="utf-8"))
    wanted = {**package["dependencies"], **package["devDependencies"]}
    assert set(package["dependencies"]) == {"openapi-fetch"}, "the one runtime dependency"
    for name, version in wanted.items():
        assert re.fullmatch(r"\d+\.\d+\.\d+", version), f"{name} {version} is not an exact version"
        assert lock["packages"][f"node_modules/{name}"]["version"] == version, name
    assert lock["packages"][""]["dependencies"] == package["dependencies"], \
        "package-lock.json is not package.json's: run npm install in clients/typescript"


def test_the_node_tests_pass_against_the_live_service(node_modules: Path, service: Server) -> None:
    assert NPM is not None
    _wait_past_the_turn_of_the_hour()
    result = _run([NPM, "test"], 900, RUMMY_SOLVER_URL=service.url, RUMMY_SOLVER_API_KEY=KEY,
                  RUMMY_SOLVER_LIMITED_KEY=LIMITED_KEY)
    output = result.stdout + result.stderr
    assert result.returncode == 0, output[-8000:]
    summary = dict(re.findall(r"^ℹ (tests|pass|fail|skipped) (\d+)$", output, re.MULTILINE))
    assert summary.get("fail") == "0" and summary.get("skipped") == "0", output[-8000:]
    assert summary.get("pass") == summary.get("tests"), output[-8000:]
    skipped = re.findall(r"^\s*﹣ .*$", output, re.MULTILINE)  # the spec reporter's skipped suites
    assert not skipped, "\n".join(skipped)


CONSUMER = """\
import { RummySolver, RummySolverError, type AdviseRequest, type AdviceResponse } from "@rummy-solver/client";

const request: AdviseRequest = { game: "gin", hand: "AS 2S 3S 7H 7D 7C KD QH 4C 9S", upcard: "4S",
                                 history: [], me: 0, dealer: 1 };
export const advise = (solver: RummySolver): Promise<AdviceResponse> => solver.advise(request);
export const isSolverError = (error: unknown): boolean => error instanceof RummySolverError;
"""
"""A game's module: what it imports of the installed package type-checks."""


@pytest.mark.slow
def test_the_package_installs_from_its_tarball(node_modules: Path, tmp_path: Path) -> None:
    """docs/INTEGRATION.md's commands: ``npm pack`` here (which builds), then ``npm
    install`` of the file in a game's project; the game imports it and type-checks."""
    from tests.test_docs_integration import tarball_name

    assert NPM is not None and NODE is not None
    packed = _run([NPM, "pack", "--pack-destination", str(tmp_path)], 600)
    assert packed.returncode == 0, packed.stdout + packed.stderr
    name = tarball_name(json.loads((CLIENT / "package.json").read_text(encoding="utf-8")))
    game = tmp_path / "game"
    (game / "vendor").mkdir(parents=True)
    shutil.copy(tmp_path / name, game / "vendor" / name)
    (game / "package.json").write_text('{"name": "game", "private": true, "type": "module"}\n')

    def in_game(command: list[str]) -> subprocess.CompletedProcess[str]:
        return subprocess.run(command, cwd=game, capture_output=True, text=True, timeout=600,
                              check=False)

    installed = in_game([NPM, "install", "--prefer-offline", "--no-audit", "--no-fund",
                         f"./vendor/{name}"])
    assert installed.returncode == 0, installed.stdout + installed.stderr
    dependencies = json.loads((game / "package.json").read_text())["dependencies"]
    assert dependencies == {"@rummy-solver/client": f"file:vendor/{name}"}
    imported = in_game([NODE, "--input-type=module", "-e",
                        "import * as client from '@rummy-solver/client';"
                        "console.log(Object.keys(client).sort().join(' '))"])
    assert imported.returncode == 0, imported.stderr
    assert {"RummySolver", "RummySolverError", "DeadlineExceededError"} <= set(imported.stdout.split())
    (game / "game.ts").write_text(CONSUMER)
    (game / "tsconfig.json").write_text(json.dumps({
        "compilerOptions": {"target": "ES2022", "module": "NodeNext", "moduleResolution": "NodeNext",
                            "strict": True, "noEmit": True, "types": []},
        "files": ["game.ts"]}))
    checked = in_game([str(node_modules / ".bin" / "tsc"), "-p", "."])
    assert checked.returncode == 0, checked.stdout + checked.stderr


def test_a_stream_line_may_be_every_operation_a_line_may_ask_for() -> None:
    """``LineBodies`` (the client's type of a ``solveStream`` line by its ``op``)
    has every operation a stream or bulk line may name, with its request type:
    ``review_openspiel`` lines were answered by the service but could not be
    written in TypeScript."""
    from api.shared.operations import OPERATIONS, line_names

    source = (CLIENT / "src" / "client.ts").read_text(encoding="utf-8")
    block = source[source.index("export interface LineBodies {"):]
    block = block[:block.index("\n}")]
    bodies = dict(re.findall(r"^  (\w+): api\.(\w+);", block, re.M))
    assert set(bodies) == set(line_names())
    for name, type_name in bodies.items():
        assert type_name == OPERATIONS[name].request.__name__, name
