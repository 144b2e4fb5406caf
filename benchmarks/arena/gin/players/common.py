"""What several gin bots do the same way, written once: the draw's
skeleton, the take rules two bots share, melds cut into the pieces the table
takes, a planned meld or layoff played one step at a time, and the exact
defence.  Where the bots differ it is a parameter (what to take, whether a
planned meld the table refuses is skipped), never a copy.  Nothing here
draws a random number: each bot's random stream stays its own.  The arena's
own code only (``cards``, ``melds``, ``protocol``); the referee shares none
of it.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence

from benchmarks.arena.gin.cards import cards_of, mask_of
from benchmarks.arena.gin.melds import best_defence, best_melds, melded_cards, min_deadwood, split_run
from benchmarks.arena.gin.protocol import (
    DRAW_STOCK,
    FINISH,
    PASS,
    TAKE_DISCARD,
    Action,
    ActionKind,
    Phase,
    PlayerView,
    knocker_melds,
    layoff,
    meld,
)


def draw(view: PlayerView, takes: Callable[[PlayerView, int], bool]) -> Action:
    """A draw (or the first upcard's offer): take the pile top when that is
    legal and ``takes(view, top)`` says so, else draw from the stock (pass
    the first upcard).  ``takes`` is asked only when taking is legal."""
    if TAKE_DISCARD not in view.legal_actions:
        return DRAW_STOCK
    if takes(view, view.discard_pile[-1]):
        return TAKE_DISCARD
    return PASS if view.phase == Phase.FIRST_UPCARD else DRAW_STOCK


def melds_with(hand: int, top: int) -> bool:
    """Whether ``top`` would be in some meld of ``hand`` (a mask) with it."""
    return bool(melded_cards(hand | 1 << top) >> top & 1)


def take_lowers_deadwood(hand: int, top: int) -> bool:
    """Whether taking ``top`` lowers the least deadwood of the ten cards
    kept, with ``top`` in a meld of some least-deadwood ten (``hand``: the
    ten cards held now, a mask)."""
    with_top = hand | 1 << top
    kept = [with_top ^ (1 << c) for c in cards_of(hand)]
    least = min(min_deadwood(k) for k in kept)
    melds = any(any(m >> top & 1 for m in best_melds(k)) for k in kept if min_deadwood(k) == least)
    return melds and least < min_deadwood(hand)


def pieces(melds: Iterable[Sequence[int]]) -> list[tuple[int, ...]]:
    """Melds of any length as the pieces the table takes (runs of 3-5)."""
    return [piece for m in melds for piece in split_run(m)]


def best_pieces(hand: int) -> list[tuple[int, ...]]:
    """The melds of one least-deadwood arrangement of ``hand`` (a mask), in
    the pieces the table takes."""
    return pieces(cards_of(m) for m in best_melds(hand))


def next_meld(view: PlayerView, planned: list[tuple[int, ...]], skip_refused: bool) -> Action:
    """Lay the next planned meld (taken off ``planned``), or finish when
    none is left.  With ``skip_refused`` a meld the table does not offer now
    is dropped and the next one tried; without, it is played as planned."""
    while planned:
        action = meld(planned.pop(0))
        if not skip_refused or action in view.legal_actions:
            return action
    return FINISH


def next_layoff(view: PlayerView, planned: list[int]) -> Action:
    """Lay off the first planned card the table takes now (taken off
    ``planned``), or finish when none fits."""
    legal = {a.card for a in view.legal_actions if a.kind == ActionKind.LAYOFF}
    for card in planned:
        if card in legal:
            planned.remove(card)
            return layoff(card)
    return FINISH


class ExactDefence:
    """The defender's exact reply, one step at a time: the layoffs and melds
    leaving the least deadwood (``melds.best_defence``), the layoffs planned
    at the first layoff step, the melds from the cards left at the first
    meld step.  One per hand."""

    def __init__(self, skip_refused: bool) -> None:
        self.skip_refused = skip_refused
        self.layoffs: list[int] | None = None
        self.melds: list[tuple[int, ...]] | None = None

    def lay_off(self, view: PlayerView) -> Action:
        """The next layoff, or finish."""
        if self.layoffs is None:
            planned, _ = best_defence(mask_of(view.hand), [mask_of(m) for m in knocker_melds(view)])
            self.layoffs = list(planned)
        return next_layoff(view, self.layoffs)

    def meld(self, view: PlayerView) -> Action:
        """The next meld of its own, or finish."""
        if self.melds is None:
            self.melds = best_pieces(mask_of(view.hand))
        return next_meld(view, self.melds, self.skip_refused)
