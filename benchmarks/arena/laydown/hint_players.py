"""The Rummy 500, Rommy and basic rummy players built on the library's hints
(``solver.hints``), asked with the game of the table (``view.variant.name``:
``rummy500``, ``rommy``, ``basic``).

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
* in basic rummy (the pile's top card only: ``Variant.deep_takes`` false)
  greedy's draw is ``draw_hint``'s: take the top when the hand with it, after
  its best discard, beats a blind draw's mean over the cards not in sight
  (the pile below the top and the table told as ``seen``; a tie draws); its
  play is ``layoffs_hint``'s best play and ``discard_hint``'s best throw, as
  above.
* ``careful`` -- greedy plus: it takes the pile depth (or the stock) worth
  most when each card taken counts ``CARD_VALUE`` points on top of the
  turn's net (``pile_hint``'s) and a stock card ``CARD_VALUE - STOCK_COST``,
  both scaled by the game's card points (``card_scale``: the median card's
  points over Rummy 500's; Rommy, whose 2-9 all count 5, 5/8), so it goes
  deep whenever the cards taken cost the turn's net less than the card value
  each; with the stock empty it passes unless a take nets more than the hand
  now; after its play it lays off again onto the table as it now is (its new
  melds included) until nothing more fits, so it never throws a card that
  fits a table meld; its throw is ``discard_hint``'s value less
  ``DANGER_COST`` for a card that fits what the next player is known to hold
  (same rank, or same suit within two ranks), ties to the highest card.
* careful in basic rummy weighs every choice by the deadwood a hand keeps
  once its best play against the table is made and its costliest unused
  card thrown (the library's best-play search, ``LayoffSearch``), each
  unmatched card counting ``COUNT_COST`` on top of its points (going out
  first is what wins), reading the public history (``public_table``: the
  pile, the stock turned over, the cards each player is known to hold).
  Draw: the top when the hand with it keeps less than after the stock's
  card -- the known next card once the stock is the pile turned over, else
  the mean over the cards that may come (neither in sight nor known in
  another hand).  Play: the best play against the table; but with nothing
  laid yet in the round it holds its melds while that play would leave 2 to
  ``HOLD_LEFT`` cards (one good draw from a rummy, which doubles every
  payment).  Throw: the card whose kept hand keeps the least after the next
  draw, on average (``mean_after_draw``), ``FEED_COST`` more for a card the
  next player could use (it fits a card that player is known to hold, or it
  lays off onto the table).

Measured against two greedy players (200 deals, 3 players): careful +14.9
± 4.3 points a deal over greedy in Rummy 500; all of it from the draw
(without the throw's care: +14.6; the lay-off-again step never changed a
play, the library's best play already lays off all it can).  In Rommy its
card value of 8 made every 5-point card on the pile worth taking: tables of
careful players took the pile turn after turn until the 300-turn stop (63 of
90 rounds at three careful players, seed 0); at 5/8 of it none stalls, and
careful beats greedy by +13.7 ± 8.5 a deal (60 deals, careful and two
greedy; +4.6 ± 7.6 before).  Basic rummy: see ``benchmarks/README.md``.

The library's cards are the same ints as the arena's (``suit * 13 + rank``,
suits S H D C, JK = 52); they cross by name all the same.  A table dealt
from two decks (Rummy 500 at 5 to 8 players) asks every hint with the
rules override ``{"decks": 2}`` (``library_rules``: the library's
``rummy500`` preset has two jokers a deck, so 108 cards); a card taken
alone from the pile top is then not thrown back in either copy.
"""

from __future__ import annotations

