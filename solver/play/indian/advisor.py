"""The Indian rummy advisor: every legal move of a decision, valued over dealt worlds.

For the player to act, the advisor lists the legal moves of the phase -- at
the start of a turn: take the pile top, draw from the stock, or drop (first
or middle drop, whichever the turn allows); after drawing: each discard,
and the declaration when the hand allows a valid one -- then values them by
information-set search: it deals the cards it cannot see many times
(``worlds``: weighted by what each opponent threw and let go by), plays each
move in each deal (the card drawn is that deal's stock card; the discard
after a draw is the better of the fast player's, ``policy``, and the one
that keeps the least count), and plays the rest of the
deal out as a race between the players' distances to a declaration
(``race``), each opponent's from the hand it holds in that deal and the
turns it has survived.  A move's expected points are what the player
collects when it declares first (every other player's count, capped; the
drops paid in) less what it pays when another does (its own count), over
the same deals for every move, so the moves compare on equal luck.

The exact solver decides what it can: the declaration (only a valid show
is offered: ``solver.hints.discard_hint`` solves every discard), the count
each discard leaves (what the player pays if someone declares next), the
count the player's hand is left with after each dealt draw (``count``: the
packing's estimate is over the solver's count by 18-21 points on average
on hands a card or two from a show, where the packing's melds are not the
cheapest), and the drops (their cost is fixed by the rules).  The
opponents' counts stay the packing's estimates: their hands are guesses.

Anytime: the answer at the deadline is the best found (``complete`` false).
The work is counted per level (deals dealt), so the same seed gives the same
answer on any machine unless the deadline cuts it short.
"""

from __future__ import annotations

import functools
import random
from collections.abc import Hashable, Sequence
from dataclasses import dataclass, replace

from solver.cards import NUM_CARD_TYPES, card_name
from solver.hints import discard_hint
from solver.play.advice import Advice, Move, MoveValue, counted
from solver.play.indian.hands import IndianHands, Packing
from solver.play.indian.params import INDIAN_PARAMS, IndianParams
from solver.play.indian.policy import FastPolicy, useful
from solver.play.indian.race import given_survived, race_and_length, turns
from solver.play.indian.state import IndianState
from solver.play.indian.worlds import World, WorldSampler
from solver.play.model import not_legal
from solver.play.search import (
    NOT_PLAYED,
    Budget,
    Level,
    Outcome,
    Spending,
    Tally,
    behind,
    confidence_of,
    levels,
    mean_and_error,
    play_every_deal,
    ranked,
    ranked_below,
    spend,
    stand_in_for_unplayed,
)
from solver.play.words import DECLARE, DISCARD, DRAW, DRAW_STOCK, DROP, FIRST_DROP, TAKE_DISCARD
from solver.results import Solution
from solver.rules import Deal
from solver.session import Session

LEVELS: dict[str, Level] = levels(
    Level("novice", worlds=8),
    Level("standard", worlds=48),
    Level("expert", worlds=240),
)
"""How hard the advisor thinks: the deals it values every move on (at 13
cards; ``IndianParams.long_hand_share`` of them at 21); whether a hand's own
outs set its first step in the race is ``IndianParams.outs_levels``.
Counted, not timed."""
DEFAULT_LEVEL = "standard"


@functools.lru_cache(maxsize=16)
def hands_for(deal: Deal) -> IndianHands:
    """The (cached) fast evaluator of a deal."""
    return IndianHands(deal)


def shrink(turns: float, params: IndianParams = INDIAN_PARAMS) -> float:
    """The share of a fresh hand's count left after ``turns`` turns played."""
    return max(params.count_floor, 1.0 - params.count_decay * turns)


