"""The gin advisor: every legal move of a decision, valued by playing the hand out.

For the player to act, the advisor lists the legal moves of the phase (take
or pass the first upcard; take the pile top or draw; each discard, and each
knock the deadwood allows; the defender's reply to a knock), then values them
by information-set search: it deals the cards it cannot see many times
(``worlds``: weighted by what the opponent's throws and passes say about its
hand), plays every move in each deal and the rest of the hand with fast
players (``simulate``), and compares the moves on the same deals.  Moves
that are clearly worse stop being simulated early (racing), so the time goes
to the close calls.  A knock is scored exactly in each deal; the defender's
reply to a knock is exact outright (``solver.layoffs``).

With a match score in the state, the searched moves are ranked (and
raced) by the chance to win the match after the hand, not by the hand's
points: at 90 to 40 in a match to 100, a sure small knock beats playing on
for more.  A match over ``MATCH_CELLS`` points is read on a table of its own
scale, made (about 50 ms) only until the search's time and resumed by the
next request: until it is whole, the moves are ranked by the hand's points
and the answer is not ``complete``.

It is anytime: the answer at the deadline is the best found, ``complete``
false when the estimates were cut short.  The same ``seed`` gives the same
deals; on a quiet machine the same answer (the time budget, not the deals,
can differ under load).

Each searched discard is played out twice on the same deals, once with the
advisor's side knocking at its first chance and once playing for gin
(``PLANS``), and keeps the better: that is how "knock now or play on for
gin" is weighed.  The recommended discard is the plainest one (the least
deadwood kept) unless the search shows another to be better by more than
its noise (``PLAIN_Z``).

The search chooses the discard (and with it the knock) and the play at the
wall; the draw and the first upcard are the judgement's at every level
(``SEARCHED_PHASES``), every move still gets its simulated figures.

Levels, for a hint button or a computer opponent of several strengths:
``novice`` (no search: the judgement's move, valued on a few deals; median
5 ms on a quiet core), ``standard`` (the default: 96 deals per move for the
six best discards, each under both plans, and the best knock; median 25 ms,
p99 161 ms), ``expert`` (800 deals for six moves; p99 about 1 s).  The work is
counted, not timed: the deadline only cuts it short.
"""

from __future__ import annotations

import dataclasses
import functools
import math
import random
import threading
import time
from collections.abc import Hashable, Sequence
from typing import cast

from solver.cards import card_name, rank_of, suit_of
from solver.deadline import Deadline, DeadlineExceeded
from solver.gin import arrangements
from solver.layoffs import LayoffSearch, read_table
from solver.lru import LruCache
from solver.objective import TIE_SCALE
from solver.play.advice import Advice, Layoff, Move, MoveValue, RankedBy, counted
from solver.play.gin.hands import GinHands, arrangement, cards_of, mask_of
from solver.play.gin.params import GIN_PARAMS, GinParams
from solver.play.gin.policy import HandJudge, stock_odds
from solver.play.gin.scoring import defender_deadwood, knock_points
from solver.play.gin.simulate import KnockStyle, Simulator, World
from solver.play.gin.state import GinState, knocker_held
from solver.play.gin.worlds import WorldSampler
from solver.play.model import not_legal
from solver.play.search import (
    Budget,
    Level,
    Outcome,
    Spending,
    Tally,
    behind,
    clearly_ahead,
    confidence_of,
    ismcts,
    levels,
    mean_and_error,
    ranked,
    ranked_below,
    spend,
)
from solver.play.words import (
    DISCARD,
    DRAW,
    DRAW_STOCK,
    FIRST_UPCARD,
    KNOCK,
    LAY_OFF,
    LAYOFF,
    PASS,
    TAKE_DISCARD,
    WALL,
)
from solver.rules import Deal

LEVELS: dict[str, Level] = levels(
    Level("novice", worlds=4, shortlist=0, judged=16),
    Level("standard", worlds=96, shortlist=6, judged=60),
    Level("expert", worlds=800, shortlist=6, judged=120),
)
"""How hard the advisor thinks: ``worlds``, the deals it may simulate per
move; ``shortlist``, how many of the moves its judgement ranks first it
plays out in full (0: the judgement alone chooses, the deals only give the
figures); ``judged``, the deals the judgement reads the opponent's hand from
(odds, danger, knocks).  The work is counted, not timed, so a seed gives the
same advice on any machine; the request's deadline stops it early."""
DEFAULT_LEVEL = "standard"


@functools.lru_cache(maxsize=16)
def hands_for(deal: Deal) -> GinHands:
    """The (cached) fast hand valuer of a deal."""
    return GinHands(deal)


