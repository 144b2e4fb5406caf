"""The Rummy 500, Rommy and basic rummy advisor: every legal move, valued by playing the round out.

The moves come from the exact solver: at the start of a turn, draw from the
stock, take the pile down to any card that can be used at once (the top
alone always; ``solver.hints.forced_uses`` says which deeper card can be;
Rommy also lists the takes of the next ``PENALISED_DEPTHS`` cards that
cannot be, which cost the pile penalty), or pass with an empty stock; after
the draw, the rest of the turn as one move: what to lay down and lay off --
the hand's best play (``solver.layoffs.LayoffSearch``: most points now), or
nothing, or only the use of a card taken from below the top -- and which
card to throw (each card left, not the top just taken), or going out.  In
Rommy a turn always ends with a throw: closing is the best play of the
hand without the card thrown, when it lays every other card.  Basic rummy
takes the pile's top card only, and refills an empty stock by turning the
pile over.

Each move is valued by information-set search: the cards the player cannot
see are dealt out many times (the opponents' hands, less the cards each is
known to hold, and the stock's order); in each deal the move is played and
the round is played out to its end by the fast player (``fast``: lays what
it can, takes from the pile when it adds points now, throws its loosest
card), every player alike.  A move's points are the player's round score
less the mean of the others' (a Rummy 500 game is a race to 500; in basic
rummy: what the player collects or pays), over the same deals for every
move, so moves compare on equal luck; its win probability is the chance of
the round's best score (basic: of going out).  A level is a number
of playouts, shared out by successive halving (``halving_plan``): every move
gets a few deals, the better half more, and so on down to the best two; a
move's place and figures come from the last round it was in.

Anytime: past the deadline the best valuation found is answered
(``complete`` false).  The work is counted per level, so the same seed
gives the same answer on any machine unless the deadline cuts it short.
"""

from __future__ import annotations

import contextlib
import random
import time
from collections.abc import Callable, Hashable, Mapping, Sequence
from dataclasses import dataclass, replace
from functools import partial

from solver.cards import JOKER, card_name
from solver.classify import readings
from solver.deadline import DeadlineExceeded, Ticker
from solver.errors import InvalidStateError
from solver.hints import PileUse, forced_uses
from solver.layoffs import LayoffSearch, Play, TableMeld, count_cards, extensions, read_table_meld
from solver.play.advice import Advice, Layoff, Move, MoveValue, counted
from solver.play.laydown.fast import (
    FastPlayer,
    Held,
    Spot,
    links,
    run_spot,
    run_top,
    set_spot,
    wanted_mask,
)
from solver.play.laydown.params import LAY_DOWN_PARAMS, LayDownParams
from solver.play.laydown.state import LayDownState, added_cards, keeps_places, take_depth
from solver.play.laydown.variant import Variant
from solver.play.model import not_legal
from solver.play.replay import Seat
from solver.play.search import (
    NOT_PLAYED,
    Budget,
    Level,
    Outcome,
    Spending,
    Tally,
    behind,
    clearly_ahead,
    confidence_of,
    levels,
    mean_and_error,
    play_every_deal,
    ranked,
    ranked_below,
    spend,
    stand_in_for_unplayed,
)
from solver.play.words import DISCARD, DRAW, DRAW_STOCK, GO_OUT, PASS, TAKE_DISCARD
from solver.play.worlds import WeightedSampler, let_go_likelihood

EXPERT_TURNS = 4
"""The expert level's turn budget, in standard levels' (as its 800 playouts
are four times the standard's 200)."""


def lay_down_levels(standard: int, turns: int = 0) -> dict[str, Level]:
    """How hard the advisor thinks: the playouts of one decision, shared out by
    successive halving (counted, not timed); ``standard`` at the default level,
    the most a game's decisions take within its time target (its playouts
    cost more or less: the stock, the hand sizes, the table).  ``turns``:
    the default level's budget of playout turns (``Level.turns``; 0: none),
    which gives a position with short playouts more of them, never fewer
    than ``standard`` alone; the expert's is four times as many.

    >>> [(level.playouts, level.turns) for level in lay_down_levels(150, 2500).values()]
    [(48, 0), (150, 2500), (800, 10000)]
    """
    return levels(Level("novice", playouts=48), Level("standard", playouts=standard, turns=turns),
                  Level("expert", playouts=800, turns=EXPERT_TURNS * turns))


LEVELS_BY_GAME: dict[str, dict[str, Level]] = {
    "rummy500": lay_down_levels(150, 2500),
    "rommy": lay_down_levels(200),
    "basic": lay_down_levels(200, 14000),
}
"""Each lay-down game's levels: the turns the standard level's decisions play
within the time target at every table size; Rommy's count alone (a turn
budget gained it nothing: ``docs/experiments/laydown-turn-budgets.md``;
the playout counts: ``rummy500-standard-playouts.md``, ``laydown-standard-playouts.md``)."""
DEFAULT_LEVEL = "standard"

Option = tuple[tuple[tuple[int, ...], ...], tuple[Layoff, ...], tuple[int, ...], int]
"""A way to play the turn before the throw: new melds, layoffs, the cards
left, the points laid."""


