"""The move advisor: the move a strong player would make, from what a player may know.

``advise(game, ...)`` takes the public state of a hand -- the player's own
cards, the pile, the public history, the score -- checks that it could have
arisen (``InvalidStateError`` saying why not), and answers every legal move
of the decision ranked, with expected points, win probabilities and reasons
(``solver.play.advice``).  Games: ``gin`` (``solver.play.gin``), ``indian13``
and ``indian21`` (``solver.play.indian``), ``rummy500``, ``rommy`` and
``basic`` (``solver.play.laydown``).  One call serves every game: each
game takes the fields it needs and refuses, by name, a field it does not
take (``field_not_for_game``): ``score`` and ``oklahoma`` are gin's,
``wild_rank`` (the cut card) Indian rummy's, ``players`` every game's but
gin's.

>>> advice = advise("gin", hand="AS 2S 3S 7H 7D 7C KD QH 4C 9S", upcard="4S",
...                 me=0, dealer=1, history=[], seed=1, level="novice")
>>> advice.phase, advice.recommended.move.action
('first_upcard', 'take_discard')
>>> advice = advise("indian13", hand="AH 2H 3H 5S 6S JK 9D 9C 9S KD QD 4C 2D", upcard="8C",
...                 wild_rank="7H", players=2, me=1, dealer=0, seed=1, level="novice")
>>> advice.phase, sorted(m.move.action for m in advice.moves)
('draw', ['draw_stock', 'drop', 'take_discard'])
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from solver.deadline import Deadline, play_deadline
from solver.errors import InvalidOptionError, InvalidRulesError, InvalidStateError
from solver.gin import gin_deal, resolve_knock_limit
from solver.play.advice import Advice, Layoff, Move, MoveValue
from solver.play.gin.advisor import DEFAULT_LEVEL, LEVELS, GinAdvisor
from solver.play.gin.state import GinState

GAMES: tuple[str, ...] = ("gin", "indian13", "indian21", "rummy500", "rommy", "basic")
INDIAN_GAMES: tuple[str, ...] = ("indian13", "indian21")
LAY_DOWN_GAMES: tuple[str, ...] = ("rummy500", "rommy", "basic")
"""The games of the pile and the table (``solver.play.laydown``)."""

__all__ = ["GAMES", "LEVELS", "Advice", "Layoff", "Move", "MoveValue", "advise"]


def _not_for(game: str, name: str, takes: str) -> InvalidStateError:
    return InvalidStateError(f"{name} is not a field of {game}: it takes {takes}",
                             code="field_not_for_game", loc=(name,))


def advise(
    game: str = "gin",
    *,
    hand: object,
    upcard: object,
    history: Sequence[object] | None = None,
    me: int = 0,
    dealer: int = 1,
    discard_pile: object = None,
    stock_count: int | None = None,
    score: Mapping[str, Any] | None = None,
    rules: Mapping[str, Any] | None = None,
    oklahoma: bool = False,
    wild_rank: str | None = None,
    players: int | None = None,
    level: str = DEFAULT_LEVEL,
    seed: int = 0,
    time_limit_ms: int | None = None,
    deadline: Deadline | None = None,
) -> Advice:
    """Every legal move of the player to act, ranked (see the module docstring).

    ``rules`` overrides the game preset's knobs; ``oklahoma`` (gin) makes the
    first upcard set the knock limit; ``wild_rank`` (Indian) is the cut card
    and ``players`` (Indian 2 to 6, Rummy 500 2 to 8 -- two decks from 5 --,
    Rommy and basic 2 to 6; default 2) the number of players;
    ``level`` is ``novice``, ``standard`` or ``expert``; ``seed`` makes the
    answer reproducible; the call returns by ``time_limit_ms`` (or
    ``deadline``) with the best valuation found."""
    if game not in GAMES:
        raise InvalidRulesError("game", f"unknown game {game!r}; the advisor plays "
                                        f"{', '.join(GAMES)}", code="unknown_variant")
    if level not in LEVELS:
        raise InvalidOptionError("level", f"unknown level {level!r}; choose one of "
                                          f"{', '.join(LEVELS)}", code="invalid_level")
    if isinstance(seed, bool) or not isinstance(seed, int):
        raise InvalidOptionError("seed", f"seed must be an integer; got {seed!r}",
                                 code="invalid_seed")
    until = play_deadline(time_limit_ms, deadline)
    if game in LAY_DOWN_GAMES:
        from solver.play.laydown import advise_lay_down

        for name, value, takes in (("score", score, "no match score (each round is scored "
                                                    "alone)"),
                                   ("oklahoma", oklahoma or None, "no knock limit"),
                                   ("wild_rank", wild_rank, "no cut card (the jokers are wild)")):
            if value is not None:
                raise _not_for(game, name, takes)
        return advise_lay_down(game, hand=hand, upcard=upcard, history=history, me=me, dealer=dealer,
                               discard_pile=discard_pile, stock_count=stock_count,
                               players=players, level=level, seed=seed, deadline=until,
                               rules=rules)
    if game in INDIAN_GAMES:
        from solver.play.indian import advise_indian

        if score is not None:
            raise _not_for(game, "score", "no match score (each deal is scored alone)")
        if oklahoma:
            raise _not_for(game, "oklahoma", "no knock limit")
        return advise_indian(game, hand=hand, upcard=upcard, history=history, me=me,
                             dealer=dealer, discard_pile=discard_pile, stock_count=stock_count,
                             rules=rules, wild_rank=wild_rank, players=players, level=level,
                             seed=seed, deadline=until)
    if wild_rank is not None:
        raise _not_for(game, "wild_rank", "no cut card")
    if players is not None:
        raise _not_for(game, "players", "two players only")
    deal = gin_deal(rules)
    state = GinState.parse(me=me, dealer=dealer, hand=hand, upcard=upcard, history=history,
                           discard_pile=discard_pile, stock_count=stock_count, score=score)
    limit, _ = resolve_knock_limit(deal, upcard=upcard if oklahoma else None)  # type: ignore[arg-type]
    return GinAdvisor(state, deal, limit, LEVELS[level], seed, until).advise()
