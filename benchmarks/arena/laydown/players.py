"""The Rummy 500, Rommy and basic rummy players the arena can seat, and their
registry (the same players for the three games: each reads the table's
game, its ``Variant``, from its view).

* ``greedy`` and ``careful`` -- the library's hints as they are, and the
  same with some care (``hint_players``);
* ``hoarder`` -- holds its melds until it can go out or the stock runs low,
  and the noisy versions ``greedy_noisy``, ``careful_noisy``,
  ``hoarder_noisy`` (random-ish: a random draw or throw now and then)
  (``styles``);
* ``random`` -- random legal moves, to fuzz the referee (``random_player``);
* ``advisor`` / ``advisor_novice`` / ``advisor_expert`` -- ``solver.play.advise``'s
  recommendation from the public state only (``advisor_player``);
  ``advisor_lay_all`` never holds a meld back (an ablation).

Every player sees only its ``PlayerView``.
"""

from __future__ import annotations

from benchmarks.arena.core.entrants import Entrant
from benchmarks.arena.core.entrants import make_player as make_entrant
from benchmarks.arena.laydown.advisor_player import AdvisorPlayer
from benchmarks.arena.laydown.hint_players import CarefulPlayer, GreedyHintPlayer
from benchmarks.arena.laydown.random_player import RandomPlayer
from benchmarks.arena.laydown.referee import Player
from benchmarks.arena.laydown.styles import HOARD_STOCK, NOISE, HoarderPlayer, NoisyPlayer

LABEL = "Rummy 500"
"""The game as messages name it (Rommy's runner names its own: ``Variant.label``)."""


ENTRANTS: dict[str, Entrant[Player]] = {e.name: e for e in (
    Entrant("advisor", "the move advisor, level standard (solver.play.advise)",
            lambda _: AdvisorPlayer("standard")),
    Entrant("advisor_novice", "the move advisor, level novice", lambda _: AdvisorPlayer("novice")),
    Entrant("advisor_expert", "the move advisor, level expert", lambda _: AdvisorPlayer("expert")),
    Entrant("advisor_lay_all", "the advisor's best move among those laying the most cards "
                               "(an ablation: never holds a meld back)",
            lambda _: AdvisorPlayer("standard", lay_all=True)),
    Entrant("greedy", "today's hints: pile_hint (basic: draw_hint), layoffs_hint, discard_hint",
            lambda _: GreedyHintPlayer()),
    Entrant("careful", "the hints with care: deep takes that pay, lays off all that fits, "
                       "keeps what the next player collects (basic: draws and throws weighed "
                       "against the table and the next draw)", lambda _: CarefulPlayer()),
    Entrant("hoarder", f"greedy, but holds its melds until it can go out (or the stock is "
                       f"down to {HOARD_STOCK})", lambda _: HoarderPlayer()),
    Entrant("greedy_noisy", f"the greedy player, a random draw or throw {NOISE:.0%} of the time",
            lambda _: NoisyPlayer(GreedyHintPlayer(), "greedy_noisy")),
    Entrant("careful_noisy", f"the careful player, a random draw or throw {NOISE:.0%} of the "
                             "time", lambda _: NoisyPlayer(CarefulPlayer(), "careful_noisy")),
    Entrant("hoarder_noisy", f"the hoarder, a random draw or throw {NOISE:.0%} of the time",
            lambda _: NoisyPlayer(HoarderPlayer(), "hoarder_noisy")),
    Entrant("random", "random legal moves (fuzzes the referee)", lambda _: RandomPlayer()),
)}


def make_player(name: str, label: str = LABEL) -> Player:
    """A fresh player named ``name`` (``label``: the game, for the message of an unknown name)."""
    return make_entrant(ENTRANTS, name, label)
