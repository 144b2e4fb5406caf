"""Every repository path the docs cite exists, and every experiment a
parameters object cites is a file of ``docs/experiments/``.

Scanned: ``README.md``, ``CHANGELOG.md``, ``docs/**/*.md``, ``benchmarks/README.md``
and the docstrings and comments of every ``.py`` file under ``solver/``, ``api/``
and ``benchmarks/``.  A path is a word like ``docs/RULES.md``,
``solver/play/gin/state.py`` or ``benchmarks/arena/gin/players/``: a
relative path with a file extension, or a folder (ending in ``/``) under one
of the repository's top folders; a Markdown link's target counts too.  It
resolves from the repository root, or from the citing file's folder (as a
Markdown link or a package-relative mention does).  Globs and placeholders
(``*``, ``<name>``, ``{json}``), absolute paths and URLs are not paths here.
"""

from __future__ import annotations

import ast
import functools
import io
import re
import subprocess
import tokenize
from collections.abc import Iterator
from pathlib import Path

from solver.play.model import GAMES
from solver.play.params import describe

ROOT = Path(__file__).resolve().parent.parent
MARKDOWN = ["README.md", "CHANGELOG.md", "benchmarks/README.md", "docs/**/*.md"]
CODE = ["solver", "api", "benchmarks"]
EXTENSIONS = ("md", "py", "js", "mjs", "ts", "json", "jsonl", "toml", "yml", "yaml", "svg", "lua",
              "txt", "html", "css", "sh", "cfg", "ini", "png", "lock")
TOP_FOLDERS = frozenset(p.name for p in ROOT.iterdir() if p.is_dir() and not p.name.startswith("."))
"""Folders a trailing-slash path may start with (a file path may start anywhere:
``notes/x.md`` is a citation even though no ``notes/`` exists)."""

"""Trees that issue 39's parallel moves are reshaping: a missing path under them
may be a new place cited before its move lands, or an old place still cited."""

_URL = re.compile(r"[a-z][a-z0-9+.-]*://\S+")
_PATH = re.compile(
    r"(?<![\w./~-])"                                     # not inside a longer word, path or URL
    r"((?:[A-Za-z0-9_][\w.-]*/)+"                        # folders
    r"(?:[\w.-]*\.(?:" + "|".join(EXTENSIONS) + r")(?![\w-])|(?=[\s`'\")\]:,;]|$)))")
_LINK = re.compile(r"\]\(([^)\s]+)(?:\s+\"[^\"]*\")?\)")


def _lines_of_markdown(path: Path) -> Iterator[tuple[int, str]]:
    yield from enumerate(path.read_text(encoding="utf-8").splitlines(), 1)


def _lines_of_code(path: Path) -> Iterator[tuple[int, str]]:
    """The docstrings (and attribute docstrings) and comments of a module, by line."""
    source = path.read_text(encoding="utf-8")
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Expr) and isinstance(node.value, ast.Constant) \
                and isinstance(node.value.value, str):
            for offset, line in enumerate(node.value.value.splitlines()):
                yield node.lineno + offset, line
    for token in tokenize.generate_tokens(io.StringIO(source).readline):
        if token.type == tokenize.COMMENT:
            yield token.start[0], token.string


def _candidates(line: str, markdown: bool = True) -> Iterator[tuple[str, bool]]:
    """``(path, is_link)`` for every path-like word of ``line`` and, in Markdown,
    every link target."""
    for target in _LINK.findall(line) if markdown else ():
        if "://" not in target and not target.startswith(("#", "mailto:")):
            yield target.split("#", 1)[0], True
    for match in _PATH.finditer(_URL.sub(" ", line)):
        yield match.group(1), False


def _is_citation(path: str, is_link: bool) -> bool:
    if not path or any(mark in path for mark in "*<>{}$%") or path.startswith(("/", "~")):
        return False
    if is_link:
        return True
    if path.endswith("/"):
        return path.split("/", 1)[0] in TOP_FOLDERS
    return True


def _exists(path: str, cited_in: Path, is_link: bool) -> bool:
    bases = [cited_in.parent] if is_link else [ROOT, cited_in.parent]
    return any((base / path).resolve().exists() for base in bases) or _made_by_the_user(path)


@functools.cache
def _made_by_the_user(path: str) -> bool:
    """A file the docs tell the user to make, which git ignores (``deploy/api-keys.txt``)."""
    try:
        done = subprocess.run(["git", "check-ignore", "-q", path], cwd=ROOT, check=False,
                              capture_output=True, timeout=10)
    except (OSError, subprocess.TimeoutExpired):
        return False
    return done.returncode == 0


def _sources() -> Iterator[tuple[Path, Iterator[tuple[int, str]]]]:
    for pattern in MARKDOWN:
        for path in sorted(ROOT.glob(pattern)):
            yield path, _lines_of_markdown(path)
    for folder in CODE:
        for path in sorted((ROOT / folder).rglob("*.py")):
            yield path, _lines_of_code(path)


def missing_citations() -> dict[str, list[str]]:
    """Each cited path that does not exist, with the places (``file:line``) citing it."""
    missing: dict[str, list[str]] = {}
    for source, lines in _sources():
        for number, line in lines:
            for path, is_link in _candidates(line, markdown=source.suffix == ".md"):
                if _is_citation(path, is_link) and not _exists(path, source, is_link):
                    where = f"{source.relative_to(ROOT)}:{number}"
                    missing.setdefault(path, []).append(where)
    return missing


def test_the_scanner_finds_paths() -> None:
    line = ("see docs/RULES.md, `solver/play/gin/state.py`, notes/x.md and [the index](../a/b.md#top); "
            "not https://example.com/a/b.md, /tmp/bench.json, a/b, results/<name>.json or *.py")
    found = [(path, link) for path, link in _candidates(line) if _is_citation(path, link)]
    assert found == [("../a/b.md", True), ("docs/RULES.md", False),
                     ("solver/play/gin/state.py", False), ("notes/x.md", False)]
    assert [p for p, _ in _candidates("the `benchmarks/arena/gin/players/` folder")] \
        == ["benchmarks/arena/gin/players/"]
    assert [p for p, _ in _candidates(">>> FairQueue[str](reserve=1)", markdown=False)] == []


def test_every_cited_path_exists() -> None:
    missing = missing_citations()
    lines = [f"  {path}  (cited in {', '.join(sorted(set(places)))})"
             for path, places in sorted(missing.items())]
    assert not missing, f"{len(missing)} cited paths do not exist:\n" + "\n".join(lines)


def test_every_experiment_a_parameter_cites_exists() -> None:
    folder = ROOT / "docs" / "experiments"
    missing = sorted({f"{type(game.params).__name__}.{row.name} cites {row.experiment}"
                      for game in GAMES.values() for row in describe(game.params)
                      if row.experiment and not (folder / row.experiment).is_file()})
    assert not missing, ("parameters cite experiments that docs/experiments/ does not hold "
                         "(docs/experiments/CONSTANTS.md says which file set each):\n  "
                         + "\n  ".join(missing))
