"""The Rummy 500 and Rommy players built on the library's hints (``solver.hints``),
asked with the game of the table (``view.variant.name``: ``rummy500``, ``rommy``).

* ``greedy`` -- today's hints as they are.  Draw: ``pile_hint``; take the
  pile down to its best depth when that depth's net beats the hand's net
  without taking (``current``), else draw from the stock; with the stock
  empty, take the best depth whenever one is legal, else pass.  Play: the
  best play of ``layoffs_hint`` (after a deep take: the best play of
  ``pile_hint`` at that depth, which uses the card taken), then the best
  discard of ``discard_hint`` among the cards left, never the pile top taken
  alone this turn (when that card alone would be left, the play's last layoff,
  or else its last meld, stays in hand instead).  It never takes a depth the
  referee would read otherwise (a joker below another joker: a joker named is
  the topmost one), nor the pile top alone when nothing else would be left
  to throw.
* in Rommy, both also never pay the pile penalty (a depth whose deepest card
  the hint cannot use) and never take a depth every use of which would leave
  no card to throw; when the best play would lay every card, the play is the
  best of those that keep one (``keep_a_card``): the library's best play of
  the hand less each card in turn (that card is thrown and closes the round
  when nothing else is left) and, after a deep take, each use of the card
  taken with the best play of the rest.
* ``careful`` -- greedy plus: it takes the pile depth (or the stock) worth
  most when each card taken counts ``CARD_VALUE`` points on top of the
  turn's net (``pile_hint``'s) and a stock card ``CARD_VALUE - STOCK_COST``,
  so it goes deep whenever the cards taken cost the turn's net less than
  ``CARD_VALUE`` each; with the stock empty it passes unless a take nets
  more than the hand now; after its play it lays off again onto the table as
  it now is (its new melds included) until nothing more fits, so it never
  throws a card that fits a table meld; its throw is ``discard_hint``'s
  value less ``DANGER_COST`` for a card that fits what the next player took
  from the pile and still holds (same rank, or same suit within two ranks),
  ties to the highest card.

Measured against two greedy players (200 deals, 3 players): careful +14.9
± 4.3 points a deal over greedy; all of it from the draw (without the
throw's care: +14.6; the lay-off-again step never changed a play, the
library's best play already lays off all it can).


The library's cards are the same ints as the arena's (``suit * 13 + rank``,
suits S H D C, JK = 52); they cross by name all the same.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from typing import Any

from benchmarks.arena.joker_cards import JOKER, RANKS, names, parse_card
from benchmarks.arena.rummy500.melds import hand_points, read_extension, read_meld
from benchmarks.arena.rummy500.referee import (
    DRAW_STOCK,
    PASS,
    Action,
    Layoff,
    Phase,
    PlayerView,
    play,
    take_discard,
)

CARD_VALUE = 8
"""What the careful player counts a card taken from the pile worth, on top of
the turn's net: more cards, more melds later (measured: 6 to 14 play alike,
about 10 points a deal better than greedy's 0)."""
STOCK_COST = 6
"""What a card from the stock is expected to cost the net (an unseen card
kept in hand, most of the time)."""
DANGER_COST = 6
"""What the careful player gives up (in net points) to keep a card that fits
what the next player took from the pile."""
MAX_EXTRA_ROUNDS = 3
"""How many times the careful player looks again for layoffs after its play."""


def ours(cards: Iterable[int]) -> tuple[int, ...]:
    """Library cards as the arena's, by name."""
    from solver.cards import card_name

    return tuple(parse_card(card_name(c)) for c in cards)


def table_names(table: Sequence[Sequence[int]]) -> list[list[str]]:
    """The table as the library reads it (meld order)."""
    return [names(meld) for meld in table]


def _minus(cards: Iterable[int], used: Iterable[int]) -> list[int]:
    left = Counter(cards)
    left.subtract(used)
    if any(count < 0 for count in left.values()):
        raise ValueError("the play uses cards the hand does not hold")
    return sorted(left.elements())