import statistics
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from benchmarks.arena.core.joker_cards import JOKER, RANKS, SUITS, card_name, names, parse_card
from benchmarks.arena.laydown.melds import (
    HIGH_ACE,
    MAX_RUN,
    MAX_SET,
    hand_points,
    read_extension,
    read_meld,
)
from benchmarks.arena.laydown.referee import (
    DRAW_STOCK,
    PASS,
    Action,
    Layoff,
    Phase,
    PlayerView,
    play,
    take_depth,
    take_discard,
)
from benchmarks.arena.laydown.variants import RUMMY500, Variant
from solver import card_name as library_name
from solver import discard_hint, draw_hint, layoffs_hint, make_deal, make_rules, pile_hint
from solver.deadline import play_deadline
from solver.layoffs import LayoffSearch, read_table
from solver.play import words

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
OUT_BONUS = 10
"""Basic rummy: what the careful player counts going out worth, in deadwood
points below an empty hand."""
HOLD_LEFT = 2
"""Basic rummy: the careful player, having laid nothing yet, keeps its melds
in hand (for a rummy) while its best play would leave from 2 to this many
cards before the throw (0 or 1: it never holds)."""
FEED_COST = 6
"""Basic rummy: what the careful player gives up (in deadwood points) not to
throw a card the next player could use: one that fits what it is known to
hold (same rank, or same suit within two ranks) or could be laid off onto
the table."""
COUNT_COST = 30
"""Basic rummy: what the careful player counts each unmatched card kept worth,
on top of its points (fewer cards: nearer going out, which is what wins)."""


def _median_points(variant: Variant) -> float:
    return statistics.median(variant.points.of(card) for card in variant.deck)


REFERENCE_POINTS = _median_points(RUMMY500)
"""The median points of a Rummy 500 card (8): the game ``CARD_VALUE`` and
``STOCK_COST`` were measured in."""


def card_scale(variant: Variant) -> float:
    """How much a card of ``variant`` counts against one of Rummy 500: the
    median points of its deck over Rummy 500's (1 for Rummy 500; 0.625 for
    Rommy, whose 2-9 all count 5; 0.875 for basic rummy).  The median, not
    the mean: Rommy's mean card (7.96) is Rummy 500's (7.89), yet most of its
    cards are cheaper."""
    return _median_points(variant) / REFERENCE_POINTS


def library_rules(view: PlayerView) -> dict[str, object] | None:
    """The library's rules overrides for the table of ``view``: its house
    rules (``Variant.house_rules``) and ``{"decks": 2}`` where it is dealt
    from two decks; None: the game's preset as it is."""
    rules: dict[str, object] = dict(view.variant.house_rules)
    decks = view.variant.decks(view.players)
    if decks > 1:
        rules["decks"] = decks
    return rules or None


def ours(cards: Iterable[int]) -> tuple[int, ...]:
    """Library cards as the arena's, by name."""
    return tuple(parse_card(library_name(c)) for c in cards)


def table_names(table: Sequence[Sequence[int]]) -> list[list[str]]:
    """The table as the library reads it (meld order)."""
    return [names(meld) for meld in table]


def _minus(cards: Iterable[int], used: Iterable[int]) -> list[int]:
    left = Counter(cards)
    left.subtract(used)
    if any(count < 0 for count in left.values()):
        raise ValueError("the play uses cards the hand does not hold")
    return sorted(left.elements())