class GinDecision:
    """Values the moves of one decision (see the module docstring)."""

    def __init__(self, state: GinState, deal: Deal, knock_limit: int | None, budget: Budget,
                 seed: int, params: GinParams = GIN_PARAMS) -> None:
        self.state = state
        self.deal = deal
        self.rules = deal.rules
        self.limit = -1 if knock_limit is None else knock_limit
        self.budget = budget
        self.level = budget.level
        self.deadline = budget.deadline
        self.seed = seed
        self.params = params
        self.hands = hands_for(deal)
        self.simulator = Simulator(self.hands, self.rules, self.limit, params.careful_slack)
        self.mask = mask_of(state.hand)
        self.rng = random.Random(seed)
        # ranked by the chance to win the match (a score given), unless
        # ``advise`` finds its table not ready in time (``table_late``)
        self.by_match = state.target is not None
        self.table_late = False
        self.spending = self._spending()

    def _spending(self) -> Spending:
        """How the search spends its deals, its floor in the units the moves are ranked by."""
        params = self.params
        return Spending(params.batch, params.drop_z,
                        params.floor_match if self.by_match else params.floor_points,
                        params.least, params.settle)

    def _await_match_table(self) -> None:
        """With a match score, make (or go on making) its match-win table until
        the search's time (``Budget.until``); not whole by then (a long match's
        table of a scale no recent request named: about 50 ms), the moves are
        ranked by this hand's points instead, with no match figures, and the
        answer is not ``complete``: the deadline comes first."""
        target = self.state.target
        if target is None or match_table_ready(target, self.budget.until(),
                                               self.params.match_outcomes):
            return
        self.by_match, self.table_late = False, True
        self.spending = self._spending()

    # -- the moves --------------------------------------------------------------
    def moves(self) -> list[Move]:
        """Every legal move of the phase (the defender's reply is one exact move)."""
        state = self.state
        if state.phase == FIRST_UPCARD:
            return [Move(TAKE_DISCARD, card=state.pile_top), Move(PASS)]
        if state.phase == WALL:
            moves = [Move(PASS)]
            if state.pile_top is not None and self._wall_knock() is not None:
                moves.insert(0, Move(TAKE_DISCARD, card=state.pile_top))
            return moves
        if state.phase == DRAW:
            if state.stock_only or state.pile_top is None:
                return [Move(DRAW_STOCK)]
            return [Move(TAKE_DISCARD, card=state.pile_top), Move(DRAW_STOCK)]
        moves = []
        keep = state.taken_this_turn
        for card in sorted(cards_of(self.mask), key=lambda c: -self.hands.points[c]):
            if card == keep:
                continue
            kept = self.mask & ~(1 << card)
            if self.hands.deadwood(kept) <= self.limit:
                moves.append(Move(KNOCK, card=card))
            if not state.must_knock:
                moves.append(Move(DISCARD, card=card))
        return moves

    def _wall_knock(self) -> int | None:
        """The discard that knocks after taking the pile top at the wall, if any."""
        top = self.state.pile_top
        assert top is not None
        cost, card = self.simulator.discard(self.mask | 1 << top, top)
        return card if cost // TIE_SCALE <= self.limit else None

    # -- the worlds -----------------------------------------------------------------
    def sample(self, count: int, until: float) -> list[World]:
        """``count`` more worlds consistent with the state (the search's dealer)."""
        return self.sampler.take(count, until)

    # -- one move in one world ---------------------------------------------------
    def apply(self, move: Move, world: World) -> list[int] | None:
        """``move`` played in ``world`` by seat 0 (the advisor's side); the
        points when that ends the hand (a knock, the wall), else None."""
        simulator = self.simulator
        hands = world.hands
        action = move.action
        if action == KNOCK:
            assert move.card is not None
            return [simulator.knock_score(hands[0] & ~(1 << move.card), hands[1])]
        if action == DISCARD:
            assert move.card is not None
            hands[0] &= ~(1 << move.card)
            world.shown[0] &= ~(1 << move.card)
            world.pile.append(move.card)
            world.turns[0] += 1
            world.to_act, world.taken, world.drawn = 1, None, False
        elif action == TAKE_DISCARD:
            top = world.pile.pop()
            if self.state.phase == WALL:
                hand = hands[0] | 1 << top
                _, card = simulator.discard(hand, top)
                return [simulator.knock_score(hand & ~(1 << card), hands[1])]
            hands[0] |= 1 << top
            world.shown[0] |= 1 << top
            world.taken, world.drawn = top, True
        elif action == DRAW_STOCK:
            hands[0] |= 1 << world.stock.pop()
            world.taken, world.drawn = None, True
        elif action == PASS:
            if self.state.phase == WALL:
                return [0]
            self._after_pass(world)
        return None

    def play(self, move: Move, lines: Sequence[Hashable], world: World) -> list[Outcome]:
        """Seat 0's points (and win) when it plays ``move`` in a copy of
        ``world`` and the hand goes on by the fast policy, under each of its
        plans (``lines``; the opponent knocks by the world's style)."""
        plans = cast(Sequence[KnockStyle], lines)
        world = world.copy()
        ended = self.apply(move, world)
        points = [ended[0]] * len(plans) if ended is not None else \
            self.simulator.play_out(world, plans, world.opponent_style)
        return [(float(p), 1.0 if p > 0 else 0.0) for p in points]

    def follows(self, move: Move) -> tuple[Hashable, ...]:
        """After a discard, the player's next draw: the pile top or the stock."""
        return (True, False) if move.action == DISCARD else ()

    def play_following(self, move: Move, lines: Sequence[Hashable], world: World,
                       follow: Hashable) -> list[Outcome]:
        """``play``, the player's next draw taking the pile top (``follow``
        True) or the stock."""
        plans = cast(Sequence[KnockStyle], lines)
        world = world.copy()
        ended = self.apply(move, world)
        points = [ended[0]] * len(plans) if ended is not None else \
            self.simulator.play_out(world, plans, world.opponent_style, bool(follow))
        return [(float(p), 1.0 if p > 0 else 0.0) for p in points]

    def _after_pass(self, world: World) -> None:
        """Passing the first upcard: a non-dealer hands the choice to the
        dealer (who takes it only into a meld, else the non-dealer draws); a
        dealer passing after the non-dealer leaves the non-dealer to draw."""
        hands, simulator = world.hands, self.simulator
        top = world.pile[-1]
        if self.state.me != self.state.dealer and simulator.takes(hands[1], top):
            world.pile.pop()
            hands[1] |= 1 << top
            world.shown[1] |= 1 << top
            world.to_act, world.taken, world.drawn = 1, top, True
        elif self.state.me != self.state.dealer:
            hands[0] |= 1 << world.stock.pop()
            world.to_act, world.taken, world.drawn = 0, None, True
        else:
            hands[1] |= 1 << world.stock.pop()
            world.to_act, world.taken, world.drawn = 1, None, True

    def utility(self, points: float) -> float:
        """What one simulated outcome is worth to the player: its points, or
        with a match score given, the chance to win the match after it."""
        state = self.state
        if not self.by_match or state.target is None:
            return float(points)
        whole = int(points)
        return match_win_probability(state.my_score + max(whole, 0),
                                     state.opponent_score + max(-whole, 0), state.target,
                                     self.params.match_outcomes)

    # -- the answer ------------------------------------------------------------
    def advise(self, consider: Sequence[Move] = ()) -> Advice:
        """Every legal move valued and ranked (see the module docstring);
        ``consider``: moves searched in full whatever the shortlist (each names
        a listed move by its action and card)."""
        self._await_match_table()
        if self.state.phase == LAYOFF:
            return self._defend(consider)
        params = self.params
        moves = self.moves()
        wanted = [self._listed(move, moves, i) for i, move in enumerate(consider)]
        until = self.budget.until()
        self.sampler = WorldSampler(self.state, self.hands, self.rng, self.limit, params)
        judged = self.level.judged
        worlds = self.sampler.take(judged, until)
        # past the search's time the judgement looks at today's deadwood only (no lookahead)
        late = time.monotonic() >= until
        self.judge = HandJudge(self.hands,
                               stock_odds(self.state.knowledge.unseen, worlds[:params.odds_deals]),
                               worlds[:judged],
                               dataclasses.replace(params, lookahead=0.0) if late else params)
        priors = {move: self._prior(move, worlds) for move in moves}
        moves.sort(key=lambda m: priors[m])
        mine = params.plans[0]
        tallies = [Tally(move, priors[move], line=mine) for move in moves]
        shortlist = self.level.shortlist if self.state.phase in params.searched_phases else 0
        if shortlist is None:  # every move (``Level``), not the judgement alone
            shortlist = len(moves)
        chosen: set[Move] = set()
        if shortlist:
            chosen = set(moves[:shortlist]) | set(wanted)
            knocks = [m for m in moves if m.action == KNOCK]
            if knocks:  # knocking now against playing on is always weighed
                chosen.add(knocks[0])
            for tally in tallies:
                tally.alive = tally.move in chosen
            tallies += [Tally(t.move, t.prior, line=plan) for t in tallies
                        if t.alive and t.move.action == DISCARD for plan in params.plans[1:]]
            tallies.sort(key=lambda t: not t.alive)
        if not shortlist:
            complete = True
        elif params.search == "ismcts" and not self.by_match:
            complete = ismcts(self, tallies, worlds, params.ismcts_playouts,
                              params.ismcts_explore, until, self.budget.deadline)
        else:
            complete = spend(self, tallies, worlds, self.budget, self.spending, until)
        # figures for every move, from a few deals at least (one past the search's time)
        in_time = time.monotonic() < until
        deals = (params.unlisted_deals if shortlist else params.unsearched_deals) if in_time else 1
        # cut short too: fewer worlds dealt, the judgement without lookahead, or one deal
        complete = complete and in_time and not late and len(worlds) >= judged \
            and not self.table_late
        for tally in tallies:
            tally.searched = tally.move in chosen
            if not tally.points:
                for i in range(min(deals, len(worlds))):
                    points, win = self.play(tally.move, (mine,), worlds[i])[0]
                    tally.points.append(points)
                    tally.wins.append(win)
        order = self._prefer_plain(ranked(tallies, self.utility)) if shortlist else []
        order += [t for t in tallies if not t.searched]
        values = [self._value(t, worlds, order[0]) for t in order]
        return Advice("gin", self.state.phase, tuple(values), self.level.name, self.seed,
                      complete, self._ranked_by(), self._ranking(bool(shortlist)))

    @staticmethod
    def _listed(move: Move, moves: Sequence[Move], index: int) -> Move:
        """The listed move ``move`` names (a knock by its card: its melds are
        the advisor's choice); ``illegal_move`` when none."""
        for listed in moves:
            if listed.action == move.action and listed.card == move.card:
                return listed
        raise not_legal(move, index)

    def _ranked_by(self) -> RankedBy:
        return "match_win_probability" if self.by_match else "expected_points"

    def _unready(self) -> str:
        """What the ranking says when the match's table was not ready in time."""
        return ("; the match-win table of this match was not ready by the deadline, so the "
                "hand's expected points rank the moves (no match figures)"
                if self.table_late else "")

    def _ranking(self, searched: bool) -> str:
        """The ranking rule in words."""
        worth = "the chance to win the match after this hand" if self.by_match else \
            "expected points for this hand"
        if not searched:
            return ("by the advisor's judgement (the deadwood kept now and after the next "
                    "draw, a pickup that melds); every figure comes from a few deals (rough)"
                    + self._unready())
        return (f"by {worth}: the moves the search played on the same deals first, the "
                "plainest discard (the least deadwood kept) ahead of the others unless one "
                f"is better by more than {counted(self.params.plain_z, 'standard error')} "
                "of the difference; then the "
                "judgement's other moves, valued on a few deals (rough)" + self._unready())

    def _prefer_plain(self, ranked: list[Tally]) -> list[Tally]:
        """``ranked`` with the plainest discard (the least deadwood kept)
        first instead of the search's best discard, unless the deals favour
        the best by ``params.plain_z`` standard errors (paired, on the deals
        both played)."""
        best = ranked[0]
        if best.move.action != DISCARD:
            return ranked
        discards = [t for t in ranked if t.move.action == DISCARD]
        plain = min(discards, key=lambda t: (
            self.hands.deadwood(self.mask & ~(1 << (t.move.card or 0))), t.prior))
        if clearly_ahead(best, plain, self.params.plain_z, self.spending.floor, self.utility):
            return ranked
        return [plain, *(t for t in ranked if t is not plain)]

    def _prior(self, move: Move, worlds: Sequence[World]) -> float:
        """The judgement's order of the moves, lower first (deadwood points a
        move is expected to keep; a knock the judgement favours goes first)."""
        judge, hands, mask = self.judge, self.hands, self.mask
        action = move.action
        if action == DISCARD:
            assert move.card is not None
            return judge.discard_score(mask, move.card) / TIE_SCALE
        if action == KNOCK:
            assert move.card is not None
            kept = mask & ~(1 << move.card)
            points = [self.simulator.knock_score(kept, w.hands[1])
                      for w in worlds[:self.level.judged]]
            expected = sum(points) / max(1, len(points))
            undercut = sum(p < 0 for p in points) / max(1, len(points))
            favoured = hands.deadwood(kept) == 0 or (expected > 0
                                                     and undercut <= self.params.knock_risk)
            return (-1000.0 if favoured else 1000.0) - expected
        if action == TAKE_DISCARD:
            top = move.card
            assert top is not None
            if self.state.phase == WALL:
                return -1.0
            best = min(hands.cost((mask | 1 << top) & ~(1 << c)) for c in cards_of(mask))
            melds = hands.melds_with(mask, top)
            edge = self.params.take_edge
            return best / TIE_SCALE - (edge if melds else -edge)
        if action == DRAW_STOCK or (action == PASS and self.state.phase == FIRST_UPCARD):
            return judge.expected_cost(mask) / TIE_SCALE
        return 0.0

    def _value(self, tally: Tally, worlds: Sequence[World], best: Tally) -> MoveValue:
        points = tally.points
        n = len(points)
        mean, error = mean_and_error(points)
        wins = sum(tally.wins) / n
        move = self._shown(tally.move, worlds) if tally.move.action == KNOCK else tally.move
        # passing at the wall ends the hand unscored: its figures are exact
        exact = move.action == PASS and self.state.phase == WALL
        gap, gap_error = behind(best, tally, self.utility)
        confidence = confidence_of(n, exact, tally.searched)
        reasons = self._reasons(tally, worlds, tally is best)
        if gap is not None and gap < 0 and tally.searched and best.searched:
            reasons.append(ranked_below(best, gap, gap_error))
        return MoveValue(move, mean, wins, self._match(points), exact, n,
                         0.0 if exact else error, tuple(reasons), tally.searched, confidence,
                         gap, gap_error)

    def _match(self, points: Sequence[float]) -> float | None:
        if not self.by_match:
            return None
        return sum(self.utility(p) for p in points) / len(points)

    # -- the melds a knock shows ---------------------------------------------------
    def _shown(self, move: Move, worlds: Sequence[World]) -> Move:
        """The knock's melds: of every arrangement within the knock limit,
        the one that scores most against the deals' defenders (fewest layoffs)."""
        assert move.card is not None
        kept_mask = self.mask & ~(1 << move.card)
        if self.deadline.expired():  # past the deadline: the least deadwood's melds, at once
            melds_shown, dead_shown = _best_melds(self.hands, kept_mask)
            return Move(KNOCK, card=move.card, melds=tuple(sorted(melds_shown)),
                        deadwood=dead_shown)
        kept = sorted(cards_of(kept_mask))
        sample = worlds[: min(len(worlds), self.params.shown_deals)]
        best: tuple[float, tuple[tuple[int, ...], ...], tuple[int, ...]] | None = None
        try:
            for count, (melds, deadwood) in enumerate(arrangements(kept, self.deal, self.limit,
                                                                    self.deadline)):
                if count >= self.params.shown_arrangements:
                    break
                meld_masks = [mask_of(m.cards) for m in melds]
                dead = sum(self.hands.points[c] for c in deadwood)
                total = 0
                for world in sample:
                    defender = world.hands[1]
                    reply = self.hands.deadwood(defender) if dead == 0 else \
                        defender_deadwood(self.hands, meld_masks, defender)
                    total += knock_points(self.rules, dead, reply)
                score = total / len(sample)
                shown = tuple(tuple(sorted(m.cards)) for m in melds)
                if best is None or score > best[0]:
                    best = (score, shown, tuple(deadwood))
        except DeadlineExceeded:  # the best of the arrangements scored so far
            pass
        if best is None:
            melds_shown, dead_shown = _best_melds(self.hands, kept_mask)
            return Move(KNOCK, card=move.card, melds=tuple(sorted(melds_shown)),
                        deadwood=dead_shown)
        return Move(KNOCK, card=move.card, melds=best[1], deadwood=best[2])

    # -- the defender's reply --------------------------------------------------------
    def _defend(self, consider: Sequence[Move] = ()) -> Advice:
        """After the opponent knocked: the exact best melds and layoffs (the
        points are exact when the knocker's deadwood was shown, else
        estimated over the deadwood it could hold)."""
        knock = self.state.knock
        assert knock is not None
        melded = sum(len(m) for m in knock.melds)
        knocker, exact = self._knocker_deadwood(knock.deadwood, 10 - melded)
        # gin is deadwood 0 (RULES.md 7, as gin_score scores it): every card
        # melded, or the cards left worth 0 under the house's card points
        gin = melded == len(self.state.hand) or (exact and knocker == [0])
        if gin:  # no layoffs onto gin
            arrangement_melds, dead = _best_melds(self.hands, self.mask)
            reply = sum(self.hands.points[c] for c in dead)
            move = Move(LAY_OFF, melds=arrangement_melds, deadwood=dead)
        else:
            table = read_table([list(m) for m in knock.melds], self.deal)
            # not cut short by the deadline: the reply is said to be exact, and
            # a search stopped early answers every card kept (one deck, ten
            # cards, a few table melds: it is bounded and quick)
            search = LayoffSearch(self.deal, table, Deadline.never())
            _, play = search.best(list(self.state.hand))
            reply = play.deadwood_points
            layoffs = tuple(sorted(Layoff(lay.table_index, tuple(lay.cards))
                                   for lay in play.layoffs))
            move = Move(LAY_OFF, melds=tuple(tuple(sorted(m.cards)) for m in play.melds),
                        deadwood=tuple(sorted(play.deadwood)), layoffs=layoffs)
        for index, other in enumerate(consider):  # the one reply: the exact best
            if other.action != LAY_OFF or (other.melds, other.layoffs) != (move.melds,
                                                                           move.layoffs):
                raise not_legal(other, index)
        points = [-knock_points(self.rules, k, reply) for k in knocker]
        mean = sum(points) / len(points)
        reasons = [f"your deadwood {reply}"
                   + (f" against the knocker's {knocker[0]}" if exact else "")]
        if move.layoffs:
            laid = " ".join(card_name(c) for lay in move.layoffs for c in lay.cards)
            reasons.append(f"lay off {laid}")
        undercut = sum(p > 0 for p in points) / len(points)
        if undercut:
            reasons.append("undercut" if exact else f"undercut in {undercut:.0%} of deals")
        error = None if exact else (mean_and_error(points)[1] or 0.0)
        value = MoveValue(move, mean, undercut, self._match(points), exact, len(points),
                          0.0 if exact else error, tuple(reasons),
                          confidence=confidence_of(len(points), exact))
        return Advice("gin", LAYOFF, (value,), self.level.name, self.seed, not self.table_late,
                      self._ranked_by(), "the one reply: the exact best melds and layoffs "
                      "against the knock (figures over the knocker's unshown deadwood when "
                      "it was not shown)" + self._unready())

    def _knocker_deadwood(self, shown: tuple[int, ...] | None,
                          count: int) -> tuple[list[int], bool]:
        """The knocker's deadwood points, and whether they are known: shown,
        or the cards it is known to hold and not shown (``knocker_held``) and
        a guess of the others from the unseen cards (``count`` cards in all,
        worth at most the knock limit together; the limit itself when no
        guess fits, which is no more known than a guess)."""
        points = self.hands.points
        if shown is not None:
            return [sum(points[c] for c in shown)], True
        held = knocker_held(self.state)
        known = sum(points[c] for c in held)
        if count <= len(held):  # every card of its deadwood was seen
            return [known], True
        pool = sorted(self.state.knowledge.unseen)
        guesses: list[int] = []
        for _ in range(self.params.knocker_tries):
            total = known + sum(points[c] for c in self.rng.sample(pool, max(0, count - len(held))))
            if total <= self.limit:
                guesses.append(total)
            if len(guesses) >= self.params.knocker_guesses:
                break
        return guesses or [self.limit], False

    # -- reasons ---------------------------------------------------------------------
    def _reasons(self, tally: Tally, worlds: Sequence[World], first: bool) -> list[str]:
        """Why, in words; ``first``: the move is the recommended one."""
        move = tally.move
        reasons: list[str] = []
        n = len(tally.points)
        if move.action == KNOCK:
            assert move.card is not None
            dead = self.hands.deadwood(self.mask & ~(1 << move.card))
            undercut = sum(p < 0 for p in tally.points) / n
            reasons.append("gin" if dead == 0 else
                           f"knocking now: undercut in {undercut:.0%} of the deals played out")
        elif move.action == DISCARD:
            assert move.card is not None
            kept = self.mask & ~(1 << move.card)
            reasons.append(self._dearer(kept, tally, worlds) if first else
                           f"{counted(self.hands.deadwood(kept), 'point')} of deadwood left")
            if tally.line != self.params.plans[0]:
                reasons.append("then play for gin")
            outs = f"{counted(self._outs(kept), 'unseen card')} would go into a meld"
            if outs not in reasons[0]:  # not said already (``_dearer``)
                reasons.append(outs)
            feeds = self._feeds(move.card)
            if feeds:
                reasons.append(feeds)
            elif worlds:
                used = self._used(move.card, worlds, n)
                if used >= 0.25:
                    reasons.append(f"the opponent could meld it in {used:.0%} of deals")
        elif move.action == TAKE_DISCARD:
            top = move.card
            assert top is not None
            reasons.append("goes into a meld" if self.hands.melds_with(self.mask, top)
                           else "makes no meld")
        elif move.action == DRAW_STOCK:
            reasons.append(f"{counted(self._outs(self.mask), 'unseen card')} would improve the "
                           "hand")
        elif move.action == PASS and self.state.phase == WALL:
            reasons.append("the stock is down to its last two cards: the hand ends with no score")
        elif move.action == PASS and self.state.pile_top is not None:
            top = self.state.pile_top
            reasons.append(f"leaves {card_name(top)}, which "
                           + ("would go into a meld" if self.hands.melds_with(self.mask, top)
                              else "makes no meld"))
        reasons.append(f"{tally.mean():+.1f} points on average over {counted(n, 'deal')} "
                       "played out")
        return reasons

    def _dearer(self, kept: int, tally: Tally, worlds: Sequence[World]) -> str:
        """The deadwood the recommended discard leaves (``kept``), and when
        another throw leaves less, how much less and why this one is first
        anyway: the cheaper throw feeds the opponent, or more unseen cards
        would meld with this hand, or it did better on the deals (the
        judgement's look at the next draw when it was not searched).  A
        player reading only the bigger figure takes the advice for a slip."""
        dead = self.hands.deadwood(kept)
        taken = self.state.taken_this_turn
        least, plain = self.hands.best_discard(self.mask, 0 if taken is None else 1 << taken)
        if dead <= least:
            return f"{counted(dead, 'point')} of deadwood left"
        plain_kept = self.mask & ~(1 << plain)
        n = len(tally.points)
        used = self._used(plain, worlds, n) if worlds else 0.0
        outs, plain_outs = self._outs(kept), self._outs(plain_kept)
        feeds = self._feeds(plain)
        if feeds:
            why = feeds
        elif used >= 0.25:
            why = f"the opponent could meld {card_name(plain)} in {used:.0%} of deals"
        elif outs > plain_outs:
            why = f"{counted(outs, 'unseen card')} would go into a meld against {plain_outs}"
        elif tally.searched:
            why = "it did better on the same deals played out"
        else:
            why = "it leaves more to hope for from the next draw"
        return (f"{counted(dead, 'point')} of deadwood left now, {dead - least} more than throwing "
                f"{card_name(plain)}, but {why}")

    def _used(self, card: int, worlds: Sequence[World], n: int) -> float:
        """The share of the first ``n`` deals whose opponent could meld ``card``."""
        return sum(self.hands.melds_with(w.hands[1], card)
                   for w in worlds[:n]) / min(n, len(worlds))

    def _outs(self, kept: int) -> int:
        """Unseen cards that, drawn next, would go into a meld of ``kept``."""
        return sum(1 for card in self.state.knowledge.unseen
                   if self.hands.melds_with(kept, card))

    def _feeds(self, card: int) -> str | None:
        """Why throwing ``card`` feeds the opponent: a card it took shares
        its rank, or sits next to it in the suit."""
        for taken in sorted(self.state.knowledge.opponent_known):
            same_rank = rank_of(taken) == rank_of(card)
            neighbour = suit_of(taken) == suit_of(card) and abs(rank_of(taken) - rank_of(card)) <= 2
            if same_rank or neighbour:
                return f"the opponent took {card_name(taken)}: {card_name(card)} feeds it"
        return None