class _Plan:
    """A play being built: melds, then layoffs, in the order the referee applies them."""

    def __init__(self, table: Iterable[Sequence[int]]) -> None:
        self.start = [tuple(m) for m in table]
        self.melds: list[tuple[int, ...]] = []
        self.layoffs: list[Layoff] = []

    @property
    def table(self) -> list[tuple[int, ...]]:
        """The table after the play so far."""
        table = [*self.start, *self.melds]
        for layoff in self.layoffs:
            table[layoff.target] = layoff.extended
        return table

    def add(self, library_play: Any) -> None:
        """Add a library ``Play`` made against ``self.table`` (its new melds
        go after every meld laid so far, so no index changes)."""
        self.melds += [ours(meld.cards) for meld in library_play.melds]
        self.layoffs += [Layoff(layoff.table_index, ours(layoff.extended.cards))
                         for layoff in library_play.layoffs]

    def drop_last(self) -> None:
        """Keep the last layoff (or, without one, the last meld) in hand."""
        if self.layoffs:
            self.layoffs.pop()
        elif self.melds:
            self.melds.pop()
        else:
            raise RuntimeError("nothing left to keep back")

    def used(self) -> list[int]:
        """Every hand card the play lays."""
        cards = [c for meld in self.melds for c in meld]
        table = [*self.start, *self.melds]
        for layoff in self.layoffs:
            cards += _minus(layoff.extended, table[layoff.target])
            table[layoff.target] = layoff.extended
        return cards

    def action(self, discard: int | None) -> Action:
        """The referee's play action."""
        return play(self.melds, self.layoffs, discard)

    def laid_points(self, view: PlayerView) -> int:
        """What the play's melds and layoffs score, read as the referee reads them."""
        scale = view.variant.points
        table = [read_meld(t.cards, "run" if t.kind == "run" else "set", scale)
                 for t in view.table]
        laid = 0
        for meld in self.melds:
            table.append(read_meld(meld, points=scale))
            laid += table[-1].total
        for layoff in self.layoffs:
            extension = read_extension(table[layoff.target], layoff.extended, scale)
            table[layoff.target] = extension.meld
            laid += extension.points
        return laid