def left_after(view: PlayerView, action: Action) -> list[int]:
    """The cards of ``view``'s hand a play ``action`` leaves in it before its
    throw: less its melds and what its layoffs add to the table."""
    plan = _Plan(t.cards for t in view.table)
    plan.melds = [tuple(meld) for meld in action.melds]
    plan.layoffs = list(action.layoffs)
    return _minus(view.hand, plan.used())


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
        hint = pile_hint(names(view.hand), table_names([t.cards for t in view.table]),
                         names(view.pile), view.variant.name, rules=library_rules(view))
        return hint, [d for d in hint.depths if takeable(view, d)]

    def draw(self, view: PlayerView) -> Action:
        """Take the best depth when it nets more than the hand now (see the module docstring)."""
        self.forced = None
        if not view.variant.deep_takes:
            return self.draw_top(view)
        if not view.pile:
            return DRAW_STOCK if view.stock_size else PASS
        hint, depths = self.pile_options(view)
        if not depths:
            return DRAW_STOCK if view.stock_size else PASS
        best = max(depths, key=lambda d: (d.net, -d.depth))  # the hint's best_depth, if takeable
        if view.stock_size and best.net <= hint.current.net_points:
            return DRAW_STOCK
        return self.take(best)

    def draw_top(self, view: PlayerView) -> Action:
        """Where only the pile top may be taken: ``draw_hint``'s advice, the
        cards out of the stock (the pile below its top, the table) told as
        ``seen``; a tie draws from the stock."""
        if not view.pile:
            return DRAW_STOCK
        top = view.pile[-1]
        seen = [*view.pile[:-1], *(card for meld in view.table for card in meld.cards)]
        hint = draw_hint(names(view.hand), card_name(top), view.variant.name, seen=names(seen),
                         rules=library_rules(view))
        return take_discard(top) if hint.recommendation == words.TAKE_DISCARD else DRAW_STOCK

    def take(self, depth: Any) -> Action:
        """Take down to ``depth`` (a ``PileDepth``), remembering it when its card must be used."""
        self.forced = depth if depth.must_use else None
        return take_discard(ours([depth.deepest])[0])

    # -- the play ---------------------------------------------------------------------
    def first_play(self, view: PlayerView) -> _Plan:
        """The library's best play: forced by a deep take, else ``layoffs_hint``'s."""
        plan = _Plan(t.cards for t in view.table)
        if view.must_use is not None:
            if self.forced is None:
                raise RuntimeError("a deep take without the pile hint's play")
            chosen = self.forced.best
        else:
            chosen = layoffs_hint(names(view.hand), table_names(plan.table), view.variant.name,
                                  rules=library_rules(view)).best
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
        game, must, rules = view.variant.name, view.must_use, library_rules(view)
        candidates = []
        for card in sorted(set(view.hand) - {view.taken_top, must}):
            rest = _minus(view.hand, [card])
            plan = _Plan(emptying.start)
            plan.add(layoffs_hint(names(rest), table_names(plan.table), game, rules=rules).best)
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
                    more = layoffs_hint(names(rest), table_names(plan.table), game,
                                        rules=rules).best
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
        if len(left) == 1:
            return left[0]
        hint = discard_hint(names(left), view.variant.name, rules=library_rules(view))
        for option in hint.options:
            card = ours([option.discard])[0]
            if card in throwable:
                return card
        return throwable[0]