def _best_melds(hands: GinHands, mask: int) -> tuple[tuple[tuple[int, ...], ...], tuple[int, ...]]:
    melds = arrangement(hands, mask).melds
    melded = 0
    for meld in melds:
        melded |= meld
    return tuple(tuple(cards_of(m)) for m in melds), tuple(cards_of(mask & ~melded))


MATCH_CELLS = 250
"""The most score steps a side's match-win table holds: a longer match is
read on a table of its scores scaled down to this many steps (each hand's
points scaled alike, one step at least), so its size and time stay bounded
whatever target a request names."""


def _match_table(outcomes: tuple[tuple[int, float], ...]) -> list[list[float]]:
    """The whole match-win table of ``outcomes`` (``_build_match_table``), made
    once: the usual outcomes' table lives as long as the process (a solver
    process makes it before any request), the others' (a long match scaled
    down, other parameters) in a small cache (``_other_match_table``). Eight
    long matches' tables once pushed the usual one out of that cache, and the
    next request of an everyday match paid the 50-90 ms of making it again,
    past a short deadline."""
    if outcomes == GIN_PARAMS.match_outcomes:
        return _usual_match_table()
    table = _other_match_table(outcomes)
    table.grow(math.inf)
    return table.rows


def match_table_ready(target: int, until: float,
                      outcomes: tuple[tuple[int, float], ...] = GIN_PARAMS.match_outcomes
                      ) -> bool:
    """Whether the match-win table a match to ``target`` is read on is whole,
    made (or its making resumed, a row at a time) until the clock
    (``time.monotonic``) reaches ``until``: a long match's table took 50 ms,
    past a short deadline, and the next request of the same scale goes on
    from the rows this one made. The usual table is made whole, as ever.

    >>> match_table_ready(100, 0.0)  # the usual table: made whole, whatever the clock
    True
    """
    outcomes = _scaled_outcomes(target, outcomes)
    if outcomes == GIN_PARAMS.match_outcomes:
        _usual_match_table()
        return True
    return _other_match_table(outcomes).grow(until)