class GreedyHintPlayer:
    """Today's hints (see the module docstring)."""

    name = "greedy"

    def __init__(self) -> None:
        self.forced: Any = None
        """The pile hint's ``PileDepth`` of this turn's deep take (its play uses the card)."""

    def start_deal(self, seat: int, seed: int) -> None:
        """Nothing to remember between rounds."""
        self.forced = None

    def act(self, view: PlayerView) -> Action:
        """The draw or the play."""
        if view.phase == Phase.DRAW:
            return self.draw(view)
        return self.play(view)

    # -- the draw ---------------------------------------------------------------------
    def pile_options(self, view: PlayerView) -> tuple[Any, list[Any]]:
        """``pile_hint`` of the view and the depths this player may take (``takeable``)."""
        from solver.hints import pile_hint

        hint = pile_hint(names(view.hand), table_names([t.cards for t in view.table]),
                         names(view.pile), view.variant.name)
        return hint, [d for d in hint.depths if takeable(view, d)]

    def draw(self, view: PlayerView) -> Action:
        """Take the best depth when it nets more than the hand now (see the module docstring)."""
        self.forced = None
        if not view.pile:
            return DRAW_STOCK if view.stock_size else PASS
        hint, depths = self.pile_options(view)
        if not depths:
            return DRAW_STOCK if view.stock_size else PASS
        best = max(depths, key=lambda d: (d.net, -d.depth))  # the hint's best_depth, if takeable
        if view.stock_size and best.net <= hint.current.net_points:
            return DRAW_STOCK
        return self.take(best)

    def take(self, depth: Any) -> Action:
        """Take down to ``depth`` (a ``PileDepth``), remembering it when its card must be used."""
        self.forced = depth if depth.must_use else None
        return take_discard(ours([depth.deepest])[0])

    # -- the play ---------------------------------------------------------------------
    def first_play(self, view: PlayerView) -> _Plan:
        """The library's best play: forced by a deep take, else ``layoffs_hint``'s."""
        from solver.hints import layoffs_hint

        plan = _Plan(t.cards for t in view.table)
        if view.must_use is not None:
            if self.forced is None:
                raise RuntimeError("a deep take without the pile hint's play")
            chosen = self.forced.best
        else:
            chosen = layoffs_hint(names(view.hand), table_names(plan.table), view.variant.name).best
        plan.add(chosen)
        return plan

    def play(self, view: PlayerView) -> Action:
        """The hints' play and discard."""
        plan = self.first_play(view)
        return self.finish(view, plan)

    def finish(self, view: PlayerView, plan: _Plan) -> Action:
        """Throw a card of what the play leaves (or go out, where a turn may end without a throw)."""
        while True:
            left = _minus(view.hand, plan.used())
            if not left:
                if not view.variant.must_throw:
                    return plan.action(None)
                plan = self.keep_a_card(view, plan)
                left = _minus(view.hand, plan.used())
            throwable = [c for c in left if c != view.taken_top]
            if throwable:
                self.forced = None
                return plan.action(self.discard(view, left, throwable))
            plan.drop_last()

    def keep_a_card(self, view: PlayerView, emptying: _Plan) -> _Plan:
        """The best play that keeps a card to throw, when ``emptying`` lays
        every card (see the module docstring); scored as the referee scores
        it, the most costly card left counted thrown."""
        from solver.hints import layoffs_hint

        game, must = view.variant.name, view.must_use
        candidates = []
        for card in sorted(set(view.hand) - {view.taken_top, must}):
            rest = _minus(view.hand, [card])
            plan = _Plan(emptying.start)
            plan.add(layoffs_hint(names(rest), table_names(plan.table), game).best)
            candidates.append(plan)
        if must is not None:
            if self.forced is None:
                raise RuntimeError("a deep take without the pile hint's uses")
            for use in self.forced.uses:
                plan = _Plan(emptying.start)
                if use.kind == "meld":
                    plan.melds.append(ours(use.meld.cards))
                else:
                    plan.layoffs.append(Layoff(use.table_index, ours(use.meld.cards)))
                rest = _minus(view.hand, plan.used())
                if len(rest) > 1:
                    more = layoffs_hint(names(rest), table_names(plan.table), game).best
                    before = (len(plan.melds), len(plan.layoffs))
                    plan.add(more)
                    if not _minus(view.hand, plan.used()):  # the rest laid whole: keep it
                        del plan.melds[before[0]:], plan.layoffs[before[1]:]
                candidates.append(plan)
        best: tuple[int, _Plan] | None = None
        for plan in candidates:
            left = _minus(view.hand, plan.used())
            throwable = [c for c in left if c != view.taken_top]
            if not throwable or (must is not None and must not in plan.used()):
                continue
            scale = view.variant.points
            value = (plan.laid_points(view) - hand_points(left, scale)
                     + max(scale.of(c) for c in throwable))
            if best is None or value > best[0]:
                best = (value, plan)
        if best is None:
            raise RuntimeError("no play keeps a card to throw")
        return best[1]

    def discard(self, view: PlayerView, left: list[int], throwable: list[int]) -> int:
        """``discard_hint``'s best throw of ``left`` among ``throwable``."""
        from solver.hints import discard_hint

        if len(left) == 1:
            return left[0]
        hint = discard_hint(names(left), view.variant.name)
        for option in hint.options:
            card = ours([option.discard])[0]
            if card in throwable:
                return card
        return throwable[0]