class CarefulPlayer(GreedyHintPlayer):
    """Greedy plus the care of the module docstring."""

    name = "careful"

    def __init__(self) -> None:
        super().__init__()
        self.table_after: list[tuple[int, ...]] = []
        """The table after this turn's melds and layoffs (top-only games)."""

    def draw(self, view: PlayerView) -> Action:
        """The depth worth most, each card taken counted ``CARD_VALUE`` more
        (see the module docstring); where only the top may be taken, the
        draw that leaves the hand best against the table."""
        self.forced = None
        if not view.variant.deep_takes:
            return self.draw_top(view)
        if not view.pile:
            return DRAW_STOCK if view.stock_size else PASS
        hint, depths = self.pile_options(view)
        current = hint.current.net_points
        if not view.stock_size:  # a take must pay now: a pass ends the round as it stands
            depths = [d for d in depths if d.net > current]
        if not depths:
            return DRAW_STOCK if view.stock_size else PASS
        scale = card_scale(view.variant)
        card_value, stock_cost = CARD_VALUE * scale, STOCK_COST * scale
        best = max(depths, key=lambda d: (d.net + card_value * d.depth, -d.depth))
        stock = current + card_value - stock_cost
        if view.stock_size and best.net + card_value * best.depth <= stock:
            return DRAW_STOCK
        return self.take(best)

    def draw_top(self, view: PlayerView) -> Action:
        """Take the top when the hand with it, its best play against the table
        made and its costliest unused card thrown, keeps fewer deadwood points
        than after the stock's card (the known next card, once the stock is
        the pile turned over; else the mean over the cards that may be in it)."""
        if not view.pile:
            return DRAW_STOCK
        public = public_table(view)
        search = _Search(view.variant, (meld.cards for meld in view.table), library_rules(view))
        top = view.pile[-1]
        take = search.after_draw([*view.hand, top], top)
        if not view.stock_size or public.turned:  # the stock's next card is known
            following = public.turned[0] if public.turned else view.pile[0]
            blind = search.after_draw([*view.hand, following], None)
        else:
            unseen = unseen_cards(view, view.hand, (meld.cards for meld in view.table), public)
            blind = search.mean_after_draw(view.hand, unseen)
        return take_discard(top) if take < blind else DRAW_STOCK

    def play(self, view: PlayerView) -> Action:
        """Greedy's play, then lay off again until nothing fits; a careful
        throw (where only the top may be taken: ``play_top_only``)."""
        if not view.variant.deep_takes:
            return self.play_top_only(view)
        plan = self.first_play(view)
        for _ in range(MAX_EXTRA_ROUNDS):
            left = _minus(view.hand, plan.used())
            if not left:
                break
            more = layoffs_hint(names(left), table_names(plan.table), view.variant.name,
                                rules=library_rules(view)).best
            if not more.melds and not more.layoffs:
                break
            plan.add(more)
        return self.finish(view, plan)

    def play_top_only(self, view: PlayerView) -> Action:
        """The best play against the table, then the throw looking ahead; but
        where a rummy doubles the score and nothing was laid yet in the round,
        no card laid while that play would leave from 2 to ``HOLD_LEFT``
        cards before the throw (held for a rummy: out in one turn)."""
        plan = _Plan(t.cards for t in view.table)
        plan.add(_Search(view.variant, plan.start, library_rules(view)).best(view.hand))
        left = _minus(view.hand, plan.used())
        if view.variant.rummy_doubles and 2 <= len(left) <= HOLD_LEFT \
                and not public_table(view).laid[view.seat]:
            plan = _Plan(plan.start)
        self.table_after = plan.table
        return self.finish(view, plan)

    def discard(self, view: PlayerView, left: list[int], throwable: list[int]) -> int:
        """The best kept value, a card the next player may want costing
        ``DANGER_COST`` (where only the top may be taken: the throw looking
        ahead)."""
        if len(left) == 1:
            return left[0]
        if not view.variant.deep_takes:
            return self.discard_looking_ahead(view, left, throwable)
        wanted = next_player_holds(view)
        hint = discard_hint(names(left), view.variant.name, rules=library_rules(view))
        scored = []
        for option in hint.options:
            card = ours([option.discard])[0]
            if card in throwable:
                cost = DANGER_COST if _fits_any(card, wanted) else 0
                scored.append((option.value - cost, view.variant.points.of(card), card))
        return max(scored)[2] if scored else throwable[0]

    def discard_looking_ahead(self, view: PlayerView, left: list[int],
                              throwable: list[int]) -> int:
        """The throw whose kept cards keep the least deadwood after the next
        draw, on average (``_Search.mean_after_draw`` over the cards that may
        come: neither in sight nor known in another hand), a card the next
        player could use costing ``FEED_COST`` more; ties throw the costliest.
        Only a card left unmatched by the best play of ``left`` is weighed
        (any card, when every one is matched)."""
        table = self.table_after
        public = public_table(view)
        search = _Search(view.variant, table, library_rules(view))
        wanted = public.holds[(view.seat + 1) % view.players]
        unseen = unseen_cards(view, left, table, public)  # the cards laid this turn: in ``table``
        unmatched = set(ours(search.best(left).deadwood)) & set(throwable)
        fitting = layoff_cards(view.variant, table)
        scored = []
        for card in sorted(unmatched or set(throwable)):  # a card of a meld held goes last
            kept = _minus(left, [card])
            value = search.mean_after_draw(kept, unseen) if unseen else 0.0
            value += FEED_COST if _fits_any(card, wanted) or card in fitting else 0
            scored.append((value, -view.variant.points.of(card), card))
        return min(scored)[2]


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
    if taken[-1] in taken[:-1]:  # the referee reads a card named as its topmost copy
        return False
    if not depth.must_use:
        return any(card != taken[-1] for card in view.hand)
    if view.variant.must_throw:
        held = len(view.hand) + depth.depth
        return any(len(use.cards) < held for use in depth.uses)
    return True


