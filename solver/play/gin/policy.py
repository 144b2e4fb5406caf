"""The advisor's judgement without search: how a hand stands, and the moves it suggests.

``HandJudge`` values the cards a player keeps by what they will be worth
after its next draw, not only now: ``expected_cost`` averages, over the
cards it could draw next (each weighted by the chance that it is still in
the stock: ``stock_odds``), the best the hand can then keep.  So a discard
that leaves cards serving two melds, or waiting on many live cards, ranks
above one that only lowers today's deadwood; a card the opponent has shown it
collects (it took its neighbour or its rank) carries a ``danger`` cost, as
feeding it brings its knock closer.

These judgements order the moves the search tries first and are the whole
of the advice at the ``novice`` level.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from solver.objective import TIE_SCALE
from solver.play.gin.hands import GinHands, cards_of
from solver.play.gin.params import GIN_PARAMS, GinParams
from solver.play.gin.simulate import World


def stock_odds(unseen: Iterable[int], worlds: Sequence[World]) -> dict[int, float]:
    """Per unseen card, the chance it is still in the stock (not in the
    opponent's hand), from the sampled worlds (even odds without them)."""
    cards = list(unseen)
    if not worlds:
        return dict.fromkeys(cards, 1.0)
    held = dict.fromkeys(cards, 0)
    for world in worlds:
        for card in cards_of(world.hands[1]):
            if card in held:
                held[card] += 1
    return {card: 1.0 - held[card] / len(worlds) for card in cards}


class HandJudge:
    """Values 10-card hands and discards for one decision (see the module docstring)."""

    def __init__(self, hands: GinHands, odds: dict[int, float], worlds: Sequence[World],
                 params: GinParams = GIN_PARAMS) -> None:
        self.hands = hands
        self.odds = odds
        self.total = sum(odds.values()) or 1.0
        self.worlds = worlds
        self.lookahead = params.lookahead
        self.danger_points = params.danger
        self._expected: dict[int, float] = {}

    def expected_cost(self, kept: int) -> float:
        """The cost ``kept`` can expect to keep after its next stock draw."""
        found = self._expected.get(kept)
        if found is not None:
            return found
        discard_cost = self.hands.discard_cost
        total = 0.0
        for card, odds in self.odds.items():
            if odds:
                total += odds * discard_cost(kept | 1 << card)[0]
        expected = total / self.total
        self._expected[kept] = expected
        return expected

    def danger(self, card: int) -> float:
        """The chance the opponent melds ``card`` if thrown (from the worlds)."""
        if not self.worlds:
            return 0.0
        return sum(self.hands.melds_with(w.hands[1], card) for w in self.worlds) / len(self.worlds)

    def discard_score(self, hand: int, card: int) -> float:
        """Lower is better: what throwing ``card`` from ``hand`` leaves, in
        cost units (deadwood points x ``TIE_SCALE``)."""
        kept = hand & ~(1 << card)
        now = self.hands.cost(kept)
        ahead = self.expected_cost(kept) if self.lookahead else now
        score = now + self.lookahead * (ahead - now)
        return score + self.danger_points * TIE_SCALE * self.danger(card)