@functools.cache
def _usual_match_table() -> list[list[float]]:
    return _build_match_table(GIN_PARAMS.match_outcomes)


OTHER_MATCH_TABLES_KEPT = 8
"""How many other outcomes' tables are kept (about 100 scales of long match are possible)."""
_OTHER_MATCH_TABLES: LruCache[tuple[tuple[int, float], ...], _MatchTable] = \
    LruCache(OTHER_MATCH_TABLES_KEPT)
"""The other outcomes' tables, whole or in the making, the least recently read out first."""


def _other_match_table(outcomes: tuple[tuple[int, float], ...]) -> _MatchTable:
    """The kept table of ``outcomes`` (a new, empty one the first time; two
    threads asking at once share the one kept)."""
    table = _OTHER_MATCH_TABLES.get(outcomes)
    if table is None:
        table = _OTHER_MATCH_TABLES.put(outcomes, _MatchTable(outcomes))
    return table


class _MatchTable:
    """A match-win table made a row at a time (``_build_match_table``), so
    that its making can stop at a deadline and resume on the next request;
    ``rows`` the rows made so far, ``made`` how many rows this table has made
    (a row made twice by two threads at once counts twice)."""

    __slots__ = ("_lock", "made", "outcomes", "rows", "void")

    def __init__(self, outcomes: tuple[tuple[int, float], ...]) -> None:
        self.outcomes = outcomes
        self.void = 1.0 - 2 * sum(p for _, p in outcomes)
        self.rows = [[1.0] * (MATCH_CELLS + 1)]  # nothing left to score: won
        self.made = 0
        self._lock = threading.Lock()

    def whole(self) -> bool:
        """Every row made."""
        return len(self.rows) > MATCH_CELLS

    def grow(self, until: float) -> bool:
        """Rows made until the table is whole or the clock (``time.monotonic``,
        read before each row, about 0.2 ms) reaches ``until``; whether it is
        whole."""
        rows = self.rows
        while len(rows) <= MATCH_CELLS:
            if until != math.inf and time.monotonic() >= until:
                return False
            mine = len(rows)
            row = _match_row(rows, mine, self.outcomes, self.void)
            with self._lock:  # rows read by another thread are never changed, only added to
                self.made += 1
                if len(rows) == mine:
                    rows.append(row)
        return True


