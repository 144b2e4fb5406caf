"""The Indian rummy players the arena can seat, and their registry.

Every player plays ``indian13`` and ``indian21`` alike: it asks the library
about the game its ``PlayerView`` names (``view.game``) and passes the cut
card as ``wild_rank`` (a full card, ``"7H"``: ``indian21`` needs its suit
for the lower and upper jokers).

* ``greedy`` -- today's hints: ``draw_hint`` (take the pile top when it
  beats the exact expected blind draw), declare when ``solve`` says the hand
  is declarable, else ``discard_hint``'s best discard; never drops;
* ``distance`` -- the best simple heuristic we could write: the packing of
  ``solver.play.indian`` (how many cards from a valid declaration, pure
  sequences first): take the pile top only when it brings the hand nearer,
  throw the dearest card left out, declare as soon as ``solve`` allows, and
  drop a weak first hand (``DROP_DISTANCE`` cards or more from a show, or
  ``DROP_WITHOUT_PURE`` with no pure sequence in sight; ``indian21``:
  ``DROP_DISTANCE_21`` cards or more, or ``DROP_WITHOUT_PURE_21`` with every
  one of its three pure sequences still short of a card);
* ``advisor`` / ``advisor_novice`` / ``advisor_expert`` -- ``solver.play.advise``'s
  recommendation from the public state only; ``advisor_nodrop`` plays the
  advisor's best move that is not a drop (what the advisor's drops save).
* ablations, to see where the advisor's points come from: ``advisor_drop8``
  drops only when the drop beats its best other move by 8 points;
  ``advisor_greedy_draws`` and ``advisor_greedy_discards`` play the greedy
  player's draws (or discards) and the advisor's other moves.
* ``careful`` -- tracks the pile: the distance player's draws and shows, but
  its throw weighs what the next player collects: among the cards the
  packing leaves out (the dearest first, as distance), one that melds with a
  card the next player took from the pile and still holds (the same rank,
  or the same suit within two ranks) costs ``FEED_COST`` points, one next to
  a card that player threw or let go by is ``SAFE_CREDIT`` points safer; it
  drops a first hand only when very weak (``CAREFUL_DROP`` cards or more from
  a show), and later, in the middle of a deal, when it is still
  ``CAREFUL_MIDDLE_DROP`` cards or more from a show after
  ``CAREFUL_MIDDLE_TURNS`` turns while an opponent has taken
  ``CAREFUL_THREAT`` cards from the pile (a middle drop costs 40, a loser's
  count up to 80);
* noisy versions (``greedy_noisy``, ``distance_noisy``, ``careful_noisy``):
  the player as it is, but at a draw or a plain discard, with the seeded
  chance ``NOISE``, a random one of the legal draws (never a drop) or
  discards instead (``NoisyPlayer``); the player is always asked first;
* ``random`` -- a random legal move (seeded per deal): the pile top or the
  stock alike, a drop at the start of one turn in twenty, any legal discard;
  it declares when ``solve`` finds a show (so its deals end too).  It
  fuzzes the referee.

Every player sees only its ``PlayerView``.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any, Protocol

from benchmarks.arena.core.entrants import Entrant
from benchmarks.arena.core.entrants import make_player as make_entrant
from benchmarks.arena.core.joker_cards import card_name, names
from benchmarks.arena.core.noise import NoiseCoin
from benchmarks.arena.indian.referee import (
    DRAW,
    DROP,
    TAKE,
    Action,
    Kind,
    Phase,
    PlayerView,
)
from solver import discard_hint, draw_hint, make_deal, make_rules, solve
from solver.play import GAMES, advise, words
from solver.play.indian import FastPolicy, hands_for

LABEL = "Indian"
"""The game as messages name it."""
DROP_DISTANCE = 6
DROP_WITHOUT_PURE = 5
"""The distance player drops its first hand this far from a show when no pure
sequence is within one card (its pure gaps are 2 or more)."""
DROP_DISTANCE_21 = 5
DROP_WITHOUT_PURE_21 = 4
"""``indian21``: the same, its three pure sequences each a card short (pure
gaps 3 or more): about one first hand in six (a drop costs 10 where a
loser's count is uncapped, about 110 on such hands)."""
RANDOM_DROP = 0.05
FEED_COST = 10
"""Points the careful player gives up not to throw a card that melds with one
the next player took from the pile (a throw's worth is its points)."""
SAFE_CREDIT = 2
"""Points the careful player credits a card next to one the next player threw or let go by."""
CAREFUL_DROP = 7
CAREFUL_MIDDLE_DROP = 5
CAREFUL_MIDDLE_TURNS = 4
CAREFUL_THREAT = 3
"""The careful player's drops (see the module docstring)."""
NOISE = 0.1
"""The chance of a random draw or discard at each of those decisions (the noisy versions)."""
RANKS = 13


class Player(Protocol):
    """A bot the Indian arena can seat."""

    name: str

    def start_deal(self, seat: int, seed: int) -> None:
        """A new deal begins."""

    def act(self, view: PlayerView) -> Action:
        """The action for ``view`` (one of ``view.legal``, or a declaration)."""


def cut_token(view: PlayerView) -> str:
    """The cut card as the library's ``wild_rank``."""
    return card_name(view.cut_card)


def _declaration(view: PlayerView) -> Action | None:
    """A valid show by ``solve`` (never throwing back the card taken), or None."""
    solution = solve(names(view.hand), view.game, wild_rank=cut_token(view), discard=True)
    if not solution.declarable:
        return None
    discard = solution.discard
    if discard is None or discard == view.taken:
        return None
    return Action(Kind.DECLARE, discard, tuple(tuple(m.cards) for m in solution.melds))


class GreedyHintPlayer:
    """Today's hints (see the module docstring)."""

    name = "greedy"

    def start_deal(self, seat: int, seed: int) -> None:
        """Nothing to remember."""

    def act(self, view: PlayerView) -> Action:
        """The hints' move."""
        if view.phase == Phase.DRAW:
            if TAKE in view.legal and DRAW in view.legal:
                seen = list(view.discard_pile[:-1])
                draw = draw_hint(names(view.hand), card_name(view.discard_pile[-1]), view.game,
                                 wild_rank=cut_token(view), seen=names(seen))
                if draw.recommendation == words.TAKE_DISCARD:
                    return TAKE
            return DRAW if DRAW in view.legal else TAKE
        declare = _declaration(view)
        if declare is not None:
            return declare
        hint = discard_hint(names(view.hand), view.game, wild_rank=cut_token(view))
        for option in hint.options:
            if option.discard != view.taken:
                return Action(Kind.DISCARD, option.discard)
        return view.legal[0]


class DistancePlayer:
    """Distance to a declaration, drops a weak first hand (see the module docstring)."""

    def __init__(self, drops: bool = True) -> None:
        self.drops = drops
        self.name = "distance" if drops else "distance_nodrop"

    def start_deal(self, seat: int, seed: int) -> None:
        """Nothing to remember."""

    def _policy(self, view: PlayerView) -> FastPolicy:
        deal = make_deal(make_rules(view.game), cut_token(view))
        return FastPolicy(hands_for(deal))

    @staticmethod
    def weak(game: str, distance: int, pure_gaps: int) -> bool:
        """Whether a first hand this far from a show is dropped."""
        if game == "indian21":
            return distance >= DROP_DISTANCE_21 or (
                distance >= DROP_WITHOUT_PURE_21 and pure_gaps >= 3)
        return distance >= DROP_DISTANCE or (distance >= DROP_WITHOUT_PURE and pure_gaps >= 2)

    def act(self, view: PlayerView) -> Action:
        """The packing's move."""
        policy = self._policy(view)
        hand = list(view.hand)
        if view.phase == Phase.DRAW:
            packing = policy.packing(hand)
            first = view.turns[view.seat] == 0
            if self.drops and first and DROP in view.legal and self.weak(
                    view.game, packing.distance, packing.pure_gaps):
                return DROP
            if TAKE in view.legal and policy.takes(hand, view.discard_pile[-1]):
                return TAKE
            return DRAW if DRAW in view.legal else TAKE
        declare = _declaration(view)
        if declare is not None:
            return declare
        card, _ = policy.discard(hand, view.taken)
        return Action(Kind.DISCARD, card)


def melds_with(card: int, other: int, wild: Sequence[bool]) -> bool:
    """Whether ``other`` can meld with ``card`` naturally: the same rank, or
    the same suit within two ranks (printed jokers and wild cards aside)."""
    if card == other or card >= len(wild) - 1 or other >= len(wild) - 1 \
            or wild[card] or wild[other]:
        return False
    if card % RANKS == other % RANKS:
        return True
    return card // RANKS == other // RANKS and abs(card % RANKS - other % RANKS) <= 2


def pile_record(view: PlayerView, seat: int) -> tuple[list[int], list[int]]:
    """The cards ``seat`` took from the pile and still holds, and the cards it
    threw or let go by (the pile top it drew from the stock over)."""
    pile = [view.upcard]
    holds: list[int] = []
    let_go: list[int] = []
    for event in view.history:
        if event.kind == Kind.TAKE_DISCARD:
            card = pile.pop() if pile else event.card
            if event.seat == seat and card is not None:
                holds.append(card)
        elif event.kind == Kind.DRAW_STOCK:
            if event.seat == seat and pile:
                let_go.append(pile[-1])
        elif event.kind in (Kind.DISCARD, Kind.DECLARE) and event.card is not None:
            pile.append(event.card)
            if event.seat == seat:
                let_go.append(event.card)
                if event.card in holds:
                    holds.remove(event.card)
    return holds, let_go


class CarefulPlayer(DistancePlayer):
    """Tracks the pile: will not throw what the next player collects (see the
    module docstring)."""

    def __init__(self) -> None:
        super().__init__(True)
        self.name = "careful"

    def act(self, view: PlayerView) -> Action:
        """The distance player's move, a careful throw and drops of its own."""
        policy = self._policy(view)
        hand = list(view.hand)
        if view.phase == Phase.DRAW:
            packing = policy.packing(hand)
            if DROP in view.legal and self._drops(view, packing.distance):
                return DROP
            if TAKE in view.legal and policy.takes(hand, view.discard_pile[-1]):
                return TAKE
            return DRAW if DRAW in view.legal else TAKE
        declare = _declaration(view)
        if declare is not None:
            return declare
        plain, packing = policy.discard(hand, view.taken)
        wild = policy.hands.wild
        points = policy.hands.points
        options = [c for c in packing.left_out if c != view.taken and not wild[c]]
        if not options:
            return Action(Kind.DISCARD, plain)
        holds, let_go = pile_record(view, (view.seat + 1) % view.players)

        def worth(card: int) -> tuple[float, int]:
            value = float(points[card])
            if any(melds_with(card, other, wild) for other in holds):
                value -= FEED_COST
            if any(melds_with(card, other, wild) for other in let_go):
                value += SAFE_CREDIT
            return value, card

        return Action(Kind.DISCARD, max(options, key=worth))

    @staticmethod
    def _drops(view: PlayerView, distance: int) -> bool:
        if view.turns[view.seat] == 0:
            return distance >= CAREFUL_DROP
        if view.turns[view.seat] < CAREFUL_MIDDLE_TURNS or distance < CAREFUL_MIDDLE_DROP:
            return False
        took = [sum(1 for e in view.history if e.seat == seat and e.kind == Kind.TAKE_DISCARD)
                for seat in range(view.players) if seat != view.seat]
        return max(took, default=0) >= CAREFUL_THREAT


class NoisyPlayer:
    """``base`` with an occasional random draw or discard (see the module docstring)."""

    def __init__(self, base: Player, name: str, noise: float = NOISE) -> None:
        self.base = base
        self.name = name
        self.coin = NoiseCoin(noise)

    def start_deal(self, seat: int, seed: int) -> None:
        """The base player's new deal, and a coin of its own."""
        self.base.start_deal(seat, seed)
        self.coin.new_deal(seed)

    def act(self, view: PlayerView) -> Action:
        """The base player's action, or now and then a random one."""
        action = self.base.act(view)
        if view.phase == Phase.DRAW and action.kind != Kind.DROP:
            options = [a for a in view.legal if a.kind in (Kind.TAKE_DISCARD, Kind.DRAW_STOCK)]
        elif view.phase == Phase.DISCARD and action.kind == Kind.DISCARD:
            options = [a for a in view.legal if a.kind == Kind.DISCARD]
        else:
            return action
        return self.coin.perturb(options, action)


def advisor_history(view: PlayerView) -> list[dict[str, Any]]:
    """The arena's events as the advisor's history."""
    out: list[dict[str, Any]] = []
    for event in view.history:
        item: dict[str, Any] = {words.PLAYER: event.seat, words.ACTION: str(event.kind)}
        if event.card is not None:
            item[words.CARD] = card_name(event.card)
        out.append(item)
    return out


def advice_request(view: PlayerView, seed: int) -> dict[str, Any]:
    """The ``POST /v1/advise`` body (without ``level``) of the public state
    ``view`` shows its seat: what the arena's advisor asks."""
    return {"game": view.game, "hand": names(view.hand), "upcard": card_name(view.upcard),
            "history": advisor_history(view), "me": view.seat, "dealer": view.players - 1,
            "players": view.players, "wild_rank": cut_token(view), "seed": seed}


def default_params(game: str) -> Any:
    """Today's parameters object of ``game`` (``indian13``, ``indian21``): what
    ``advise`` plays with unless told (the tuner's baseline)."""
    return GAMES[game].params


class AdvisorPlayer:
    """``solver.play.advise``'s recommendation (see the module docstring)."""

    def __init__(self, level: str = "standard", drops: bool = True, *, drop_margin: float = 0.0,
                 greedy_draws: bool = False, greedy_discards: bool = False,
                 name: str | None = None, params: object = None) -> None:
        self.level = level
        self.params = params
        """The game's parameters object to advise with (None: the game's own)."""
        self.drops = drops
        self.drop_margin = drop_margin
        self.greedy = GreedyHintPlayer() if greedy_draws or greedy_discards else None
        self.greedy_draws = greedy_draws
        self.greedy_discards = greedy_discards
        plain = "advisor" if level == "standard" else f"advisor_{level}"
        self.name = name or (plain if drops else f"{plain}_nodrop")
        self.start_deal(0, 0)

    def start_deal(self, seat: int, seed: int) -> None:
        """A new deal: a new seed."""
        self.seed = seed
        self.decisions = 0

    def request(self, view: PlayerView) -> dict[str, Any]:
        """The next decision's ``/v1/advise`` body (a seed of its own per decision)."""
        self.decisions += 1
        return advice_request(view, (self.seed * 1000 + self.decisions) % 2**31)

    def _ranked(self, view: PlayerView) -> list[Any]:
        """The advisor's moves, best first, less the drops it would not make."""
        body = self.request(view)
        moves = list(advise(body.pop("game"), **body, level=self.level, params=self.params).moves)
        others = [v for v in moves if v.move.action != words.DROP]
        if moves and moves[0].move.action == words.DROP and (
                not self.drops or (others and moves[0].expected_points
                                   < others[0].expected_points + self.drop_margin)):
            return others
        return moves if self.drops else others

    def act(self, view: PlayerView) -> Action:
        """The advisor's best move (see ``__init__`` for the ablations)."""
        ranked = self._ranked(view)
        if not ranked:
            return view.legal[0]
        move = ranked[0].move
        if self.greedy is not None and move.action not in (words.DROP, words.DECLARE) and (
                self.greedy_draws if view.phase == Phase.DRAW else self.greedy_discards):
            return self.greedy.act(view)
        if move.action == words.DROP:
            return DROP
        if move.action == words.TAKE_DISCARD:
            return TAKE
        if move.action == words.DRAW_STOCK:
            return DRAW
        if move.action == words.DECLARE:
            return Action(Kind.DECLARE, move.card, tuple(tuple(m) for m in move.melds))
        return Action(Kind.DISCARD, move.card)


class RandomPlayer:
    """A random legal move, a show when the library finds one (see the module docstring)."""

    name = "random"

    def __init__(self, drop: float = RANDOM_DROP) -> None:
        self.drop = drop
        """The chance of a drop at the start of a turn."""
        self.rng = random.Random(0)

    def start_deal(self, seat: int, seed: int) -> None:
        """A new deal: a new random stream."""
        self.rng = random.Random(seed)

    def act(self, view: PlayerView) -> Action:
        """A random legal action (a declaration when one is found)."""
        if view.phase == Phase.DRAW:
            if DROP in view.legal and self.rng.random() < self.drop:
                return DROP
            return self.rng.choice([a for a in view.legal if a != DROP] or list(view.legal))
        declare = _declaration(view)
        if declare is not None:
            return declare
        return self.rng.choice(view.legal)


ENTRANTS: dict[str, Entrant[Player]] = {e.name: e for e in (
    Entrant("advisor", "the move advisor, level standard (solver.play.advise)",
            lambda _: AdvisorPlayer("standard")),
    Entrant("advisor_novice", "the move advisor, level novice", lambda _: AdvisorPlayer("novice")),
    Entrant("advisor_expert", "the move advisor, level expert", lambda _: AdvisorPlayer("expert")),
    Entrant("advisor_nodrop", "the advisor, never dropping",
            lambda _: AdvisorPlayer("standard", drops=False)),
    Entrant("advisor_drop8", "the advisor, dropping only when 8 points better than playing on",
            lambda _: AdvisorPlayer(drop_margin=8.0, name="advisor_drop8")),
    Entrant("advisor_greedy_draws", "the advisor's drops, discards and shows; greedy's draws",
            lambda _: AdvisorPlayer(greedy_draws=True, name="advisor_greedy_draws")),
    Entrant("advisor_greedy_discards", "the advisor's drops, draws and shows; greedy's discards",
            lambda _: AdvisorPlayer(greedy_discards=True, name="advisor_greedy_discards")),
    Entrant("greedy", "today's hints: draw_hint, solve, discard_hint; never drops",
            lambda _: GreedyHintPlayer()),
    Entrant("distance", "distance to a declaration, pure sequence first; drops a weak first hand",
            lambda _: DistancePlayer(True)),
    Entrant("distance_nodrop", "the distance player, never dropping",
            lambda _: DistancePlayer(False)),
    Entrant("careful", "tracks the pile: distance's draws and shows, throws nothing the next "
                       "player collects; drops only a very weak hand, or mid-deal when far "
                       "behind a player who collects", lambda _: CarefulPlayer()),
    Entrant("greedy_noisy", f"the greedy player, a random draw or discard {NOISE:.0%} of the time",
            lambda _: NoisyPlayer(GreedyHintPlayer(), "greedy_noisy")),
    Entrant("distance_noisy", f"the distance player, a random draw or discard {NOISE:.0%} of "
                              "the time", lambda _: NoisyPlayer(DistancePlayer(True),
                                                                "distance_noisy")),
    Entrant("careful_noisy", f"the careful player, a random draw or discard {NOISE:.0%} of "
                             "the time", lambda _: NoisyPlayer(CarefulPlayer(), "careful_noisy")),
    Entrant("random", "a random legal move; declares when solve finds a show",
            lambda _: RandomPlayer()),
)}


def make_player(name: str) -> Player:
    """A fresh player named ``name``."""
    return make_entrant(ENTRANTS, name, LABEL)
