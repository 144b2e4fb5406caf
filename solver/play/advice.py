"""What the advisor answers, for every game: the moves of a decision, valued and ranked.

* ``Move`` -- one legal move of the phase: an ``action`` (``take_discard``,
  ``draw_stock``, ``pass``, ``discard``, ``knock``, ``lay_off`` ...) with the
  card it plays and the melds it shows or lays off, as the game needs;
* ``MoveValue`` -- a move with its expected points for this hand (the
  advisor's side; negative: it expects to pay), the probability of winning
  the hand (and the match, when a score is given), whether the figures are
  exact or estimated from ``samples`` simulated deals (with the standard
  error of the expected points), whether the search compared it in full
  (``searched``: else its place comes from the advisor's judgement and its
  figures from a few deals), how far its figures can be trusted
  (``confidence``: ``exact``; ``ranked``, compared with the recommendation
  on the same deals; ``rough``, a few deals only), how far it is behind the
  recommendation on the deals both were played on (``gap``, in the units
  the moves are ranked by, and its paired standard error ``gap_error``:
  a negative gap within its error is a move the figures alone would have
  put first, kept below by the ranking rule), and short reasons a person
  can read;
* ``Advice`` -- every legal move ranked, best first, the recommendation
  first of all; ``ranked_by`` says what the moves are ranked by
  (``expected_points``, or ``match_win_probability`` with a match score)
  and ``ranking`` the rule in words; ``complete`` is false when the
  deadline stopped the estimates early (the ranking is then the best found
  so far).  A gin match over 250 points whose match-win table was not made
  by the deadline is ranked by ``expected_points``, with no match figures and
  ``complete`` false (the next request goes on making the table).

>>> move = Move("discard", card=38)
>>> MoveValue(move, 2.5, 0.5, None, False, 40, 1.2, ("keeps 8 outs",)).to_dict()["move"]
{'action': 'discard', 'card': 'KD'}
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Literal

from solver.cards import card_name
from solver.play.words import GO_OUT, KNOCK, LAY_OFF

Confidence = Literal["exact", "ranked", "rough"]
"""How far a move's figures can be trusted (see the module docstring)."""
RankedBy = Literal["expected_points", "match_win_probability"]
"""What the moves of an answer are ranked by."""


def counted(number: float, noun: str) -> str:
    """``number`` ``noun``, the noun plural unless the number is 1: the
    words of a reason.

    >>> counted(1, "card"), counted(3, "card"), counted(0.5, "standard error")
    ('1 card', '3 cards', '0.5 standard errors')
    """
    shown = f"{number:g}" if isinstance(number, float) else str(number)
    return f"{shown} {noun}{'' if number == 1 else 's'}"


def _names(cards: tuple[int, ...]) -> list[str]:
    return [card_name(c) for c in cards]


@dataclass(frozen=True, slots=True, order=True)
class Layoff:
    """Cards laid off onto one table meld (``target``: its index); ``extended``
    (Rummy 500) is that meld afterwards, in meld order (it fixes where a
    joker stands)."""

    target: int
    cards: tuple[int, ...]
    extended: tuple[int, ...] = ()

    def to_dict(self) -> dict[str, Any]:
        """Wire form."""
        data: dict[str, Any] = {"target": self.target, "cards": _names(self.cards)}
        if self.extended:
            data["meld"] = _names(self.extended)
        return data


@dataclass(frozen=True, slots=True, order=True)
class Move:
    """One legal move (see the module docstring)."""

    action: str
    card: int | None = None
    melds: tuple[tuple[int, ...], ...] = ()
    deadwood: tuple[int, ...] = ()
    layoffs: tuple[Layoff, ...] = ()

    def to_dict(self) -> dict[str, Any]:
        """Wire form: only the parts the move has."""
        data: dict[str, Any] = {"action": self.action}
        if self.card is not None:
            data["card"] = card_name(self.card)
        if self.melds or self.action in (KNOCK, LAY_OFF, GO_OUT):
            data["melds"] = [_names(m) for m in self.melds]
        if self.deadwood or self.action in (KNOCK, LAY_OFF):
            data["deadwood"] = _names(self.deadwood)
        if self.layoffs or self.action == LAY_OFF:
            data["layoffs"] = [layoff.to_dict() for layoff in self.layoffs]
        return data

    def __str__(self) -> str:
        text = self.action.replace("_", " ")
        if self.card is not None:
            text += f" {card_name(self.card)}"
        return text


@dataclass(frozen=True, slots=True)
class MoveValue:
    """A move and what it is worth (see the module docstring)."""

    move: Move
    expected_points: float
    win_probability: float
    match_win_probability: float | None
    exact: bool
    samples: int
    standard_error: float | None
    reasons: tuple[str, ...]
    searched: bool = True
    confidence: Confidence = "ranked"
    gap: float | None = None
    gap_error: float | None = None

    def to_dict(self) -> dict[str, Any]:
        """Wire form."""
        return {
            "move": self.move.to_dict(),
            "expected_points": round(self.expected_points, 3),
            "win_probability": round(self.win_probability, 4),
            "match_win_probability": None if self.match_win_probability is None
            else round(self.match_win_probability, 4),
            "exact": self.exact,
            "samples": self.samples,
            "standard_error": None if self.standard_error is None
            else round(self.standard_error, 3),
            "reasons": list(self.reasons),
            "searched": self.searched,
            "confidence": self.confidence,
            "gap": None if self.gap is None else round(self.gap, 4),
            "gap_error": None if self.gap_error is None else round(self.gap_error, 4),
        }


@dataclass(frozen=True, slots=True)
class Advice:
    """Every legal move of the decision, best first (see the module docstring)."""

    game: str
    phase: str
    moves: tuple[MoveValue, ...]
    level: str
    seed: int
    complete: bool
    ranked_by: RankedBy = "expected_points"
    ranking: str = ""

    @property
    def recommended(self) -> MoveValue:
        """The best move."""
        return self.moves[0]

    def to_dict(self) -> dict[str, Any]:
        """Wire form."""
        return {
            "game": self.game,
            "phase": self.phase,
            "recommended": self.recommended.to_dict(),
            "moves": [m.to_dict() for m in self.moves],
            "level": self.level,
            "seed": self.seed,
            "complete": self.complete,
            "ranked_by": self.ranked_by,
            "ranking": self.ranking,
        }
