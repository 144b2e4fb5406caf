"""How long a job is expected to hold a solver, learnt per kind of job.

A job's *kind* is its operation, the game it is about and its hand size
(``kind_of``): jobs of one kind cost about the same, while a gin solve and a
30-card 8-deck hint differ by six orders of magnitude, and advice on a gin
hand and on a Rummy 500 deal at six players by two, so one average for all
would admit a crowd of heavy requests that can never start in time (and then
refuse them only at their deadline) or refuse cheap ones that could.  A kind
never seen is assumed to use its whole time limit until one has finished.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

_WEIGHT = 0.3
"""Weight of the newest observation in a kind's moving average."""
_MAX_KINDS = 4096
"""Kinds remembered (the oldest are forgotten; a kind is a handful of fields)."""


GAME_FIELDS = ("game", "variant")
"""The argument that names what a call is about, the first one present:
advice's ``game`` (``/v1/advise``), every other operation's ``variant``."""


def kind_of(op: str, args: Mapping[str, Any]) -> str:
    """The kind of a job: ``op:game:cards`` (``GAME_FIELDS``; ``r`` after the
    game when rules are overridden; cards rounded down to a multiple of 4).

    >>> kind_of("solve_hand", {"variant": "gin", "hand": "AS 2S 3S 7H 7D 7C KD QH 4C 9S"})
    'solve_hand:gin:8'
    >>> kind_of("advise", {"game": "rummy500", "hand": "AH 2H 3H 9S 9D KC 5C", "rules": None})
    'advise:rummy500:4'
    """
    game = next((args[name] for name in GAME_FIELDS if name in args), "")
    hand = args.get("hand")
    if isinstance(hand, str):
        cards = len(hand.split())
    elif isinstance(hand, list | tuple):
        cards = len(hand)
    else:
        cards = -1
    extra = "r" if args.get("rules") else ""
    return f"{op}:{game}{extra}:{cards // 4 * 4 if cards >= 0 else '-'}"


class ServiceTimes:
    """Moving averages of seconds per job kind."""

    def __init__(self) -> None:
        self.seconds: dict[str, float] = {}

    def estimate(self, kind: str, limit_s: float) -> float:
        """Expected seconds for a job of ``kind`` with a ``limit_s`` time limit."""
        seen = self.seconds.get(kind)
        return limit_s if seen is None else min(seen, limit_s)

    def observe(self, kind: str, seconds: float) -> None:
        """A job of ``kind`` held its solver ``seconds``."""
        seen = self.seconds.get(kind)
        if seen is None:
            if len(self.seconds) >= _MAX_KINDS:
                del self.seconds[next(iter(self.seconds))]
            self.seconds[kind] = seconds
        else:
            self.seconds[kind] = seen + _WEIGHT * (seconds - seen)