def _build_match_table(outcomes: tuple[tuple[int, float], ...]) -> list[list[float]]:
    """P(win the match), indexed ``[mine][theirs]`` by the points each side
    still needs, from 0 to ``MATCH_CELLS``, with every hand won by either
    side alike and worth the points of a typical gin hand (``outcomes``: per
    side, points and their chance).  The chance depends on what each side
    needs, not on the target, so one table serves every target up to
    ``MATCH_CELLS`` (a match to 100 and one to 250 alike: a target a request
    has not named before costs no new table); filled from the end of the
    match back, so no score's chance waits on a call stack (``_MatchTable``,
    made whole at once)."""
    table = _MatchTable(outcomes)
    table.grow(math.inf)
    return table.rows


def _match_row(win: Sequence[list[float]], mine: int, outcomes: tuple[tuple[int, float], ...],
               void: float) -> list[float]:
    """Row ``mine`` of the match-win table (``_build_match_table``), from the
    rows before it (``win``); ``void`` the chance of a hand nobody scores."""
    row = [0.0] * (MATCH_CELLS + 1)  # the other side needs nothing: lost
    after = [(chance, win[max(mine - points, 0)], points) for points, chance in outcomes]
    for theirs in range(1, MATCH_CELLS + 1):
        total = 0.0
        for chance, scored, points in after:
            total += chance * (scored[theirs]
                               + row[theirs - points if theirs > points else 0])
        row[theirs] = total / (1.0 - void)
    return row


