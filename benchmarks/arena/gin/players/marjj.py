"""A MARJJ-style player, written from the published description of MARJJ,
the EAAI-2021 gin rummy challenge winner (no code of it is used or seen).

What the description gives, and what we chose where it is silent:

* **Knocking.** It knocks voluntarily only in its first ``early_knock_turns``
  (3) turns, then plays for gin.  Described: it still knocks to avoid being
  stuck and at the wall.  Chosen: "stuck" means the stock is down to
  ``stuck_stock`` cards (few draws left to reach gin), and as a fallback it
  knocks when the opponent looks close: it has taken ``threat_pickups``
  cards from the pile (each one a meld in the making).  Gin is always
  knocked.
* **Discarding.** Described: deadwood, plus a decaying one-ply lookahead,
  plus a danger term.  Chosen: a discard's score is the deadwood of the ten
  cards kept, minus ``lookahead_weight * decay ** (turn - 1)`` times the
  expected deadwood saved by the next draw (over the unseen cards, each
  equally likely; only draws that make a new meld count, the value of a
  draw for a gin player), plus ``danger_weight`` times its danger.  Danger
  (described: cards adjacent in rank within a suit, or equal in rank, to
  cards the opponent took or did not discard): for each card the opponent
  took from the pile, +1 for the same rank or a suit neighbour (+0.5 two
  ranks away in the suit); for each card of the same rank or a suit
  neighbour the opponent discarded or let go by (drew from the stock over
  it), -0.5 (it does not collect them); never below 0.  The card just taken
  is never discarded.
* **Drawing** (not described): take the pile top when it ends in a meld of
  the best ten cards kept after taking it and lowers their deadwood
  (``common.take_lowers_deadwood``, the careful player's rule too).
* **Laying down.** Described: when knocking, show the melds that leave the
  fewest layoffs.  Chosen: among every arrangement within the knock limit
  (and every knocking discard), the least deadwood plus the expected points
  the defender could lay off: each card that would fit counts its points
  times the chance the opponent holds it (1 if it took it, 0 if it is
  visible elsewhere, else the opponent's hidden cards over the unseen ones).
* **Defending** (not described): the exact best layoffs and melds
  (``common.ExactDefence``, as the style players).
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from benchmarks.arena.gin.cards import DECK_SIZE, HAND_SIZE, POINTS, RANK_COUNT, cards_of, mask_of
from benchmarks.arena.gin.melds import (
    arrangements,
    layoff_targets,
    meld_completers,
    min_deadwood,
    min_deadwood_after_discard,
)
from benchmarks.arena.gin.players.common import ExactDefence, draw, next_meld, pieces, take_lowers_deadwood
from benchmarks.arena.gin.protocol import (
    KNOCK,
    PASS,
    Action,
    ActionKind,
    Phase,
    PlayerView,
    card_taken_this_turn,
    discard,
    opponent_known_cards,
)


@dataclass(frozen=True, slots=True)
class MarjjSettings:
    """The knobs of the MARJJ-style player (see the module doc)."""

    early_knock_turns: int = 3
    stuck_stock: int = 10
    threat_pickups: int = 3
    lookahead_weight: float = 1.0
    decay: float = 0.9
    danger_weight: float = 2.0


@dataclass(frozen=True, slots=True)
class _Knowledge:
    """What the view says about cards out of our hand."""

    unseen: int  # mask: the stock and the opponent's hidden cards
    opponent_took: tuple[int, ...]
    opponent_holds: int  # mask: taken from the pile and not let go
    opponent_let_go: int  # mask: discarded, or left on the pile when it drew from the stock
    opponent_hidden: int  # how many of the opponent's cards we do not know


def _first_upcard(view: PlayerView) -> int | None:
    """The card turned up at the deal: taken before any discard, or still
    at the bottom of the pile."""
    for event in view.history:
        if event.kind == ActionKind.DISCARD:
            break
        if event.kind == ActionKind.TAKE_DISCARD:
            return event.card
    return view.discard_pile[0] if view.discard_pile else None


def read_knowledge(view: PlayerView) -> _Knowledge:
    """Unseen cards and the opponent's pickups and refusals, replaying the
    pile through the history."""
    me = view.seat
    took: list[int] = []
    let_go = 0
    laid = 0
    first = _first_upcard(view)
    pile: list[int] = [] if first is None else [first]
    for event in view.history:
        if event.kind == ActionKind.MELD:
            laid |= mask_of(event.meld)
        elif event.kind == ActionKind.LAYOFF and event.card is not None:
            laid |= 1 << event.card
        if event.seat != me:
            if event.kind == ActionKind.TAKE_DISCARD and event.card is not None:
                took.append(event.card)
            elif event.kind in (ActionKind.DRAW_STOCK, ActionKind.PASS) and pile:
                let_go |= 1 << pile[-1]  # it saw this card and did not want it
            elif event.kind == ActionKind.DISCARD and event.card is not None:
                let_go |= 1 << event.card
        if event.kind == ActionKind.TAKE_DISCARD and pile:
            pile.pop()
        elif event.kind == ActionKind.DISCARD and event.card is not None:
            pile.append(event.card)
    holds = mask_of(opponent_known_cards(view))
    visible = mask_of(view.hand) | mask_of(view.discard_pile) | holds | laid
    unseen = ((1 << DECK_SIZE) - 1) & ~visible
    hidden = max(0, HAND_SIZE - holds.bit_count())
    return _Knowledge(unseen, tuple(took), holds, let_go, hidden)


def _related(card: int, other: int) -> float:
    """How much ``other`` helps a meld with ``card``: same rank or suit
    neighbour 1, two ranks away in the suit 0.5, else 0."""
    if card == other:
        return 0.0
    if card % RANK_COUNT == other % RANK_COUNT:
        return 1.0
    if card // RANK_COUNT == other // RANK_COUNT:
        gap = abs(card - other)
        return 1.0 if gap == 1 else 0.5 if gap == 2 else 0.0
    return 0.0


def danger(card: int, knowledge: _Knowledge) -> float:
    """How likely discarding ``card`` feeds the opponent a meld."""
    score = sum(_related(card, taken) for taken in knowledge.opponent_took)
    score -= 0.5 * sum(1 for other in cards_of(knowledge.opponent_let_go) if _related(card, other) == 1.0)
    return max(0.0, score)


def draw_gain(kept: int, unseen: int) -> float:
    """Expected deadwood saved by the next draw onto the ``kept`` cards:
    over the unseen cards, those that make a new meld, with the best
    discard after them."""
    count = unseen.bit_count()
    if not count:
        return 0.0
    now = min_deadwood(kept)
    saved = sum(max(0, now - min_deadwood_after_discard(kept | 1 << card))
                for card in cards_of(meld_completers(kept) & unseen))
    return saved / count


class MarjjStylePlayer:
    """Plays for gin after its first turns, discards with lookahead and
    danger, lays down to leave the fewest layoffs (see the module doc)."""

    name = "marjj_style"

    def __init__(self, settings: MarjjSettings | None = None) -> None:
        self.settings = settings or MarjjSettings()
        self.start_hand(0, 0)

    def start_hand(self, seat: int, seed: int) -> None:
        """Forget the last hand."""
        self._rng = random.Random(seed)
        self._knock_plan: tuple[int, list[tuple[int, ...]]] | None = None
        self._defence = ExactDefence(skip_refused=False)

    # -- decisions --------------------------------------------------------------

    def act(self, view: PlayerView) -> Action:
        """The MARJJ-style action for ``view``."""
        phase = view.phase
        if phase in (Phase.FIRST_UPCARD, Phase.DRAW):
            return draw(view, self._takes)
        if phase == Phase.DISCARD:
            return self._discard(view)
        if phase == Phase.WALL:
            return KNOCK if KNOCK in view.legal_actions else PASS
        if phase == Phase.KNOCK_DISCARD:
            if self._knock_plan is None:  # knocked at the wall
                self._knock_plan = self._lay_down(view, mask_of(view.hand), card_taken_this_turn(view))
            return discard(self._knock_plan[0])
        if phase == Phase.KNOCK_MELD:
            assert self._knock_plan is not None
            return next_meld(view, self._knock_plan[1], skip_refused=False)
        if phase == Phase.LAYOFF:
            return self._defence.lay_off(view)
        return self._defence.meld(view)

    @staticmethod
    def _takes(view: PlayerView, top: int) -> bool:
        return take_lowers_deadwood(mask_of(view.hand), top)

    def _turn(self, view: PlayerView) -> int:
        return sum(1 for e in view.history if e.seat == view.seat
                   and e.kind in (ActionKind.TAKE_DISCARD, ActionKind.DRAW_STOCK))

    def _discard(self, view: PlayerView) -> Action:
        settings = self.settings
        hand = mask_of(view.hand)
        knowledge = read_knowledge(view)
        taken = card_taken_this_turn(view)
        turn = self._turn(view)
        if KNOCK in view.legal_actions and self._wants_to_knock(view, hand, taken, turn, knowledge):
            self._knock_plan = self._lay_down(view, hand, taken)
            return KNOCK
        weight = settings.lookahead_weight * settings.decay ** max(0, turn - 1)
        scored = []
        for card in view.hand:
            if card == taken:
                continue
            kept = hand ^ (1 << card)
            score = min_deadwood(kept) - weight * draw_gain(kept, knowledge.unseen)
            score += settings.danger_weight * danger(card, knowledge)
            scored.append((score, card))
        least = min(score for score, _ in scored)
        return discard(self._rng.choice([c for score, c in scored if score <= least + 1e-9]))

    def _wants_to_knock(self, view: PlayerView, hand: int, taken: int | None, turn: int,
                        knowledge: _Knowledge) -> bool:
        deadwood = min(min_deadwood(hand ^ (1 << c)) for c in view.hand if c != taken)
        if deadwood > view.rules.knock_limit:
            return False
        settings = self.settings
        return (deadwood == 0 or turn <= settings.early_knock_turns
                or view.stock_size <= settings.stuck_stock
                or len(knowledge.opponent_took) >= settings.threat_pickups)

    def _lay_down(self, view: PlayerView, hand: int, taken: int | None) -> tuple[int, list[tuple[int, ...]]]:
        """The knocking discard and melds with the least deadwood plus
        expected layoffs."""
        knowledge = read_knowledge(view)
        unseen_count = max(1, knowledge.unseen.bit_count())
        chance = min(1.0, knowledge.opponent_hidden / unseen_count)
        limit = view.rules.knock_limit
        best: tuple[float, int, tuple[int, ...]] | None = None
        for card in cards_of(hand):
            if card == taken or min_deadwood(hand ^ (1 << card)) > limit:
                continue
            for melds, dead in arrangements(hand ^ (1 << card), limit):
                fits = layoff_targets(melds, ())
                exposed = sum(POINTS[c] * (1.0 if knowledge.opponent_holds >> c & 1 else
                                           chance if knowledge.unseen >> c & 1 else 0.0)
                              for c in cards_of(fits))
                cost = sum(POINTS[c] for c in cards_of(dead)) + exposed
                if best is None or cost < best[0] - 1e-9:
                    best = (cost, card, melds)
        if best is None:
            raise RuntimeError("asked to lay down a hand that cannot knock")
        _, card, melds = best
        return card, pieces(cards_of(m) for m in melds)
