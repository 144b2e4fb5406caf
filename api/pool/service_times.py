"""How long a job is expected to hold a solver, learnt per kind of job.

A job's *kind* is its operation, the game it is about, its hand size and,
for advice, its level and the players at the table (``kind_of``): jobs of
one kind cost about the same, while a gin solve and a 30-card 8-deck hint
differ by six orders of magnitude, advice on a gin hand and on a Rummy 500
deal at six players by two, and expert advice on a hand and novice advice on
it by one or two (a service giving novice hints taught the pool that
advice on that hand takes 30 ms, and then queued a crowd of expert requests
that each took a second, to refuse them at their deadline), so one average for all
would admit a crowd of heavy requests that can never start in time (and then
refuse them only at their deadline) or refuse cheap ones that could.

A job's time also depends on its time limit: an anytime search (advice, a
hard solve) runs until its deadline, so expert advice with a 5 s budget holds
a solver five times as long as with a 1 s one.  Times are therefore learnt
per kind *and* time limit (within a factor of two: ``limit_class``), and a
job cut short by its deadline counts as one that would have used its whole
limit (it started late, or its limit was what stopped it).  A kind never
seen at a limit is assumed to use that whole limit until one has finished.

Each kind keeps a moving average of its times and of their deviation from
it (as TCP keeps its round-trip times: the deviation starts at half the
first time).  Admission plans with the *cautious* figure, the average plus
the deviation, so that a request it takes does start in time although
jobs of one kind vary (expert advice on one hand: from milliseconds to over
a second) and run slower when many run at once; the plan of the waiting
jobs (``api.pool.solver_pool``) uses the average, so it refuses a job it
took only once the jobs ahead really ran long.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

_WEIGHT = 0.3
"""Weight of the newest observation in a kind's moving average."""
DEVIATIONS = 1.0
"""The cautious time is the average and this many deviations: after one
observation, 1.5 times it (two deviations: twice it, which left a crowd's
solvers idle before its deadline)."""
CUT = 0.8
"""A job that ran this share of the time it had left (or more) was cut short
by its deadline (the library stops a little before it)."""
_MAX_KINDS = 4096
"""Kinds remembered (the oldest are forgotten; a kind is a handful of fields)."""


GAME_FIELDS = ("game", "variant")
"""The argument that names what a call is about, the first one present:
advice's ``game`` (``/v1/advise``), every other operation's ``variant``."""


def kind_of(op: str, args: Mapping[str, Any]) -> str:
    """The kind of a job: ``op:game:cards`` (``GAME_FIELDS``; ``r`` after the
    game when rules are overridden; cards rounded down to a multiple of 4),
    then the ``level`` and the ``players`` when the call has them (advice).

    >>> kind_of("solve_hand", {"variant": "gin", "hand": "AS 2S 3S 7H 7D 7C KD QH 4C 9S"})
    'solve_hand:gin:8'
    >>> kind_of("advise", {"game": "rummy500", "hand": "AH 2H 3H 9S 9D KC 5C", "rules": None})
    'advise:rummy500:4'
    >>> kind_of("advise", {"game": "rummy500", "hand": "AH 2H 3H 9S 9D KC 5C", "level": "expert",
    ...                    "players": 8})
    'advise:rummy500:4:expert:8'
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
    kind = f"{op}:{game}{extra}:{cards // 4 * 4 if cards >= 0 else '-'}"
    for name in ("level", "players"):
        value = args.get(name)
        if isinstance(value, str | int) and not isinstance(value, bool):
            kind += f":{value}"
    return kind


def limit_class(limit_s: float) -> int:
    """Time limits within a factor of two share their times: the bit length of
    the limit in whole milliseconds.

    >>> limit_class(1.0), limit_class(1.5), limit_class(5.0), limit_class(0.001)
    (10, 11, 13, 1)
    """
    return max(0, int(limit_s * 1000)).bit_length()


class ServiceTimes:
    """Moving averages of seconds per job kind and time limit (module docstring).

    >>> times = ServiceTimes()
    >>> times.estimate("advise:gin:8", 5.0)  # never seen: its whole limit
    5.0
    >>> times.observe("advise:gin:8", 1.0, 0.95)  # cut short by its 1 s limit
    >>> times.estimate("advise:gin:8", 1.0), times.estimate("advise:gin:8", 5.0)
    (0.95, 5.0)
    >>> times.observe("advise:gin:8", 5.0, 1.9, available_s=2.0)  # started with 2 s left
    >>> times.estimate("advise:gin:8", 5.0), times.cautious("advise:gin:8", 5.0)
    (4.75, 5.0)
    >>> times.observe("advise:gin:8", 0.2, 0.1)
    >>> round(times.estimate("advise:gin:8", 0.2), 3), round(times.cautious("advise:gin:8", 0.2), 3)
    (0.1, 0.15)
    """

    def __init__(self) -> None:
        self.seconds: dict[tuple[str, int], tuple[float, float]] = {}
        """Per kind and limit class: the average seconds and their average deviation."""

    def estimate(self, kind: str, limit_s: float) -> float:
        """Expected seconds for a job of ``kind`` with a ``limit_s`` time limit."""
        seen = self.seconds.get((kind, limit_class(limit_s)))
        return limit_s if seen is None else min(seen[0], limit_s)

    def cautious(self, kind: str, limit_s: float) -> float:
        """Seconds a job of ``kind`` rarely takes longer than: the average and
        ``DEVIATIONS`` times the deviation (at most ``limit_s``)."""
        seen = self.seconds.get((kind, limit_class(limit_s)))
        return limit_s if seen is None else min(seen[0] + DEVIATIONS * seen[1], limit_s)

    def observe(self, kind: str, limit_s: float, seconds: float,
                available_s: float | None = None) -> None:
        """A job of ``kind`` with a ``limit_s`` time limit held its solver
        ``seconds``, having started with ``available_s`` of its limit left
        (default: all of it)."""
        available_s = limit_s if available_s is None else available_s
        if available_s > 0 and seconds >= CUT * available_s:
            # Stopped by its deadline: given its whole limit it would have run
            # as long in proportion (a job that started late is not a quick one).
            seconds = min(limit_s, seconds * limit_s / available_s)
        key = (kind, limit_class(limit_s))
        seen = self.seconds.get(key)
        if seen is None:
            if len(self.seconds) >= _MAX_KINDS:
                del self.seconds[next(iter(self.seconds))]
            self.seconds[key] = (seconds, seconds / 2)
        else:
            average, deviation = seen
            deviation += _WEIGHT * (abs(seconds - average) - deviation)
            self.seconds[key] = (average + _WEIGHT * (seconds - average), deviation)