def _scaled_outcomes(target: int, outcomes: tuple[tuple[int, float], ...]
                     ) -> tuple[tuple[int, float], ...]:
    """The outcomes a match to ``target`` is read with: beyond ``MATCH_CELLS``,
    each hand's points scaled down alike (one step at least)."""
    if target <= MATCH_CELLS:
        return outcomes
    scale = target / MATCH_CELLS
    return tuple((max(1, round(points / scale)), chance) for points, chance in outcomes)


def match_win_probability(mine: int, theirs: int, target: int,
                          outcomes: tuple[tuple[int, float], ...] = GIN_PARAMS.match_outcomes
                          ) -> float:
    """The chance to win a match to ``target`` from ``mine`` against ``theirs``
    (beyond ``MATCH_CELLS`` points, read on the match scaled down to that many).

    >>> round(match_win_probability(0, 0, 100), 3), round(match_win_probability(90, 0, 100), 3)
    (0.5, 0.983)
    >>> round(match_win_probability(5_000, 0, 10_000), 3) > 0.9
    True
    """
    if target > MATCH_CELLS:
        scale = target / MATCH_CELLS
        outcomes = _scaled_outcomes(target, outcomes)
        # a side short of the target stays a step short of it: rounded up to
        # it, the match read as won (9,990 to 9,990 of 10,000: certain for both)
        mine, theirs = (score if score >= target else min(round(score / scale), MATCH_CELLS - 1)
                        for score in (mine, theirs))
        target = MATCH_CELLS
    mine, theirs = max(0, min(mine, target)), max(0, min(theirs, target))
    return _match_table(outcomes)[target - mine][target - theirs]