@dataclass(frozen=True, slots=True)
class _Play:
    """What a move of the play phase does before its throw: the points it lays
    now, the pile penalty it pays (Rommy: the card taken from below the top
    is not used) and the table after it."""

    laid_now: int
    penalty: int
    table_after: tuple[TableMeld, ...] = ()


@dataclass(frozen=True, slots=True)
class _PlainRule:
    """A ranking rule: ``plain`` names the move to put ahead of the search's
    best (None: the best stands) unless the best leads it by ``z`` paired
    standard errors (0: the rule is off); ``words`` say it in the ranking
    where a move it can touch (``shown``) is listed."""

    z: float
    words: str
    shown: Callable[[Tally], bool]
    plain: Callable[[Sequence[Tally]], Tally | None]


@dataclass(slots=True)
class _World:
    hands: dict[int, list[int]]
    stock: list[int]
    """Drawn from the end."""


def _melds_with(held: Held, card: int) -> bool:
    """Whether natural ``card`` makes a meld with the cards ``held`` (a joker: no clue)."""
    return card != JOKER and held.completes(card)


class _ReadWorlds(WeightedSampler[_World, _World]):
    """Worlds weighed by what each opponent let go lately: a card it threw
    or a pile top it passed up that would have made a meld with the hand a
    world deals it makes that world less likely (``LayDownParams``:
    ``threw_a_fitting_card``, ``passed_a_fitting_card``, ``recent``)."""

    def __init__(self, decision: LayDownDecision) -> None:
        super().__init__(decision.rng, decision.params.oversample)
        self.decision = decision

    def deal(self) -> tuple[float, _World]:
        """One world as ``LayDownDecision`` deals it, and its likelihood."""
        decision = self.decision
        params = decision.params
        world = decision._deal_world()
        weight = 1.0
        for seat in decision.state.opponents:
            held = Held(world.hands[seat.seat])
            weight = let_go_likelihood(weight, seat.discarded[-params.recent:],
                                       seat.declined[-params.recent:], partial(_melds_with, held),
                                       params.threw_a_fitting_card, params.passed_a_fitting_card)
        return weight, world

    def world(self, raw: _World) -> _World:
        """The world itself: a playout copies what it changes."""
        return raw