@dataclass(slots=True)
class PublicTable:
    """What the public history tells every player."""

    pile: list[int]
    """The discard pile, bottom to top."""
    turned: list[int]
    """The stock turned over from the pile, in drawing order (every card
    known); empty while the dealt stock lasts."""
    holds: list[Counter[int]]
    """Each seat's cards known to everyone (a multiset: two decks hold every
    card twice): taken from the pile (or drawn from a stock turned over) and
    neither laid nor thrown since."""
    laid: list[bool]
    """Whether each seat has laid a card down or off in the round."""
    table: list[tuple[int, ...]]
    """The table melds (meld order), as laid down and laid off."""


def public_table(view: PlayerView) -> PublicTable:
    """The public history of ``view`` replayed (a draw from an empty stock
    turns the pile over where the game does so)."""
    variant = view.variant
    dealt = len(variant.cards_for(view.players)) - view.players * variant.hand_size(view.players) - 1
    public = PublicTable([view.upcard], [], [Counter() for _ in range(view.players)],
                         [False] * view.players, [])
    for event in view.events:
        holds = public.holds[event.seat]
        if event.action == words.DRAW_STOCK:
            if dealt:
                dealt -= 1
                continue
            if not public.turned and variant.turn_over_pile:
                public.turned, public.pile = public.pile, []
            if public.turned:
                holds[public.turned.pop(0)] += 1
        elif event.action == words.TAKE_DISCARD and event.card is not None:
            pile = public.pile
            depth = take_depth(pile, event.card)
            holds.update(pile[len(pile) - depth:])
            del pile[len(pile) - depth:]
        elif event.action == words.DISCARD and event.card is not None:
            public.pile.append(event.card)
            _forget(holds, [event.card])
        elif event.action == words.MELD:
            public.table += event.melds
            _forget(holds, [card for meld in event.melds for card in meld])
            public.laid[event.seat] = True
        elif event.action == words.LAY_OFF and event.target is not None:
            extended = event.melds[0]
            _forget(holds, _minus(extended, public.table[event.target]))
            public.table[event.target] = extended
            public.laid[event.seat] = True
    return public


def _forget(held: Counter[int], cards: Iterable[int]) -> None:
    """One known copy of each of ``cards`` is no longer held (a card not known
    held is no matter: it came from the stock)."""
    for card in cards:
        if held[card] > 1:
            held[card] -= 1
        else:
            held.pop(card, None)


def unseen_cards(view: PlayerView, held: Iterable[int], table: Iterable[Sequence[int]],
                 public: PublicTable) -> list[int]:
    """The table's cards (``Variant.cards_for``, in that order) that may still
    come from the stock as ``view``'s player sees it: each copy neither in
    ``held`` (its own cards), the pile, ``table`` (melds) nor known in another
    hand."""
    seen = Counter([*held, *view.pile, *(card for meld in table for card in meld),
                    *(card for seat, known in enumerate(public.holds) if seat != view.seat
                      for card in known.elements())])
    unseen = []
    for card in view.variant.cards_for(view.players):
        if seen[card]:
            seen[card] -= 1
        else:
            unseen.append(card)
    return unseen


def next_player_holds(view: PlayerView) -> Counter[int]:
    """The cards the next player is known to hold (``PublicTable.holds``)."""
    return public_table(view).holds[(view.seat + 1) % view.players]


