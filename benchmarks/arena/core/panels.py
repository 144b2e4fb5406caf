"""The opponent panels and the split of the arena's seeds: what may be tuned
on, and what the project's figures are reported on (issue 36; the rule of
``docs/experiments/README.md``: a figure reported as the project's result
comes from opponents and deals other than those its numbers were tuned on).

* Each game's **panel** is bots of different styles, cut in two halves.  The
  **tuning half** is what ``python -m benchmarks --tune GAME`` plays; the
  **held-out half** is what ``python -m benchmarks --arena --panel GAME``
  reports.  A bot and its noisy version sit in the same half, so a style
  tuned on is never a style reported on.  The bots the issue's targets name
  (gin: the EAAI port and MARJJ-style; Indian: greedy and distance; the
  lay-down games: greedy and careful) are held out.
* The **seeds** are split the same way: ``TUNING_SEEDS`` (1000-1999) deal the
  tuning deals, ``HELD_OUT_SEEDS`` (5000-5999) the held-out ones.  A seed
  deals other decks in every game (each game's random streams are named
  after it), and every bot of a half meets the same decks.

The names are the entrants of each game's registry (``gin.players.registry``,
``indian.players``, ``laydown.players``); ``tests/test_arena_panels.py``
checks that they are, that the halves share no bot and no style, and that
every bot plays legal games.
"""

from __future__ import annotations

from dataclasses import dataclass

TUNING_SEEDS = range(1000, 2000)
"""The seeds of tuning deals: ``--tune`` plays only these."""
HELD_OUT_SEEDS = range(5000, 6000)
"""The seeds of held-out deals: the panel's tables are played on these."""
TUNING = "tuning"
HELD_OUT = "held_out"
HALVES = (TUNING, HELD_OUT)


@dataclass(frozen=True, slots=True)
class Panel:
    """One game's opponents, in two halves."""

    tuning: tuple[str, ...]
    """Bots the tuner plays (``--tune``)."""
    held_out: tuple[str, ...]
    """Bots the reported figures are played against (``--panel``)."""
    matches: tuple[str, ...] = ()
    """Held-out bots a match win rate is reported against (gin: the targets' two)."""

    def half(self, name: str) -> tuple[str, ...]:
        """The bots of half ``name`` (``tuning`` or ``held_out``)."""
        if name == TUNING:
            return self.tuning
        if name == HELD_OUT:
            return self.held_out
        raise ValueError(f"unknown half {name!r}; choose {' or '.join(HALVES)}")


GIN = Panel(
    tuning=("greedy", "greedy_noisy", "careful", "careful_noisy", "gin_hunter", "advisor_novice"),
    held_out=("openspiel_simple", "eaai_simple", "eaai_noisy", "marjj_style", "low_knocker"),
    matches=("eaai_simple", "marjj_style"),
)
INDIAN = Panel(
    tuning=("careful", "careful_noisy", "advisor_novice"),
    held_out=("greedy", "greedy_noisy", "distance", "distance_noisy"),
)
LAY_DOWN = Panel(
    tuning=("hoarder", "hoarder_noisy", "advisor_novice"),
    held_out=("greedy", "greedy_noisy", "careful", "careful_noisy"),
)
PANELS: dict[str, Panel] = {
    "gin": GIN,
    "indian13": INDIAN,
    "indian21": INDIAN,
    "rummy500": LAY_DOWN,
    "rommy": LAY_DOWN,
    "basic": LAY_DOWN,
}
"""Each game's panel (the Indian games share theirs, the lay-down games theirs)."""


def seeds_of(half: str) -> range:
    """The seeds of half ``half``."""
    return TUNING_SEEDS if half == TUNING else HELD_OUT_SEEDS if half == HELD_OUT else range(0)


def check_seed(seed: int, half: str) -> None:
    """``ValueError`` when ``seed`` is not one of half ``half``'s seeds."""
    seeds = seeds_of(half)
    if seed not in seeds:
        raise ValueError(f"seed {seed} is not a {half.replace('_', '-')} seed "
                         f"({seeds.start}-{seeds.stop - 1})")