class CarefulPlayer(GreedyHintPlayer):
    """Greedy plus the care of the module docstring."""

    name = "careful"

    def draw(self, view: PlayerView) -> Action:
        """The depth worth most, each card taken counted ``CARD_VALUE`` more
        (see the module docstring)."""
        self.forced = None
        if not view.pile:
            return DRAW_STOCK if view.stock_size else PASS
        hint, depths = self.pile_options(view)
        current = hint.current.net_points
        if not view.stock_size:  # a take must pay now: a pass ends the round as it stands
            depths = [d for d in depths if d.net > current]
        if not depths:
            return DRAW_STOCK if view.stock_size else PASS
        best = max(depths, key=lambda d: (d.net + CARD_VALUE * d.depth, -d.depth))
        stock = current + CARD_VALUE - STOCK_COST
        if view.stock_size and best.net + CARD_VALUE * best.depth <= stock:
            return DRAW_STOCK
        return self.take(best)

    def play(self, view: PlayerView) -> Action:
        """Greedy's play, then lay off again until nothing fits; a careful throw."""
        from solver.hints import layoffs_hint

        plan = self.first_play(view)
        for _ in range(MAX_EXTRA_ROUNDS):
            left = _minus(view.hand, plan.used())
            if not left:
                break
            more = layoffs_hint(names(left), table_names(plan.table), view.variant.name).best
            if not more.melds and not more.layoffs:
                break
            plan.add(more)
        return self.finish(view, plan)

    def discard(self, view: PlayerView, left: list[int], throwable: list[int]) -> int:
        """The best kept value, a card the next player may want costing ``DANGER_COST``."""
        from solver.hints import discard_hint

        if len(left) == 1:
            return left[0]
        wanted = next_player_holds(view)
        hint = discard_hint(names(left), view.variant.name)
        scored = []
        for option in hint.options:
            card = ours([option.discard])[0]
            if card in throwable:
                cost = DANGER_COST if _fits_any(card, wanted) else 0
                scored.append((option.value - cost, view.variant.points.of(card), card))
        return max(scored)[2] if scored else throwable[0]


def takeable(view: PlayerView, depth: Any) -> bool:
    """Whether this player may take ``depth`` (a ``PileDepth`` of ``view``'s
    pile): the hint rates it (``net``), at no penalty, the referee reads the
    take as the hint does (a joker named is the topmost joker), and a card
    is left to throw: after the top alone, another card (two jokers: none);
    where every turn ends with a throw, after a deeper card, a use of it
    that does not lay every card held."""
    if depth.net is None or depth.penalty:
        return False
    taken = ours(depth.taken)  # top first
    if taken[-1] == JOKER and JOKER in taken[:-1]:
        return False
    if not depth.must_use:
        return any(card != taken[-1] for card in view.hand)
    if view.variant.must_throw:
        held = len(view.hand) + depth.depth
        return any(len(use.cards) < held for use in depth.uses)
    return True


def next_player_holds(view: PlayerView) -> set[int]:
    """The pile cards the next player took and has neither laid nor thrown since."""
    following = (view.seat + 1) % view.players
    pile = [view.upcard]
    holds: set[int] = set()
    for event in view.events:
        if event.action == "take_discard" and event.card is not None:
            depth = next(d for d in range(1, len(pile) + 1) if pile[-d] == event.card)
            taken, pile = pile[len(pile) - depth:], pile[:len(pile) - depth]
            if event.seat == following:
                holds.update(taken)
        elif event.action == "discard" and event.card is not None:
            pile.append(event.card)
            if event.seat == following:
                holds.discard(event.card)
        elif event.action in ("meld", "lay_off") and event.seat == following:
            holds.difference_update(c for meld in event.melds for c in meld)
    return holds


def _fits_any(card: int, cards: Iterable[int]) -> bool:
    """Whether ``card`` could meld with one of ``cards`` (same rank, or same suit within two)."""
    if card == JOKER:
        return False
    for other in cards:
        if other in (JOKER, card):
            continue
        same_rank = other % RANKS == card % RANKS
        near = other // RANKS == card // RANKS and abs(other % RANKS - card % RANKS) <= 2
        if same_rank or near:
            return True
    return False
