"""A pyspiel ``gin_rummy`` state kept in step with the referee: the same deal
applied as chance outcomes and every action applied as played.  Referee-side
(it holds the whole deal): the arena feeds it, never a player.

It is two things at once:

* the cross-check of the referee against OpenSpiel: at every decision the
  legal actions must be the same set, and at the end OpenSpiel's returns
  must equal our score under OpenSpiel's scoring (a tie scores 0 there) and
  its final deadwood ours.  Anything else is a disagreement (expected: 0);
* the state OpenSpiel's ``SimpleGinRummyBot`` chooses on (``players.openspiel_bot``).

One difference is known and counted apart, never as a disagreement: for 11
cards OpenSpiel decides "may knock" with its 11-card ``MinDeadwood``, which
keeps the first meld group of most melded points and drops that group's
highest deadwood card, so on ties it can miss a discard that knocks.  Our
referee takes the exact minimum over every discard.  Such a spot is counted
when OpenSpiel's own 10-card calls, one per discard, find the knock that its
11-card call misses.  If a player then knocks there, OpenSpiel cannot follow:
the shadow stops for the rest of that hand ("desynced", counted).

OpenSpiel's suits are s c d h; ours S H D C: hearts and clubs swap.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from benchmarks.arena.gin.cards import RANK_COUNT, cards_text
from benchmarks.arena.gin.protocol import (
    DRAW_STOCK,
    FINISH,
    KNOCK,
    PASS,
    TAKE_DISCARD,
    Action,
    ActionKind,
    Phase,
    discard,
    layoff,
    meld,
)
from benchmarks.arena.gin.referee import GinHand, HandResult
from benchmarks.arena.gin.rules import OPENSPIEL_RULES, settle

# OpenSpiel's action ids (gin_rummy.h): cards 0-51, then these.
OS_DRAW_UPCARD = 52
OS_DRAW_STOCK = 53
OS_PASS = 54
OS_KNOCK = 55
OS_MELD_BASE = 56
OS_KNOCK_LIMIT = 10

_SUIT_SWAP = (0, 3, 2, 1)  # S H D C -> s c d h (an involution: the same map back)
_CARD_PHASES = (Phase.DISCARD, Phase.KNOCK_DISCARD)


class OpenSpielMissingError(RuntimeError):
    """A player or check needs ``pyspiel``, which is not installed."""

    def __init__(self, what: str) -> None:
        super().__init__(f"{what} needs pyspiel: pip install -e '.[bench]'")


def openspiel_available() -> bool:
    """Whether ``pyspiel`` (the ``bench`` extra) can be imported."""
    try:
        import pyspiel  # type: ignore[import-not-found]  # noqa: F401  # optional: the bench extra
    except ImportError:
        return False
    return True


def to_openspiel_card(card: int) -> int:
    """Our card id as OpenSpiel's."""
    return _SUIT_SWAP[card // RANK_COUNT] * RANK_COUNT + card % RANK_COUNT


def from_openspiel_card(card: int) -> int:
    """OpenSpiel's card id as ours."""
    return to_openspiel_card(card)


class ActionMap:
    """Our actions to OpenSpiel's ids and back (meld ids read from
    OpenSpiel's own table)."""

    def __init__(self, utils: Any) -> None:
        self.meld_id: dict[tuple[int, ...], int] = {}
        self.meld_cards: dict[int, tuple[int, ...]] = {}
        for meld_id, cards in dict(utils.int_to_meld).items():
            ours = tuple(sorted(from_openspiel_card(c) for c in cards))
            self.meld_id[ours] = meld_id
            self.meld_cards[meld_id] = ours

    def to_openspiel(self, action: Action) -> int:
        """OpenSpiel's id of ``action``."""
        kind = action.kind
        if kind == ActionKind.TAKE_DISCARD:
            return OS_DRAW_UPCARD
        if kind == ActionKind.DRAW_STOCK:
            return OS_DRAW_STOCK
        if kind in (ActionKind.PASS, ActionKind.FINISH):
            return OS_PASS
        if kind == ActionKind.KNOCK:
            return OS_KNOCK
        if kind == ActionKind.MELD:
            return OS_MELD_BASE + self.meld_id[action.meld]
        assert action.card is not None
        return to_openspiel_card(action.card)

    def from_openspiel(self, action: int, phase: Phase) -> Action:
        """Our action for OpenSpiel's id ``action`` in ``phase`` (OpenSpiel
        reuses ids: a card is a discard or a layoff, pass ends a phase)."""
        if action == OS_DRAW_UPCARD:
            return TAKE_DISCARD
        if action == OS_DRAW_STOCK:
            return DRAW_STOCK
        if action == OS_PASS:
            return PASS if phase in (Phase.FIRST_UPCARD, Phase.WALL) else FINISH
        if action == OS_KNOCK:
            return KNOCK
        if action >= OS_MELD_BASE:
            return meld(self.meld_cards[action - OS_MELD_BASE])
        card = from_openspiel_card(action)
        return discard(card) if phase in _CARD_PHASES else layoff(card)


@dataclass
class CrossCheckTally:
    """What the shadow compared, summed over hands."""

    hands: int = 0
    hands_compared: int = 0
    decisions: int = 0
    disagreements: list[str] = field(default_factory=list)
    openspiel_knock_misses: int = 0
    desynced_hands: int = 0
    bot_fallback_decisions: int = 0  # OpenSpiel's bot defending on its own after a desync

    def to_dict(self) -> dict[str, Any]:
        """Plain data for the report."""
        return {
            "hands": self.hands,
            "hands_compared": self.hands_compared,
            "decisions": self.decisions,
            "disagreements": len(self.disagreements),
            "disagreement_examples": self.disagreements[:5],
            "openspiel_11_card_knock_misses": self.openspiel_knock_misses,
            "desynced_hands": self.desynced_hands,
            "openspiel_bot_fallback_decisions": self.bot_fallback_decisions,
        }


class OpenSpielShadow:
    """A pyspiel state following the referee's hand (see the module doc)."""

    def __init__(self) -> None:
        import pyspiel  # here: an optional dependency (the bench extra)

        self._pyspiel = pyspiel
        self.game = pyspiel.load_game("gin_rummy")
        # A fresh state builds OpenSpiel's meld tables (4 ms); a clone does not.
        self._initial = self.game.new_initial_state()
        self.utils = pyspiel.gin_rummy.GinRummyUtils(RANK_COUNT, 4, 10)
        self.actions = ActionMap(self.utils)
        self.tally = CrossCheckTally()
        self.state: Any = None
        self.synced = False
        self._deck: tuple[int, ...] = ()
        self._next_stock = 0

    # -- the arena's calls ------------------------------------------------------

    def hand_started(self, hand: GinHand) -> None:
        """Deal ``hand``'s deck into a fresh OpenSpiel state."""
        self.tally.hands += 1
        self._deck = hand.deck
        self.state = self._initial.clone()
        for card in self._deck[:21]:
            self.state.apply_action(to_openspiel_card(card))
        self._next_stock = 21
        self.synced = True

    def before_action(self, hand: GinHand) -> None:
        """Compare the legal actions of the decision about to be made."""
        if not self.synced:
            return
        self.tally.decisions += 1
        ours = {self.actions.to_openspiel(a) for a in hand.legal_actions()}
        theirs = set(self.state.legal_actions())
        if ours == theirs:
            return
        if ours - theirs == {OS_KNOCK} and not theirs - ours and self._misses_knock(hand):
            self.tally.openspiel_knock_misses += 1
            return
        self._disagree(hand, f"legal actions differ: ours only {sorted(ours - theirs)}, "
                             f"OpenSpiel only {sorted(theirs - ours)}")

    def after_action(self, hand: GinHand, action: Action) -> None:
        """Apply ``action`` (just applied by the referee) to the shadow."""
        if not self.synced:
            return
        wanted = self.actions.to_openspiel(action)
        if wanted not in self.state.legal_actions():
            if wanted == OS_KNOCK:
                self.tally.desynced_hands += 1  # counted as a knock miss before
            else:
                self._disagree(hand, f"OpenSpiel cannot play {action}")
            self.synced = False
            return
        self.state.apply_action(wanted)
        if self.state.is_chance_node():
            self.state.apply_action(to_openspiel_card(self._deck[self._next_stock]))
            self._next_stock += 1

    def hand_ended(self, hand: GinHand) -> None:
        """Compare OpenSpiel's returns and deadwood with the referee's result."""
        if not self.synced:
            return
        result = hand.result
        assert result is not None
        if not self.state.is_terminal():
            self._disagree(hand, f"the referee ended the hand ({result.outcome}), OpenSpiel did not")
            return
        self.tally.hands_compared += 1
        expected = _openspiel_returns(result)
        returns = [round(r) for r in self.state.returns()]
        if returns != list(expected):
            self._disagree(hand, f"returns: ours under OpenSpiel scoring {expected}, OpenSpiel {returns}")
        if result.deadwood is not None and list(self.state.deadwood()) != list(result.deadwood):
            self._disagree(hand, f"final deadwood: ours {result.deadwood}, "
                                 f"OpenSpiel {list(self.state.deadwood())}")
        self.synced = False

    # -- helpers ----------------------------------------------------------------

    def _misses_knock(self, hand: GinHand) -> bool:
        """OpenSpiel's 11-card call says no knock while its own 10-card
        calls, one per discard, find one: its known tie problem."""
        cards = list(hand.hand_of(hand.to_act))
        if hand.phase == Phase.WALL:
            cards.append(hand.pile[-1])
        if len(cards) != 11:
            return False
        theirs = [to_openspiel_card(c) for c in cards]
        if self.utils.min_deadwood(theirs) <= OS_KNOCK_LIMIT:
            return False
        return any(self.utils.min_deadwood(theirs[:i] + theirs[i + 1:]) <= OS_KNOCK_LIMIT
                   for i in range(len(theirs)))

    def _disagree(self, hand: GinHand, what: str) -> None:
        self.tally.disagreements.append(
            f"{what} (phase {hand.phase}, seat {hand.to_act}, hands "
            f"[{cards_text(hand.hand_of(0))}] [{cards_text(hand.hand_of(1))}], deck {list(hand.deck)})")
        self.synced = False


def _openspiel_returns(result: HandResult) -> Sequence[int]:
    """Our result scored as OpenSpiel scores it (a tie is worth 0)."""
    if result.knocker is None or result.deadwood is None:
        return (0, 0)
    knocker = result.knocker
    _, points = settle(result.deadwood[knocker], result.deadwood[1 - knocker], OPENSPIEL_RULES)
    return (points, -points) if knocker == 0 else (-points, points)