@dataclass(slots=True)
class _Opponents:
    """One world's opponents as the race sees them: each one still in its
    law, the count of its dealt hand and the turns it has played; the drops
    already paid in."""

    laws: list[tuple[float, ...]]
    counts: list[float]
    turns: list[int]
    dropped: float
    params: IndianParams

    def pay_now(self, first_turn: bool) -> float:
        """What the player collects by declaring this turn: a player that has
        had no turn yet pays half, and a show on the player's first turn
        (hand rummy) doubles what the players that have had a turn pay
        (``solver.round_scoring``)."""
        doubled = 2.0 if first_turn else 1.0
        return self.dropped + sum(c * shrink(t, self.params) * (0.5 if t == 0 else doubled)
                                  for c, t in zip(self.counts, self.turns, strict=True))

    def pay_later(self, rounds: float) -> float:
        """What the player collects by declaring first ``rounds`` rounds from now."""
        return self.dropped + sum(c * shrink(t + rounds, self.params)
                                  for c, t in zip(self.counts, self.turns, strict=True))


class IndianDecision:
    """Values the moves of one decision (see the module docstring)."""

    def __init__(self, state: IndianState, deal: Deal, wild_rank: str,
                 rules: dict[str, object] | None, budget: Budget, seed: int,
                 params: IndianParams = INDIAN_PARAMS) -> None:
        self.state = state
        self.deal = deal
        self._unplayed: set[int] = set()
        """The tallies (``id``) the clock stopped before their first deal."""
        self.rules = deal.rules
        self.wild_rank = wild_rank
        self.overrides = rules
        self.budget = budget
        self.level = budget.level
        self.params = params
        self.outs = budget.level.name in params.outs_levels
        self.shows: dict[int | None, Move] = {}
        self.exact_counts: dict[int, int] = {}
        """Each throw's exact count of the hand it leaves (read with the valid shows)."""
        self.last_turn = state.stock_count == 0
        """The stock is empty: the next throw ends the deal, void, unless it shows."""
        self.last_card = state.phase == DRAW and state.stock_count == 1
        """One card is left in the stock: drawing it, the throw that follows
        ends the deal, void, unless it shows (taking the pile top leaves it
        to the next player)."""
        self.seed = seed
        self.deadline = budget.deadline
        self.hands = hands_for(deal)
        self.policy = FastPolicy(self.hands, self.deadline)
        self.rng = random.Random(seed)
        counts = [0] * NUM_CARD_TYPES
        for card in state.unseen:
            counts[card] += 1
        self.unseen_counts = counts
        self.unseen_total = max(1, len(state.unseen))
        self.cap = self.rules.points_cap
        self.session = Session(deal, self.deadline, "search")
        self._counts: dict[tuple[int, ...], int] = {}
        self._throws_seen: dict[tuple[tuple[int, ...], int | None],
                                list[tuple[tuple[float, ...], float]]] = {}

    @functools.cached_property
    def packing_now(self) -> Packing:
        """The packing of the hand as it stands (each world's draw and every
        discard start from it)."""
        return self.policy.packing(self.state.hand)

    # -- the moves --------------------------------------------------------------------
    def moves(self) -> list[Move]:
        """Every legal move of the phase (a declaration only when it is valid)."""
        state = self.state
        if state.phase == DRAW:
            moves = []
            if state.pile_top is not None:
                moves.append(Move(TAKE_DISCARD, card=state.pile_top))
            if state.stock_count > 0:
                moves.append(Move(DRAW_STOCK))
            moves.append(Move(DROP))
            return moves
        return [Move(DISCARD, card=card) for card in sorted(set(state.hand))
                if self._may_throw(card)] + self._declarations()

    def _may_throw(self, card: int) -> bool:
        """Whether ``card`` may be thrown: not the card taken from the pile this
        turn, unless the hand holds another copy of it (several decks)."""
        return card != self.state.taken_this_turn or self.state.hand.count(card) >= 2

    def _declarations(self) -> list[Move]:
        """The valid shows: one per discard that leaves a declarable hand (the
        solver's melds), never throwing back the card taken this turn."""
        self.exact_counts = {}
        hint = discard_hint([card_name(c) for c in self.state.hand], self.rules.name,
                            wild_rank=self.wild_rank, rules=self.overrides,
                            deadline=self.deadline)
        out = []
        for option in hint.options:
            count = option.value
            self.exact_counts[option.discard] = count if self.cap is None else min(count,
                                                                                   self.cap)
            if option.solution.declarable and self._may_throw(option.discard):
                melds = tuple(tuple(m.cards) for m in option.solution.melds)
                out.append(Move(DECLARE, card=option.discard, melds=melds))
        self.shows = {move.card: move for move in out}
        """Every valid show, by the card it throws (the first is offered)."""
        return out[:1]

    # -- the answer ----------------------------------------------------------------------
    def advise(self, consider: Sequence[Move] = ()) -> Advice:
        """Every legal move valued and ranked (see the module docstring);
        ``consider``: another valid show (by its card) besides the one listed."""
        state = self.state
        moves = self.moves()
        moves += [m for m in self._legal(consider, moves) if m not in moves]
        until = self.budget.until()
        self.sampler = WorldSampler(state, self.hands, self.rng, self.params)
        wanted = self.worlds_wanted()
        tallies = [Tally(move, order=i) for i, move in enumerate(moves)]
        self.mine: dict[Move, tuple[tuple[float, ...], float] | None] = {}
        params = self.params
        spending = Spending(params.batch, params.drop_z, params.floor, params.least,
                            params.settle)
        complete = spend(self, tallies, [], Budget(replace(self.level, worlds=wanted),
                                                   self.deadline), spending, until)
        for tally in tallies:  # a drop's figure needs no deal
            if tally.move.action == DROP and not tally.points:
                tally.points.append(-float(self._drop_cost()))
                tally.wins.append(0.0)
        self._unplayed = stand_in_for_unplayed(tallies)
        for tally in tallies:  # what the clock left unplayed, in the judgement's order
            if id(tally) in self._unplayed:
                tally.prior = self._judged(tally.move)
        if all(id(t) in self._unplayed for t in tallies if t.move.action != DROP):
            for tally in tallies:  # a drop is advised only against playing on's figures
                if tally.move.action == DROP:
                    tally.stage = -1
        for tally in tallies:
            tally.exact = tally.move.action == DROP or (
                self.last_turn and tally.move.action == DISCARD)
        playing_on = max((t.mean() for t in tallies
                          if t.move.action != DROP and id(t) not in self._unplayed), default=None)
        reasons = {id(t): self._reasons(t, playing_on) for t in tallies}
        order = sorted(ranked(tallies, self.utility), key=lambda t: t.move.action != DECLARE)
        values = tuple(self._move_value(t, reasons[id(t)], order[0]) for t in order)
        return Advice(self.rules.name, state.phase, values, self.level.name, self.seed, complete,
                      "expected_points",
                      "by expected points over the same deals (what the player collects when it "
                      "declares first less what it pays when another does); a valid show always "
                      "first; the moves that stayed in the search longest ahead of those it "
                      "dropped as clearly worse; a drop's cost is exact")

    def _legal(self, asked: Sequence[Move], listed: Sequence[Move]) -> list[Move]:
        """Each move of ``asked`` as the advisor plays it: the listed move of
        its action and card, or another valid show by its card
        (``illegal_move`` for one that is neither)."""
        out = []
        for index, move in enumerate(asked):
            found = next((m for m in listed if (m.action, m.card) == (move.action, move.card)),
                         None)
            if found is None:
                found = self.shows.get(move.card) if move.action == DECLARE else None
                if found is None:
                    raise not_legal(move, index)
            out.append(found)
        return out

    def compare(self, moves: Sequence[Move]) -> list[Tally] | None:
        """``moves`` (each legal) played on the same deals, every one of the
        level's ``worlds``, none dropped: figures no choice among the moves
        has touched (a review's check); a tally per move in ``moves``' order,
        None when the clock cut the deals short."""
        legal = self._legal(moves, self.moves())
        self.sampler = WorldSampler(self.state, self.hands, self.rng, self.params)
        self.mine = {}
        tallies = {move: Tally(move, order=i) for i, move in enumerate(dict.fromkeys(legal))}
        if not play_every_deal(self, list(tallies.values()), self.budget, self.budget.until()):
            return None
        return [tallies[move] for move in legal]

    def worlds_wanted(self) -> int:
        """The worlds this decision deals: the level's, fewer for long hands."""
        if self.hands.hand_size < self.params.long_hand:
            return self.level.worlds
        return max(1, round(self.level.worlds * self.params.long_hand_share))

    def sample(self, count: int, until: float) -> list[World]:
        """``count`` worlds consistent with the state (the search's dealer)."""
        return self.sampler.take(count, until)

    def play(self, move: Move, lines: Sequence[Hashable], world: World) -> list[Outcome]:
        """The move's points and win in ``world`` (the rest of the deal as a race)."""
        them = world.race
        if not isinstance(them, _Opponents):  # read once a world, for every move
            them = world.race = self._opponents(world)
        if move not in self.mine:  # a discard's hand is read when the search first plays it
            self.mine[move] = self._my_hand(move)
        return [self._value(move, world, them, self.mine[move])] * len(lines)

    @staticmethod
    def utility(points: float) -> float:
        """A deal is scored alone: its points are what they are worth."""
        return points

    # -- one world -------------------------------------------------------------------
    def _opponents(self, world: World) -> _Opponents:
        state = self.state
        laws: list[tuple[float, ...]] = []
        counts: list[float] = []
        played: list[int] = []
        dropped = 0.0
        for seat in state.opponents:
            if seat.dropped is not None:
                dropped += self.rules.drop_first if seat.dropped == FIRST_DROP \
                    else self.rules.drop_middle
                continue
            # the world deals it a hand as from the deck: its count is a fresh
            # hand's, shrunk by the turns it has played
            hand = world.hands[seat.seat]
            packing = self.policy.packing(hand)
            laws.append(given_survived(turns(packing.distance, None, self.params), seat.turns))
            counts.append(float(self.hands.count_estimate(hand, packing)))
            played.append(seat.turns)
        return _Opponents(laws, counts, played, dropped, self.params)

    def _my_hand(self, move: Move) -> tuple[tuple[float, ...], float] | None:
        """My law and count after a discard (the same in every world), else None."""
        if move.action != DISCARD:
            return None
        assert move.card is not None
        kept = list(self.state.hand)
        kept.remove(move.card)
        return self._law_and_count(kept, self.exact_counts.get(move.card), self.packing_now)

    def _law_and_count(self, kept: Sequence[int], exact: int | None,
                       like: Packing) -> tuple[tuple[float, ...], float]:
        """The law of the turns ``kept`` needs to a show and its count (``exact``
        when the solver gave it; ``like``: the packing of the hand it was thrown from)."""
        packing = self.policy.packing(kept, like)
        params = self.params
        first = None
        if self.outs and packing.distance > 0:
            outs = sum(self.unseen_counts[c] for c in useful(self.hands, packing))
            first = min(params.first_step_cap,
                        params.outs_weight * outs / self.unseen_total + params.pile_help)
        law = turns(packing.distance, first, params)
        count = exact if exact is not None else self.hands.count_estimate(kept, packing)
        return law, float(count)

    def count(self, hand: Sequence[int], packing: Packing) -> int:
        """What ``hand`` (its ``packing``) pays when another player declares
        now, capped: the exact solver's count.  Past the deadline it is the
        packing's estimate; a search stopped short of its proof gives the
        lower of its best and the estimate (both are at least the count)."""
        key = tuple(sorted(hand))
        known = self._counts.get(key)
        if known is not None:
            return known
        if self.deadline.expired():
            return self.hands.count_estimate(key, packing)
        count = self._count_of(self.session.solution(key, False, go_out=False), key, packing)
        self._counts[key] = count
        return count

    def _count_of(self, solution: Solution, kept: Sequence[int], packing: Packing) -> int:
        """The count ``solution`` (of ``kept``, with ``packing``) pays, capped;
        the lower of it and the packing's estimate when the search stopped
        short of its proof (both are at least the count)."""
        count = solution.penalty_points if self.cap is None else min(solution.penalty_points,
                                                                     self.cap)
        return count if solution.optimal else min(count, self.hands.count_estimate(kept, packing))

    def _rounds(self) -> int:
        active = len(self.state.active)
        return self.state.stock_count // max(1, active) + 1

    def _value(self, move: Move, world: World, them: _Opponents,
               mine: tuple[tuple[float, ...], float] | None) -> tuple[float, float]:
        """The move's points and win chance in one world."""
        action = move.action
        played = self.state.seats[self.state.me].turns
        if action == DECLARE:
            return them.pay_now(played == 1), 1.0
        if action == DROP:
            return -float(self._drop_cost()), 0.0
        if mine is None:  # a draw: the card comes from the pile or this world's stock
            hand = list(self.state.hand)
            if action == TAKE_DISCARD:
                assert move.card is not None
                card, taken = move.card, move.card
            else:
                if not world.stock:
                    return 0.0, 0.0
                card, taken = world.stock[-1], None
            hand.append(card)
            out, packing = self.policy.discard(hand, taken, self.packing_now)
            played += 1
            if packing.distance == 0:
                return them.pay_now(played == 1), 1.0
            if action == DRAW_STOCK and self.last_card:  # the throw that follows ends it void
                return 0.0, 0.0
            return max(self._race(after, them, played)
                       for after in self._throws(hand, taken, out, packing))
        if self.last_turn:  # the stock is empty: this throw ends the deal void
            return 0.0, 0.0
        return self._race(mine, them, played)

    def _throws(self, hand: Sequence[int], taken: int | None, out: int,
                packing: Packing) -> list[tuple[tuple[float, ...], float]]:
        """The law and count of ``hand`` (one card over) after the throws the
        player weighs once it has drawn: the fast player's ``out`` (the
        dearest card its ``packing`` leaves out) and the solver's cheapest
        (the least count kept), when that is another card it may throw."""
        key = (tuple(sorted(hand)), taken)
        known = self._throws_seen.get(key)
        if known is not None:  # the pile's card: the same hand in every world
            return known
        kept = list(hand)
        kept.remove(out)
        throws = [self._law_and_count(kept, self.count(kept, packing), packing)]
        if self.deadline.expired():
            return throws
        cheapest = self.session.solution(hand, True, go_out=False)
        other = cheapest.discard
        if other is not None and other not in (out, taken):
            kept = list(hand)
            kept.remove(other)
            other_packing = self.policy.packing(kept, packing)
            throws.append(self._law_and_count(kept, self._count_of(cheapest, kept, other_packing),
                                              other_packing))
        self._throws_seen[key] = throws
        return throws

    def _race(self, mine: tuple[tuple[float, ...], float], them: _Opponents,
              played: int) -> tuple[float, float]:
        """Points and win chance of the player with ``mine`` (its law and
        count) racing ``them`` to a show, ``played`` turns into the deal."""
        law, count = mine
        chances, rounds = race_and_length([*them.laws, law], self._rounds())
        win = chances[-1]
        lose = sum(chances[:-1])
        # the player's count now, shrunk as its hand improves until the end
        paid = count * shrink(played + rounds, self.params) / shrink(played, self.params)
        return win * them.pay_later(rounds) - lose * paid, win

    def _judged(self, move: Move) -> float:
        """The place (lower first) of a move the clock left unplayed: a show;
        the pile top when it brings the hand nearer a show, else the stock;
        a throw of the dearest card the hand's packing leaves out, then of
        the cards it packs, dearest first; a wild card last."""
        if move.action == DECLARE:
            return -1_000.0
        if move.action == TAKE_DISCARD:
            assert move.card is not None
            return -1.0 if move.card in useful(self.hands, self.packing_now) else 1.0
        if move.action != DISCARD or move.card is None:  # the stock; a drop is placed apart
            return 0.0
        if self.hands.wild[move.card]:
            return 1_000.0
        points = float(self.hands.points[move.card])
        return -points if move.card in self.packing_now.left_out else 100.0 - points

    def _drop_cost(self) -> int:
        """What dropping now costs (a first or a middle drop)."""
        return self.rules.drop_first if self.state.can_drop == FIRST_DROP else \
            self.rules.drop_middle

    # -- words ---------------------------------------------------------------------
    def _move_value(self, tally: Tally, reasons: Sequence[str], best: Tally) -> MoveValue:
        unplayed = id(tally) in self._unplayed and not tally.exact
        n = 0 if unplayed else len(tally.points)
        mean, error = mean_and_error(tally.points)
        win = sum(tally.wins) / len(tally.wins)
        gap, gap_error = (None, None) if unplayed or id(best) in self._unplayed else \
            behind(best, tally, self.utility)
        if gap is not None and gap < 0:
            reasons = [*reasons, ranked_below(best, gap, gap_error)]
        return MoveValue(tally.move, mean, win, None, tally.exact, n,
                         0.0 if tally.exact else error, tuple(reasons),
                         confidence=confidence_of(n, tally.exact), gap=gap,
                         gap_error=gap_error)

    def _reasons(self, tally: Tally, playing_on: float | None) -> list[str]:
        move = tally.move
        reasons: list[str] = []
        if move.action == DROP:
            first = self.state.can_drop == FIRST_DROP
            text = f"dropping now costs {self._drop_cost()} ({'first' if first else 'middle'} drop)"
            if playing_on is not None:
                verb = "cost" if playing_on < 0 else "win"
                text += f"; playing on is expected to {verb} {abs(playing_on):.0f}"
            reasons.append(text)
        elif move.action == DECLARE:
            reasons.append("a valid show: every card melded, the sequences the rules ask for")
        elif move.action == DISCARD and self.last_turn:
            reasons.append("the stock is empty: this throw ends the deal void (nobody pays)")
        elif move.action == DISCARD:
            assert move.card is not None
            kept = list(self.state.hand)
            kept.remove(move.card)
            # the search's packing of the hand (a move it never played: out of
            # time, its words say so rather than work one out past the deadline)
            packing = self.policy.known(kept)
            if packing is None and self.deadline.expired():
                reasons.append("how near a show it leaves the hand was not worked out before "
                               "the deadline")
            else:
                packing = packing or self.policy.packing(kept)
                reasons.append(self._distance_words(packing.distance, packing.pure_gaps))
            count = self.exact_counts.get(move.card)
            if count is not None:
                reasons.append(f"you would pay {count} if another player showed now")
            if packing is not None:
                outs = sum(self.unseen_counts[c] for c in useful(self.hands, packing))
                reasons.append(f"{counted(outs, 'unseen card')} would bring the hand nearer "
                               "a show")
        elif move.action == TAKE_DISCARD:
            assert move.card is not None
            hand = [*self.state.hand, move.card]
            _, packing = self.policy.discard(hand, move.card, self.packing_now)
            before = self.packing_now.distance
            card = card_name(move.card)
            if packing.distance < before:
                reasons.append(f"{card} brings the hand a card nearer a show "
                               f"({counted(before, 'card')} away, then {packing.distance})")
            else:
                reasons.append(f"{card} does not bring the hand nearer a show "
                               f"({counted(before, 'card')} away)")
        elif move.action == DRAW_STOCK:
            packing = self.packing_now
            reasons.append(self._distance_words(packing.distance, packing.pure_gaps))
            if self.last_card:
                reasons.append("the last stock card: unless it makes a show, the throw after it "
                               "ends the deal void (nobody pays)")
        if id(tally) in self._unplayed and not tally.exact:
            reasons.append(NOT_PLAYED)
        elif not tally.exact:  # an exact figure needs no deals
            reasons.append(f"{tally.mean():+.1f} points on average over "
                           f"{counted(len(tally.points), 'deal')} played out")
        return reasons

    def _distance_words(self, distance: int, pure_gaps: int) -> str:
        if distance == 0:
            return "ready to declare"
        pure = "pure sequence made" if pure_gaps == 0 else \
            f"pure sequence {counted(pure_gaps, 'card')} short"
        return f"{counted(distance, 'card')} from a show ({pure})"


__all__ = ["DEFAULT_LEVEL", "LEVELS", "IndianDecision", "hands_for"]
