"""Where the arena's recorded games go: one JSON line per game played.

Each game folder turns its referee's account of a game into a recorded game
(docs/REVIEW.md, "The recorded game": ``gin.records``, ``indian.records``,
``laydown.records``), a plain JSON dict written by the arena itself -- the
referees and players import nothing of ``solver`` but its words, so the
review's ``read_record`` is an independent check of every record.  This
module only delivers them: a runner's ``records`` option is

* a path (``str`` or ``Path``): each record is **appended** to it as one line
  (so a series of runs collects its games in one file; ``python -m
  benchmarks --arena --records PATH`` empties the file first), or
* a callable: it is called with each record's JSON line (no newline), or
* None: no records.

Records are written in the order of the games (pairs or deals in order,
then the games of each), whatever the number of worker processes.

>>> lines = []
>>> write_records(lines.append, [{"game": "gin", "players": ["a", "b"]}])
1
>>> lines
['{"game":"gin","players":["a","b"]}']
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any, Protocol, TypeVar

RecordSink = Callable[[str], None]
"""Receives one recorded game as a JSON line (without its newline)."""
Records = str | Path | RecordSink | None
"""A runner's ``records`` option (see the module docstring)."""

ResultT = TypeVar("ResultT", covariant=True)
EventT = TypeVar("EventT", covariant=True)


class PlayedGame(Protocol[ResultT, EventT]):
    """What the rotated-seat games' records are written from: a runner's
    record of one game (Indian rummy's ``GameRecord``, the lay-down games'
    ``RoundRecord``; a runner imports its game's records module, so that
    module names the shape instead of importing the runner back)."""

    @property
    def seats(self) -> tuple[str, ...]:
        """The player in each seat."""

    @property
    def result(self) -> ResultT | None:
        """None: stopped by an illegal action."""

    @property
    def deck(self) -> tuple[int, ...]:
        """The shuffled deck the game was dealt from."""

    @property
    def events(self) -> tuple[EventT, ...]:
        """The referee's public history."""

    @property
    def drawn(self) -> tuple[int, ...]:
        """The card of each stock draw, in order."""


def record_line(record: dict[str, Any]) -> str:
    """One record as a compact JSON line."""
    return json.dumps(record, separators=(",", ":"))


def write_records(records: Records, games: Iterable[dict[str, Any]]) -> int:
    """Deliver ``games`` (recorded games, in order) to ``records``; how many."""
    if records is None:
        return 0
    lines = [record_line(game) for game in games]
    if callable(records):
        for line in lines:
            records(line)
    else:
        with Path(records).open("a", encoding="utf-8") as out:
            out.writelines(line + "\n" for line in lines)
    return len(lines)


def file_sink(path: str | Path) -> RecordSink:
    """A sink that empties ``path`` now and appends each line given it later
    (what ``--records PATH`` hands every run of one command)."""
    target = Path(path)
    target.write_text("", encoding="utf-8")

    def append(line: str) -> None:
        with target.open("a", encoding="utf-8") as out:
            out.write(line + "\n")

    return append


__all__ = ["RecordSink", "Records", "file_sink", "record_line", "write_records"]