def layoff_cards(variant: Variant, table: Iterable[Sequence[int]]) -> set[int]:
    """The cards that could each be laid off alone onto a meld of ``table``
    (melds in meld order, read as a run when they are one): a run's next card
    below and above, a set's missing suits."""
    top = HIGH_ACE if variant.ace_high else HIGH_ACE - 1
    out: set[int] = set()
    for cards in table:
        meld = read_meld(cards, points=variant.points, ace_high=variant.ace_high)
        rank = meld.represents[0] % RANKS
        if meld.kind == "set":
            if len(cards) < MAX_SET:
                out.update(suit * RANKS + rank for suit in range(SUITS)
                           if suit * RANKS + rank not in meld.represents)
            continue
        assert meld.low is not None
        base = meld.represents[0] - rank
        high = meld.low + len(cards) - 1
        if len(cards) < MAX_RUN:
            if meld.low > 0:
                out.add(base + (meld.low - 1) % RANKS)
            if high < top:
                out.add(base + (high + 1) % RANKS)
    return out


class _Search:
    """The library's best-play search of ``variant`` against ``table`` (one
    search, its answers cached, for the many hands a decision weighs)."""

    def __init__(self, variant: Variant, table: Iterable[Sequence[int]],
                 rules: Mapping[str, object] | None = None) -> None:
        deal = make_deal(make_rules(variant.name, rules))
        self.table = [tuple(meld) for meld in table]
        self.search = LayoffSearch(deal, read_table([ours(m) for m in self.table], deal),
                                   play_deadline(None, None))
        self.variant = variant
        self.points = variant.points

    def best(self, cards: Sequence[int]) -> Any:
        """The best play of ``cards`` (a library ``Play``)."""
        return self.search.best(list(cards))[1]

    def after_draw(self, cards: Sequence[int], taken: int | None) -> float:
        """What ``cards`` (a hand just after its draw) keep once their best
        play is made and the costliest card left thrown (not ``taken``, the
        pile top): the points of the unmatched cards kept, ``COUNT_COST``
        more each; going out counts ``-OUT_BONUS``."""
        return self._value(ours(self.best(cards).deadwood), taken)

    def _value(self, dead: Sequence[int], taken: int | None) -> float:
        throwable = [card for card in dead if card != taken]
        if not dead or (len(dead) == 1 and throwable):
            return -OUT_BONUS
        points = hand_points(dead, self.points) + COUNT_COST * (len(dead) - 1)
        if not throwable:
            return points + COUNT_COST
        return points - max(self.points.of(card) for card in throwable)

    def mean_after_draw(self, hand: Sequence[int], unseen: Sequence[int]) -> float:
        """``after_draw`` of ``hand`` and a card drawn blind from ``unseen``,
        on average.  Only a card that makes a meld with two cards of ``hand``
        is searched: any other card either is laid off (onto the table, or a
        meld of the hand's best play) or joins the deadwood."""
        best = self.best(hand)
        dead = ours(best.deadwood)
        grown = [*self.table, *(ours(meld.cards) for meld in best.melds),
                 *(ours(layoff.extended.cards) for layoff in best.layoffs)]
        held = set(hand)
        fitting = layoff_cards(self.variant, grown)
        total = 0.0
        for card in unseen:
            if _melds_with_two(card, held, self.variant.ace_high):
                total += self.after_draw([*hand, card], None)
            elif card in fitting:
                total += self._value(dead, None)
            else:
                total += self._value([*dead, card], None)
        return total / len(unseen)


def _melds_with_two(card: int, held: set[int], ace_high: bool) -> bool:
    """Whether ``card`` and two of ``held`` make a meld (one deck, no joker):
    two of its rank, or two of its suit next to it in a run of three."""
    rank, suit = card % RANKS, card // RANKS
    if sum(other % RANKS == rank for other in held if other != card) >= 2:
        return True
    top = RANKS if ace_high else RANKS - 1  # the high ace's place, or the king's
    places = [place for place in (rank, RANKS) if place <= top and place % RANKS == rank]
    for place in places:
        for low in range(place - 2, place + 1):
            window = [q for q in range(low, low + 3) if q != place]
            if low >= 0 and low + 2 <= top and all(
                    suit * RANKS + q % RANKS in held for q in window):
                return True
    return False


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