class LayDownDecision:
    """Values every legal move of the player to act (see the module docstring)."""

    def __init__(self, state: LayDownState, budget: Budget, seed: int,
                 params: LayDownParams = LAY_DOWN_PARAMS) -> None:
        self.state = state
        self.variant = state.variant
        self.deal = state.variant.deal
        self.values = state.variant.values
        self.budget = budget
        self.level = budget.level
        self.params = params
        self.seed = seed
        self.deadline = budget.deadline
        self.rng = random.Random(f"{self.variant.game}/{seed}")
        self._unplayed: set[int] = set()
        """The tallies (``id``) the clock stopped before their first deal."""
        self.fast = FastPlayer(self.values, self.variant.deep_takes, params)
        self._may_hold = self.variant.rummy_doubles and self.fast.hold_left >= 2
        """Whether the fast player may hold its melds for a rummy (``FastPlayer.holds``
        is false otherwise: asked once, not every turn of every playout)."""
        self.search = LayoffSearch(self.deal, state.table, self.deadline)
        self.unusable: set[int] = set()
        """Deeper pile cards listed though they cannot be used (Rommy)."""
        self._tables: dict[tuple[object, ...], tuple[TableMeld, ...]] = {}
        """The table after each play (its melds and layoffs), read once."""
        self._turns = 0
        """The turns every playout has played (``turns_played``)."""
        self._playout_spots: dict[tuple[object, ...], list[Spot]] = {}
        """The table's spots a playout starts from, by move (``_table_spots``)."""

    # -- the moves -----------------------------------------------------------------
    def moves(self) -> list[tuple[Move, int, int]]:
        """Every legal move of the phase, with the points it lays now and the
        pile penalty it pays."""
        if self.state.phase == DRAW:
            return [(m, 0, 0) for m in self._draws()]
        return self._plays()

    def _draws(self) -> list[Move]:
        state = self.state
        refill = self.variant.turn_over_pile
        out = [Move(DRAW_STOCK) if state.stock_count > 0 or refill else Move(PASS)]
        pile = state.discard_pile
        if not pile:
            return out
        out.append(Move(TAKE_DISCARD, card=pile[-1]))
        if not self.variant.deep_takes:
            return out
        spots = self._spots()
        ticker = Ticker(self.deadline, 8)
        penalised = self.variant.pile_penalty is not None
        for depth in range(2, len(pile) + 1):
            taken = tuple(reversed(pile[len(pile) - depth:]))
            deepest = taken[-1]
            if deepest in taken[:-1]:  # the lower joker: a take names the upper one
                continue
            held = (*state.hand, *taken)
            found: list[tuple[PileUse, Play]] = []
            if deepest == JOKER or any(s.fits(deepest) for s in spots) or links(deepest, held):
                try:
                    forced_uses(self.search, tuple(sorted(held)), deepest, self.deal, ticker,
                                found)
                except DeadlineExceeded:
                    break
            if found:
                out.append(Move(TAKE_DISCARD, card=deepest))
            elif penalised and depth <= 1 + self.params.penalised_depths:
                out.append(Move(TAKE_DISCARD, card=deepest))
                self.unusable.add(deepest)
        return out

    def _plays(self) -> list[tuple[Move, int, int]]:
        state = self.state
        hand = state.hand
        must = state.must_use
        penalty = self.variant.pile_penalty
        options: list[Option] = []
        if must is None or penalty is not None:
            _, best = self.search.best(hand)
            options.append(self._option(best))
            options.append(((), (), tuple(hand), 0))
        if must is not None:
            found: list[tuple[PileUse, Play]] = []
            ticker = Ticker(self.deadline, 8)
            with contextlib.suppress(DeadlineExceeded):
                forced_uses(self.search, tuple(sorted(hand)), must, self.deal, ticker, found)
            if found:
                found.sort(key=lambda way: -way[1].net_points)
                options.append(self._option(found[0][1]))
                options.append(self._use_alone(found[0][0]))
            else:  # none, or the deadline came first (a huge hand, a tight limit)
                use = quick_use(self.state, must)
                if use is not None:
                    options.append(self._use_alone(use))
                elif penalty is None:  # cannot arise from a legal take; keep the state honest
                    at = state.must_use_at
                    raise InvalidStateError(f"history[{at}]: {card_name(must)} was taken from "
                                            "below the pile top and cannot be melded or laid "
                                            "off", code="invalid_state",
                                            loc=("history",) if at is None else ("history", at))
        if self.variant.throw_to_close and len(options[0][2]) <= self.params.closing_left:
            options.extend(self._closings())
        seen: set[tuple[object, ...]] = set()
        moves: list[tuple[Move, int, int]] = []
        for melds, layoffs, left, laid in options:
            key = (tuple(sorted(melds)), layoffs)  # the same play with its melds in another order
            if key in seen:
                continue
            seen.add(key)
            paid = 0
            if must is not None and penalty is not None \
                    and not any(must in meld for meld in melds) \
                    and not any(must in lay.cards for lay in layoffs):
                paid = penalty
            if not left:
                if not self.variant.throw_to_close:
                    moves.append((Move(GO_OUT, melds=melds, layoffs=layoffs), laid, paid))
                continue
            for card in sorted(set(left)):
                if card == state.taken_top and left.count(card) < 2:
                    continue  # the top taken may not go back (another copy may)
                moves.append((Move(DISCARD, card=card, melds=melds, layoffs=layoffs), laid,
                              paid))
        return moves

    def _considered(self, move: Move, index: int) -> tuple[Move, int, int]:
        """A move the advisor did not list, checked legal: its points laid now
        and the pile penalty it pays (``illegal_move`` when it is not legal)."""
        state, variant = self.state, self.variant
        if state.phase == DRAW:
            # Rommy takes deeper than listed with its penalty; every other draw is listed
            if move.action == TAKE_DISCARD and move.card in state.discard_pile \
                    and variant.deep_takes and variant.pile_penalty is not None:
                self.unusable.add(move.card)
                return Move(TAKE_DISCARD, card=move.card), 0, 0
            raise not_legal(move, index)
        if move.action not in (DISCARD, GO_OUT):
            raise not_legal(move, index)
        hand = list(state.hand)
        table = list(state.table)
        laid = 0
        try:
            for meld in move.melds:
                tm = read_table_meld(meld, len(table), self.deal)
                _take(hand, meld)
                laid += tm.meld.points
                table.append(tm)
            for lay in move.layoffs:
                if not 0 <= lay.target < len(table):
                    raise IndexError("no such table meld")
                old = table[lay.target]
                added = added_cards(old, lay.extended) if lay.extended else None
                new = read_table_meld(lay.extended, lay.target, self.deal) if added else None
                if not added or new is None or new.kind != old.kind \
                        or not keeps_places(old, new) or sorted(added) != sorted(lay.cards):
                    raise ValueError("not that table meld with its cards added at its ends")
                _take(hand, added)
                laid += new.meld.points - old.meld.points
                table[lay.target] = new
        except (ValueError, IndexError):  # InvalidHandError is a ValueError
            raise not_legal(move, index) from None
        if move.action == GO_OUT:
            legal = not hand and not variant.throw_to_close
        else:
            card = move.card
            legal = card in hand and (card != state.taken_top or hand.count(card) >= 2)
        used = self._laid(move)
        paid = 0
        if state.must_use is not None and state.must_use not in used:
            legal = legal and variant.pile_penalty is not None
            paid = variant.pile_penalty or 0
        if not legal:
            raise not_legal(move, index)
        return move, laid, paid

    def _closings(self) -> list[Option]:
        """Rommy: for each card the hand may throw, the best play of the other
        cards, when it lays them all (the throw then closes the round)."""
        hand = self.state.hand
        out: list[Option] = []
        for card in sorted(set(hand)):
            if card == self.state.taken_top and hand.count(card) < 2:
                continue
            rest = list(hand)
            rest.remove(card)
            _, play = self.search.best(tuple(rest))
            melds, layoffs, left, laid = self._option(play)
            if not left:
                out.append((melds, layoffs, (card,), laid))
        return out

    def _option(self, play: Play) -> Option:
        melds = tuple(tuple(m.cards) for m in play.melds)
        layoffs = tuple(sorted(Layoff(lay.table_index, lay.cards, tuple(lay.extended.cards))
                               for lay in play.layoffs))
        return melds, layoffs, tuple(play.deadwood), play.meld_points + play.layoff_points

    def _use_alone(self, use: PileUse) -> Option:
        left = list(self.state.hand)
        if use.kind == "meld":
            for c in use.meld.cards:
                left.remove(c)
            return (tuple(use.meld.cards),), (), tuple(left), use.meld.points
        assert use.table_index is not None
        for c in use.cards:
            left.remove(c)
        old = self.state.table[use.table_index].meld
        return ((), (Layoff(use.table_index, use.cards, tuple(use.meld.cards)),), tuple(left),
                use.meld.points - old.points)

    # -- the answer ----------------------------------------------------------------------
    def advise(self, consider: Sequence[Move] = ()) -> Advice:
        """Every legal move valued and ranked (see the module docstring);
        ``consider``: moves to value besides the listed ones (a play of other
        melds and layoffs, a deeper Rommy take), each checked legal."""
        state = self.state
        tallies = self._tallies(consider)
        until = self.until = self.budget.until()
        params = self.params
        spending = Spending(params.batch, params.drop_z, params.floor, params.least,
                            params.settle)
        complete = spend(self, tallies, [], self.budget, spending, until)
        last = max(t.stage for t in tallies)
        self._unplayed = stand_in_for_unplayed(tallies)
        rules = self._plain_rules()
        order = self._prefer_plain(ranked(tallies, self.utility), rules)
        values = tuple(self._move_value(t, t.stage == last, order[0]) for t in order)
        collect = self.variant.scoring == "collect"
        worth = "what the player collects (or pays) when the round ends" if collect else \
            "the round's points against the others' mean"
        return Advice(self.variant.game, state.phase, values, self.level.name, self.seed,
                      complete, "expected_points",
                      f"by {worth}, over the same deals: the moves that stayed in the search "
                      "longest first (each round of deals keeps the better half, and a move "
                      "clearly worse than the best stops), then by their figures"
                      + self._plain_words(order, rules))

    def _tallies(self, consider: Sequence[Move], only: bool = False) -> list[Tally]:
        """A tally for every legal move and each of ``consider`` (checked
        legal), each move's play read; ``only``: for those of ``consider`` alone."""
        self.plays: dict[Move, _Play] = {}
        moves = self.moves()
        listed = {move for move, _, _ in moves}
        moves += [self._considered(move, index) for index, move in enumerate(consider)
                  if move not in listed]
        if only:
            wanted = set(consider)
            moves = [entry for entry in moves if entry[0] in wanted]
        tallies = []
        for i, (move, laid, paid) in enumerate(moves):
            if move in self.plays:
                continue
            self.plays[move] = _Play(laid, paid, self._table_after(move))
            tallies.append(Tally(move, order=i))
        return tallies

    def compare(self, moves: Sequence[Move]) -> list[Tally] | None:
        """``moves`` (each legal: listed, or as ``advise`` considers it) played
        on the same deals, every one of the level's ``worlds``, none dropped:
        figures no choice among the moves has touched (a review's check of
        the move played against the best the search chose, whose gap on the
        search's own deals leans the search's way); a tally per move in
        ``moves``' order, None when the clock cut the deals short."""
        tallies = self._tallies(moves, only=True)
        self.until = self.budget.until()
        if not play_every_deal(self, tallies, self.budget, self.until):
            return None
        by_move = {tally.move: tally for tally in tallies}
        return [by_move[move] for move in moves]

    def _plain_rules(self) -> tuple[_PlainRule, ...]:
        """The ranking's rules that put a plain move ahead of the search's
        best unless the best leads it clearly (``solver.play.search.clearly_ahead``)."""
        params = self.params
        return (
            _PlainRule(params.plain_draw_z, "the stock draw ahead of taking a top card no meld "
                       "or layoff holds this turn unless the take is better",
                       lambda t: t.move.action == DRAW_STOCK, self._stock_over_a_loose_take),
            _PlainRule(params.plain_lay_z, "the best move that lays cards down ahead of "
                       "holding every card unless holding is better", self._lays,
                       self._laying_over_holding),
            _PlainRule(params.plain_throw_z, "with the same cards laid down, the throw a quick "
                       "player would make (the card of most points, less for each card it "
                       "could meld with) ahead of the others unless one is better",
                       lambda t: t.move.action == DISCARD, self._the_quick_throw),
            _PlainRule(params.plain_dump_z, "with the same cards laid down and an opponent down "
                       f"to {counted(params.dump_left, 'card')} or fewer, the throw of the most "
                       "points ahead of the others unless one is better",
                       lambda t: t.move.action == DISCARD and self._an_opponent_near_out(),
                       self._the_costliest_throw),
        )

    def _prefer_plain(self, order: list[Tally], rules: Sequence[_PlainRule]) -> list[Tally]:
        """``order`` with each rule's plain move first (in the rules' order)
        unless the best move leads it by the rule's ``z`` paired standard
        errors on the deals both were played on."""
        for rule in rules:
            plain = rule.plain(order) if rule.z and order else None
            if plain is not None and \
                    not clearly_ahead(order[0], plain, rule.z, self.params.floor, self.utility):
                order = [plain, *(t for t in order if t is not plain)]
        return order

    @staticmethod
    def _plain_words(order: Sequence[Tally], rules: Sequence[_PlainRule]) -> str:
        """The ranking's words for the rules in force where they can apply."""
        return "".join(f"; {rule.words} by more than {counted(rule.z, 'standard error')} of "
                       "the difference" for rule in rules
                       if rule.z and any(rule.shown(t) for t in order))

    def _stock_over_a_loose_take(self, order: Sequence[Tally]) -> Tally | None:
        """``plain_draw_z``: the stock draw, when the best move takes the top
        card and no meld or layoff can hold it this turn."""
        best = order[0]
        pile, hand = self.state.discard_pile, self.state.hand
        if best.move.action != TAKE_DISCARD or best.move.card != pile[-1] or \
                quick_use(self.state, pile[-1], (*hand, pile[-1])) is not None:
            return None
        return next((t for t in order if t.move.action == DRAW_STOCK), None)

    def _lays(self, tally: Tally) -> bool:
        return tally.move in self.plays and self.plays[tally.move].laid_now > 0

    def _laying_over_holding(self, order: Sequence[Tally]) -> Tally | None:
        """``plain_lay_z``: the best move that lays cards down, when the best
        move holds every card (its throw aside)."""
        best = order[0]
        if best.move not in self.plays or self._lays(best) or best.move.action == GO_OUT:
            return None
        return next((t for t in order if self._lays(t)), None)

    def _throw_instead(self, order: Sequence[Tally],
                       pick: Callable[[list[int]], int | None]) -> Tally | None:
        """When the best move is a throw: the move laying the same cards and
        throwing what ``pick`` chooses from the cards it leaves (None: no
        choice), if that is another listed move."""
        best = order[0]
        if best.move.action != DISCARD:
            return None
        left = list(self.state.hand)
        _take(left, self._laid(best.move))
        card = pick(left)
        if card is None:
            return None
        other = replace(best.move, card=card)
        return next((t for t in order if t.move == other and t is not best), None)

    def _the_quick_throw(self, order: Sequence[Tally]) -> Tally | None:
        """``plain_throw_z``: the fast player's throw with the best move's
        cards laid down (never the top just taken), when the best is a throw."""
        return self._throw_instead(order, lambda left: self.fast.throw(left, self.state.taken_top))

    def _an_opponent_near_out(self) -> bool:
        """Whether some opponent holds at most ``dump_left`` cards."""
        return min(seat.size for seat in self.state.opponents) <= self.params.dump_left

    def _the_costliest_throw(self, order: Sequence[Tally]) -> Tally | None:
        """``plain_dump_z``: the throw of the most points with the best move's
        cards laid down (never a joker while another card is left, never the
        top just taken; a tie: the fewer links, then the higher card), when
        the best is a throw and some opponent holds at most ``dump_left`` cards."""
        if not self._an_opponent_near_out():
            return None
        points, top = self.values.hand, self.state.taken_top

        def costliest(left: list[int]) -> int | None:
            options = [c for c in left if c != top and c != JOKER]
            return max(options, key=lambda c: (points[c], -links(c, left), c), default=None)

        return self._throw_instead(order, costliest)

    def sample(self, count: int, until: float) -> list[_World]:
        """``count`` more worlds: the hidden cards dealt at random, then, where
        the opponents' throws and passes weigh them, importance resampled;
        fewer, one at least, once the clock reaches ``until`` (a collector's
        hand is dealt from several random hands: hundreds of worlds cost more
        than a short ``time_limit_ms``)."""
        if self.params.threw_a_fitting_card == self.params.passed_a_fitting_card == 1:
            worlds = [self._deal_world()]
            while len(worlds) < count and time.monotonic() < until:
                worlds.append(self._deal_world())
            return worlds
        return _ReadWorlds(self).take(count, until)

    def play(self, move: Move, lines: Sequence[Hashable], world: _World) -> list[Outcome] | None:
        """The move's margin and win in ``world`` (None: the clock ran out first)."""
        outcome = self.play_out(move, world, self.until)
        return None if outcome is None else [outcome] * len(lines)

    @staticmethod
    def utility(points: float) -> float:
        """A round is scored alone: its points are what they are worth."""
        return points

    def turns_played(self) -> int:
        """The turns the playouts have played so far, each counting its move
        as one (what a ``Level.turns`` budget counts)."""
        return self._turns

    # -- one deal -----------------------------------------------------------------------
    def _deal_world(self) -> _World:
        state = self.state
        unseen = list(state.unseen)
        self.rng.shuffle(unseen)
        hands: dict[int, list[int]] = {}
        for seat in state.opponents:
            need = seat.size - len(seat.known)
            take = self._collected(seat, unseen, need) if self._collects(seat) else 0
            hands[seat.seat] = [*seat.known, *unseen[take:take + need]]
            del unseen[take:take + need]
        if state.stock_order is not None:  # the pile turned over: every stock card known
            return _World(hands, list(reversed(state.stock_order)))
        return _World(hands, unseen[:state.stock_count])

    def _collects(self, seat: Seat) -> bool:
        """Whether this world deals ``seat`` a collector's hand
        (``LayDownParams.collector_share``; the random draw is made only
        where the share is above 0)."""
        params = self.params
        return (params.collector_share > 0 and seat.laid_cards == 0
                and seat.turns >= params.collector_turns
                and self.rng.random() < params.collector_share)

    def _collected(self, seat: Seat, unseen: Sequence[int], need: int) -> int:
        """Where in ``unseen`` (shuffled) the most melded of
        ``collector_draws`` disjoint hands of ``need`` cards starts."""
        if need < 1:
            return 0
        draws = max(1, min(self.params.collector_draws, len(unseen) // need))
        return min(range(0, draws * need, need),  # the first of the fewest cards left unmelded
                   key=lambda start: len(self.fast.melds([*seat.known,
                                                          *unseen[start:start + need]])[1]))

    def _spot(self, tm: TableMeld) -> Spot:
        return spot_of(tm, run_top(self.values))

    def _spots(self) -> list[Spot]:
        return [self._spot(tm) for tm in self.state.table]

    def _table_spots(self, move: Move) -> list[Spot]:
        """The spots of the table a playout of ``move`` starts from (the table
        after its play: today's for a draw), read once for every move of the
        same play and copied for each playout, which lays cards on them."""
        key = _play_key(move)
        spots = self._playout_spots.get(key)
        if spots is None:
            spots = self._playout_spots[key] = [self._spot(tm)
                                                for tm in self._table_after(move)]
        return [spot.copy() for spot in spots]

    def play_out(self, move: Move, world: _World, until: float) -> tuple[float, float] | None:
        """The move's margin and win (1, a tie shared) in one deal; None when
        the clock passes ``until`` (checked every turn) before the end."""
        play = self.plays[move]
        state = self.state
        n = state.players
        me = state.me
        hands = {s: list(h) for s, h in world.hands.items()}
        hands[me] = list(state.hand)
        stock = list(world.stock)
        pile = list(state.discard_pile)
        table = self._table_spots(move)
        penalty = self.variant.pile_penalty or 0
        laid = [float(seat.laid_points - penalty * seat.penalties) for seat in state.seats]
        fast = self.fast
        over = False
        keep: int | None = state.taken_top
        must: int | None = None
        early = [seat.laid_cards > 0 for seat in state.seats]
        """Who laid a card in an earlier turn (a "rummy" goes out with none)."""
        early[me] = state.seats[me].laid_cards - state.laid_this_turn > 0
        if move.action in (DRAW_STOCK, TAKE_DISCARD, PASS):
            if move.action == PASS:
                over = True
            else:
                if move.action == DRAW_STOCK:
                    if not stock:
                        turn_over_pile(self.variant, stock, pile)
                    hands[me].append(stock.pop())
                    keep = None
                else:
                    assert move.card is not None
                    depth = take_depth(pile, move.card)
                    taken = pile[len(pile) - depth:]
                    del pile[len(pile) - depth:]
                    hands[me].extend(taken)
                    keep = move.card if depth == 1 else None
                    must = move.card if depth > 1 else None
                over = self._fast_rest(me, hands, table, pile, laid, keep, must, early)
        else:
            hand = hands[me]
            for meld in move.melds:
                for c in meld:
                    hand.remove(c)
            for lay in move.layoffs:
                for c in lay.cards:
                    hand.remove(c)
            laid[me] += play.laid_now - play.penalty
            if move.card is not None:
                hand.remove(move.card)
                pile.append(move.card)
            over = not hand
            if not over and (move.melds or move.layoffs or state.laid_this_turn):
                early[me] = True
        seat = me
        turns = 0
        while not over and turns < self.params.max_turns:
            if time.monotonic() >= until:
                return None
            seat = (seat + 1) % n
            turns += 1
            hand = hands[seat]
            wanted = wanted_mask(table)  # the table changes in the turn's lay only
            depth = fast.draw(hand, pile, table, wanted)
            if depth == 0:
                if not stock and not turn_over_pile(self.variant, stock, pile):
                    break
                hand.append(stock.pop())
                keep = must = None
            else:
                taken = pile[len(pile) - depth:]
                del pile[len(pile) - depth:]
                hand.extend(taken)
                keep = taken[-1] if depth == 1 else None
                must = taken[0] if depth > 1 else None
            over = self._fast_rest(seat, hands, table, pile, laid, keep, must, early, wanted)
        self._turns += 1 + turns
        return round_outcome(self.variant, hands, laid, early, seat, me, over)

    def _fast_rest(self, seat: int, hands: dict[int, list[int]], table: list[Spot],
                   pile: list[int], laid: list[float], keep: int | None, must: int | None,
                   early: list[bool], wanted: int | None = None) -> bool:
        """The fast player's turn after its draw (``must``: the card taken from
        below the top; ``early``: who laid a card in an earlier turn, updated;
        ``wanted``: the table's ``wanted_mask`` when known); whether the round
        is over."""
        hand = hands[seat]
        held, before = len(hand), early[seat]
        if self.variant.throw_to_close:
            laid[seat] += self.fast.lay_keeping(hand, table, keep)
        elif not (self._may_hold and self.fast.holds(hand, table, before)):
            laid[seat] += self.fast.lay(hand, table, wanted=wanted)
        if must is not None and must in hand:
            laid[seat] -= self.variant.pile_penalty or 0
        if not hand:
            return True
        if len(hand) < held:
            early[seat] = True
        if len(hand) == 1 and hand[0] == keep:
            return False  # cannot throw the top it took: it keeps it (a rare model shortcut)
        card = self.fast.throw(hand, keep, hands[(seat + 1) % self.state.players])
        hand.remove(card)
        pile.append(card)
        if not hand:  # out this turn: a rummy counts the earlier turns only
            early[seat] = before
        return not hand

    def _table_after(self, move: Move) -> tuple[TableMeld, ...]:
        """The table after a move's melds and then its layoffs, which may go
        onto a meld the move lays (read once for every throw that follows the
        same play)."""
        key = _play_key(move)
        table = self._tables.get(key)
        if table is None:
            after = list(self.state.table)
            for meld in move.melds:
                after.append(read_table_meld(meld, len(after), self.deal))
            for lay in move.layoffs:
                after[lay.target] = read_table_meld(lay.extended, lay.target, self.deal)
            table = self._tables[key] = tuple(after)
        return table

    # -- words ---------------------------------------------------------------------
    def _move_value(self, tally: Tally, searched: bool, best: Tally) -> MoveValue:
        unplayed = id(tally) in self._unplayed
        n = 0 if unplayed else len(tally.points)
        mean, error = mean_and_error(tally.points)
        win = sum(tally.wins) / len(tally.wins)
        gap, gap_error = (None, None) if unplayed or id(best) in self._unplayed else \
            behind(best, tally, self.utility)
        reasons = self._reasons(tally)
        if gap is not None and gap < 0:
            reasons.append(ranked_below(best, gap, gap_error))
        return MoveValue(tally.move, mean, win, None, False, n, error, tuple(reasons), searched,
                         confidence_of(n), gap, gap_error)

    def _reasons(self, tally: Tally) -> list[str]:
        move = tally.move
        state = self.state
        play = self.plays[move]
        reasons: list[str] = []
        if move.action == TAKE_DISCARD:
            assert move.card is not None
            depth = take_depth(state.discard_pile, move.card)
            if depth == 1:
                reasons.append(f"takes the top card {card_name(move.card)}")
            elif move.card in self.unusable:
                reasons.append(f"takes {depth} cards down to {card_name(move.card)}, which "
                               f"cannot be melded or laid off: pays the "
                               f"{self.variant.pile_penalty}-point pile penalty")
            elif self.variant.pile_penalty is not None:
                reasons.append(f"takes {depth} cards down to {card_name(move.card)}; unless it "
                               f"is melded or laid off this turn it costs "
                               f"{self.variant.pile_penalty}")
            else:
                reasons.append(f"takes {depth} cards down to {card_name(move.card)}, which must "
                               "be melded or laid off this turn")
        elif move.action == DRAW_STOCK:
            reasons.append(f"draws one of {state.stock_count} stock cards")
        elif move.action == PASS:
            reasons.append("the stock is empty: passing ends the round now")
        else:
            if play.laid_now and self.variant.scoring == "collect":
                reasons.append(f"lays down {counted(self._played(move), 'card')} "
                               f"({counted(play.laid_now, 'point')} out of the hand)")
            elif play.laid_now:
                reasons.append(f"lays {play.laid_now} points now")
            elif state.must_use is None:
                reasons.append("holds every card (lays nothing this turn)")
            if play.penalty:
                assert state.must_use is not None
                reasons.append(f"leaves {card_name(state.must_use)} unused: pays the "
                               f"{play.penalty}-point pile penalty")
            if move.action == GO_OUT:
                reasons.append(f"goes out: {self._out_words()}")
            elif move.card is not None and self._closes(move):
                reasons.append(f"closes: throws {card_name(move.card)}, the last card; "
                               f"{self._out_words()}")
            elif move.card is not None:
                reasons.append(self._throw_words(move))
        deals = counted(len(tally.points), "deal")
        if id(tally) in self._unplayed:
            reasons.append(NOT_PLAYED)
        elif self.variant.scoring == "collect":
            reasons.append(f"collects {tally.mean():+.1f} points on average (paid when "
                           f"negative) over {deals}")
        else:
            reasons.append(f"round score {tally.mean():+.1f} against the others' mean over "
                           f"{deals}")
        return reasons

    def _out_words(self) -> str:
        state = self.state
        if self.variant.scoring != "collect":
            return "the round ends, the others count their hands"
        if self.variant.rummy_doubles and state.seats[state.me].laid_cards == \
                state.laid_this_turn:
            return "Rummy! (out in one turn, nothing laid before): the others pay double"
        return "the others pay what they hold"

    def _throw_words(self, move: Move) -> str:
        card = move.card
        assert card is not None
        table = [self._spot(tm) for tm in self._table_after(move)]
        if any(spot.fits(card) for spot in table):
            return f"throws {card_name(card)}, which the next player can lay off"
        took = self.state.seats[(self.state.me + 1) % self.state.players].took
        if any(links(card, (c,)) for c in took):
            return f"throws {card_name(card)}, close to cards the next player took"
        points = self.values.hand[card]
        return f"throws {card_name(card)} ({counted(points, 'point')} out of the hand)"

    @staticmethod
    def _laid(move: Move) -> list[int]:
        """The cards ``move`` lays down or off."""
        return [c for meld in move.melds for c in meld] + [c for lay in move.layoffs
                                                           for c in lay.cards]

    @staticmethod
    def _played(move: Move) -> int:
        """How many cards ``move`` lays down or off."""
        return len(LayDownDecision._laid(move))

    def _closes(self, move: Move) -> bool:
        """Whether ``move`` lays every card but its throw."""
        return self._played(move) == len(self.state.hand) - 1


def _play_key(move: Move) -> tuple[object, ...]:
    """What a move's table after its play depends on: its melds and layoffs
    (every throw after the same play shares it)."""
    return (move.melds, move.layoffs)


def round_outcome(variant: Variant, hands: Mapping[int, Sequence[int]], laid: Sequence[float],
                  early: Sequence[bool], last: int, me: int, over: bool) -> tuple[float, float]:
    """A played-out round's margin for seat ``me`` and its win (1, a tie
    shared): laid less hand points, ``me``'s less the others' mean; or, when
    the winner collects (basic rummy), what ``me`` collects or pays, doubled
    for a rummy (``last`` went out having laid nothing in an earlier turn:
    not ``early[last]``), and 0 when ``over`` is false (nobody went out)."""
    n = len(laid)
    points = variant.values.hand
    if variant.scoring == "collect":
        if not over:  # stopped: nobody went out
            return 0.0, 0.0
        double = 2 if variant.rummy_doubles and not early[last] else 1
        owed = [sum(points[c] for c in hands[s]) * double for s in range(n)]
        if last == me:
            return float(sum(owed)), 1.0
        return -float(owed[me]), 0.0
    scores = [laid[s] - sum(points[c] for c in hands[s]) for s in range(n)]
    mine = scores[me]
    others = [scores[s] for s in range(n) if s != me]
    top = max(others)
    win = 1.0 if mine > top else 0.5 if mine == top else 0.0
    return mine - sum(others) / len(others), win


def turn_over_pile(variant: Variant, stock: list[int], pile: list[int]) -> bool:
    """An empty stock refilled by turning the pile over (basic rummy: its
    bottom card drawn first); whether it was."""
    if not variant.turn_over_pile or not pile:
        return False
    stock[:] = pile[::-1]
    pile.clear()
    return True


def _take(hand: list[int], cards: Sequence[int]) -> None:
    """``cards`` leave ``hand`` (``ValueError`` when it does not hold them)."""
    for card in cards:
        hand.remove(card)


def quick_use(state: LayDownState, card: int,
              hand: Sequence[int] | None = None) -> PileUse | None:
    """One way to use ``card`` (taken from below the pile top) at once, found
    without a search: a layoff of it (with hand cards of its rank or suit, or
    wild) onto a table meld, else a three-card meld holding it (every longer
    meld holding it has one).  None: there is none.  Bounded by the hand: at
    most the pairs of the cards near ``card``, for a move to offer when the
    deadline cut the full search short.  ``hand``: the hand that holds
    ``card`` (default: the state's, after a take)."""
    deal = state.variant.deal
    near = [c for c in (state.hand if hand is None else hand)
            if c in deal.wild or c % 13 == card % 13 or c // 13 == card // 13]
    counts = count_cards(near)
    for tm in state.table:
        for layoff in extensions(tm, counts, deal):
            if card in layoff.cards:
                return PileUse("layoff", layoff.extended, tm.index, layoff.cards, 0)
    others = list(near)
    others.remove(card)
    for i, a in enumerate(others):
        for b in others[i + 1:]:
            for meld in readings((card, a, b), deal):
                return PileUse("meld", meld, None, tuple(meld.cards), 0)
    return None


def spot_of(tm: TableMeld, top: int) -> Spot:
    """The fast player's view of table meld ``tm`` (a run reaching ``top`` at most)."""
    meld = tm.meld
    if tm.kind == "run":
        return run_spot(tm.suit_base // 13, tm.low, tm.high, top)
    naturals = [c for c, r in zip(meld.cards, meld.represents, strict=True) if c == r]
    rank = meld.represents[0] % 13
    return set_spot(rank, sum(1 << (c // 13) for c in naturals), len(meld.cards))


__all__ = ["DEFAULT_LEVEL", "LEVELS_BY_GAME", "LayDownDecision", "lay_down_levels", "quick_use",
           "spot_of"]
