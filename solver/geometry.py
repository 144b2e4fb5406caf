"""Run geometry: where a rank may sit in a run, one table per ace mode.

A run lives on a line of *coordinates*: coordinate ``q`` stands for rank
``q % 13`` (0 = ace).  Each ace mode is data read by every module that
builds or checks runs (the candidate generator, layoffs, the independent
meld checker, the bitmask engine), never an ``if`` on the mode:

* ``low``       -- coordinates 0..12: A-2-3 .. J-Q-K;
* ``high_low``  -- 0..13: the ace is 0 (A-2-3) or 13 (Q-K-A), never both;
* ``high``      -- 1..13: the ace only ranks high (Q-K-A, no A-2-3);
* ``wrap``      -- unbounded: K-A-2 too (coordinates are taken modulo 13).

A run covers consecutive coordinates, at most 13 of them (one ace, no rank
twice).  Its bottom card is a *low ace* when it is an ace (A-2-3...; rummy500
and Kalooki score such an ace 1).

>>> GEOMETRY["high_low"].coordinates(0), GEOMETRY["high"].coordinates(0)
((0, 13), (13,))
>>> [len(GEOMETRY[mode].windows(3)) for mode in ("low", "high_low", "high", "wrap")]
[11, 12, 11, 13]
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal, get_args

AceMode = Literal["low", "high_low", "high", "wrap"]
ACE_MODES: tuple[str, ...] = get_args(AceMode)

MAX_RUN_CARDS = 13
_FAR = 1_000  # "unbounded" for the wrap mode


@dataclass(frozen=True, slots=True)
class RunGeometry:
    """The coordinate line of one ace mode (see the module docstring)."""

    ace: str
    lowest: int
    highest: int
    ace_coordinates: tuple[int, ...]

    def coordinates(self, rank: int) -> tuple[int, ...]:
        """The coordinates a card of ``rank`` may take in a run."""
        return self.ace_coordinates if rank == 0 else (rank,)

    def span(self, low: int, high: int) -> tuple[int, int]:
        """Lowest and highest coordinate a run covering ``low..high`` may reach."""
        return max(self.lowest, high - MAX_RUN_CARDS + 1), min(self.highest, low + MAX_RUN_CARDS - 1)

    def fits(self, low: int, high: int) -> bool:
        """A run may cover exactly the coordinates ``low..high``."""
        return self.lowest <= low <= high <= self.highest and high - low < MAX_RUN_CARDS

    def windows(self, length: int) -> list[tuple[int, ...]]:
        """Every rank sequence (low to high) a run of ``length`` cards may cover."""
        if not 1 <= length <= MAX_RUN_CARDS:
            return []
        low = max(self.lowest, -MAX_RUN_CARDS + 1)
        high = min(self.highest, 2 * MAX_RUN_CARDS - 2)
        out = []
        for start in range(low, high - length + 2):
            ranks = tuple(q % 13 for q in range(start, start + length))
            if ranks not in out:
                out.append(ranks)
        return out

    @staticmethod
    def low_ace_at_bottom(start: int) -> bool:
        """A run whose bottom card sits at coordinate ``start`` starts with a low
        ace (A-2-3...; in K-A-2 the ace is not at the bottom)."""
        return start % 13 == 0


GEOMETRY: dict[str, RunGeometry] = {
    "low": RunGeometry("low", 0, 12, (0,)),
    "high_low": RunGeometry("high_low", 0, 13, (0, 13)),
    "high": RunGeometry("high", 1, 13, (13,)),
    "wrap": RunGeometry("wrap", -_FAR, _FAR, (0,)),
}
"""The geometry of each ace mode, built once at import."""
