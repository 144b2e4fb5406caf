"""The Indian rummy arena: rotated deals between named players, summed up as plain data.

The deals, their rotations, the worker processes and the figures every such
game shares are ``benchmarks.arena.core.rotations``; this module holds the game
loop and Indian rummy's own figures, for ``indian13`` and ``indian21``
alike (the game is an ``IndianVariant``; ``run_indian21_arena`` plays the
21-card game).

* A **deal** is one shuffled deck (``indian13``: two decks and two jokers;
  ``indian21``: three decks and three jokers) played once per rotation of
  the lineup (``n`` games with ``n`` players).
* A player's **points per deal** are its mean over the rotations of the
  points the referee gave it (+ collected, - paid).
* ``indian21``: a player's **value points** are what the value-card
  settlement gave it in a game (in its points already).

An illegal action (``IllegalActionError``) stops that game, unscored, and
is counted against the player that made it; the run then fails.

``records`` (a path or a callable, ``benchmarks.arena.core.records``)
receives every game played as a recorded game (``indian.records``), deal by
deal in order and each deal's rotations in order, whatever the number of
workers; a game stopped by an illegal action is left out.
"""

from __future__ import annotations

import functools
import time
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from benchmarks.arena.core import rotations
from benchmarks.arena.core.entrants import check_names
from benchmarks.arena.core.records import Records, write_records
from benchmarks.arena.core.rotations import interval, share
from benchmarks.arena.indian.players import ENTRANTS, LABEL, Player, make_player
from benchmarks.arena.indian.records import game_record
from benchmarks.arena.indian.referee import (
    DealResult,
    Event,
    IllegalActionError,
    IndianDeal,
    IndianRules,
    Kind,
)
from benchmarks.arena.indian.variants import INDIAN13, INDIAN21, IndianVariant

GAME = INDIAN13.game
SEEDS = INDIAN13.seeds
"""The name of ``indian13``'s deals' random streams (each variant has its ``seeds``)."""
MAX_ACTIONS = 2_000
"""A game longer than this is a player looping (never reached by a legal game:
the stock runs out first); it is stopped as illegal."""


def deck_for(seed: int, deal: int, variant: IndianVariant = INDIAN13) -> tuple[int, ...]:
    """The shuffled deck of deal ``deal``."""
    return rotations.deck_for(variant.seeds, variant.deck, seed, deal)


def seed_for(seed: int, deal: int, rotation: int, seat: int,
             variant: IndianVariant = INDIAN13) -> int:
    """A player's seed for one game."""
    return rotations.seed_for(variant.seeds, seed, deal, rotation, seat)


@dataclass(slots=True)
class GameRecord:
    """One game of a deal: who sat where and what the referee said."""

    seats: tuple[str, ...]
    """The player in each seat."""
    result: DealResult | None
    """None: stopped by an illegal action."""
    dropped: tuple[str | None, ...]
    """``first``/``middle`` by seat, None when it did not drop."""
    turns: int
    violation: tuple[int, str] | None = None
    """(seat, message) of an illegal action."""
    wrong_shows: int = 0
    decision_ms: dict[str, list[float]] = field(default_factory=dict)
    deck: tuple[int, ...] = ()
    """The shuffled deck the game was dealt from."""
    events: tuple[Event, ...] = ()
    """The referee's public history of the game."""
    drawn: tuple[int, ...] = ()
    """The card of each stock draw, in order (referee-side)."""

    def points(self, seat: int) -> int:
        """The points of ``seat`` (0 when the game was stopped)."""
        return 0 if self.result is None else self.result.points[seat]


def play_game(deck: Sequence[int], seats: Sequence[str], seeds: Sequence[int],
              rules: IndianRules, players: Sequence[Player] | None = None,
              variant: IndianVariant = INDIAN13) -> GameRecord:
    """One game of ``deck`` with the players ``seats`` (names) in seat order
    (``players``: those players themselves, else new ones made by name)."""
    deal = IndianDeal(deck, len(seats), rules, variant)
    players = [make_player(name) for name in seats] if players is None else list(players)
    for index, player in enumerate(players):
        player.start_deal(index, seeds[index])
    times: dict[str, list[float]] = {name: [] for name in seats}
    actions = 0
    violation: tuple[int, str] | None = None
    drawn: list[int] = []
    while not deal.over:
        seat = deal.to_act
        view = deal.view(seat)
        started = time.perf_counter()
        try:
            action = players[seat].act(view)
        except Exception as error:  # a crashing player is reported, not fatal
            violation = (seat, f"{seats[seat]} raised {type(error).__name__}: {error}")
            break
        times[seats[seat]].append((time.perf_counter() - started) * 1000)
        held = Counter(deal.hand_of(seat))
        try:
            deal.apply(action)
        except IllegalActionError as error:
            violation = (seat, f"{seats[seat]}: {error}")
            break
        if action.kind == Kind.DRAW_STOCK:
            drawn += (Counter(deal.hand_of(seat)) - held).elements()
        actions += 1
        if actions > MAX_ACTIONS:
            violation = (seat, f"{seats[seat]}: more than {MAX_ACTIONS} actions")
            break
    dropped = tuple(s.dropped for s in deal.seats)
    turns = sum(1 for e in deal.history if e.kind in (Kind.TAKE_DISCARD, Kind.DRAW_STOCK))
    return GameRecord(tuple(seats), deal.result if violation is None else None, dropped, turns,
                      violation, deal.wrong_shows, times, deal.deck, tuple(deal.history),
                      tuple(drawn))


def summarize(lineup: Sequence[str], deals: Sequence[Sequence[GameRecord]],
              variant: IndianVariant = INDIAN13) -> dict[str, Any]:
    """Per player: points per deal (interval over deals), wins, drops, wrong
    shows and illegal actions, decision times (``indian21``: value points
    per game); pairwise differences per deal; and the mean points of each
    seat whoever sits there."""
    common = rotations.sum_up(lineup, deals)
    names = common.names
    wins = Counter[str]()
    drops = Counter[str]()
    first_drops = Counter[str]()
    wrong = Counter[str]()
    drop_points: dict[str, list[float]] = {name: [] for name in names}
    play_points: dict[str, list[float]] = {name: [] for name in names}
    value_points: dict[str, list[float]] = {name: [] for name in names}
    for deal in deals:
        for game in deal:
            for seat, name in enumerate(game.seats):
                points = game.points(seat)
                if game.result is not None and variant.value_cards:
                    values = game.result.values
                    value_points[name].append(values[seat] if values else 0)
                if game.dropped[seat] is not None:
                    drops[name] += 1
                    first_drops[name] += game.dropped[seat] == "first"
                    drop_points[name].append(points)
                else:
                    play_points[name].append(points)
                if game.result is not None and game.result.winner == seat:
                    wins[name] += 1
                if game.result is not None and game.result.outcome == "wrong_show" \
                        and points < 0:
                    wrong[name] += 1
    def figures(name: str) -> dict[str, Any]:
        out = {
            "games": common.sat[name],
            "win_rate": share(wins[name], common.sat[name]),
            "drop_rate": share(drops[name], common.sat[name]),
            "first_drop_rate": share(first_drops[name], common.sat[name]),
            "points_when_dropping": interval(drop_points[name]),
            "points_when_playing_on": interval(play_points[name]),
            "wrong_declarations": wrong[name],
        }
        if variant.value_cards:
            out["value_points_per_game"] = interval(value_points[name])
        return out

    players = {name: common.player(name, ENTRANTS[name].description, figures(name))
               for name in names}
    return {**common.results(variant.game, "games", players),
            "wrong_declarations": sum(wrong.values())}


def run_indian_arena(lineup: Sequence[str], deals: int, *, seed: int = 0, workers: int = 1,
                     rules: IndianRules | None = None, progress: bool = True,
                     max_seconds: float | None = None,
                     variant: IndianVariant = INDIAN13,
                     records: Records = None) -> dict[str, Any]:
    """Play and sum up (see the module docstring and ``rotations.play_deals``);
    every game played as a recorded game to ``records``."""
    check_names(ENTRANTS, lineup, LABEL)
    rules = rules or variant.rules
    started = time.monotonic()
    played = rotations.play_deals(variant.seeds, variant.deck, lineup,
                                  functools.partial(play_game, rules=rules, variant=variant),
                                  deals, seed=seed, workers=workers, progress=progress,
                                  max_seconds=max_seconds)
    results = summarize(lineup, played, variant)
    knobs: dict[str, Any] = {"cap": rules.cap, "drop_first": rules.drop_first,
                             "drop_middle": rules.drop_middle,
                             "wrong_declaration": rules.wrong_declaration}
    if variant.value_cards:
        knobs.update(value_card_points=rules.value_card_points,
                     marriage_points=rules.marriage_points)
    results.update(seed=seed, workers=workers, wall_s=time.monotonic() - started, rules=knobs)
    if records is not None:
        results["records"] = write_records(records, (
            game_record(game, variant, rules) for deal in played for game in deal
            if game.result is not None))
    return results


def run_indian21_arena(lineup: Sequence[str], deals: int, *, seed: int = 0, workers: int = 1,
                       rules: IndianRules | None = None, progress: bool = True,
                       max_seconds: float | None = None,
                       records: Records = None) -> dict[str, Any]:
    """``run_indian_arena`` for 21-card Indian rummy (``indian21``)."""
    return run_indian_arena(lineup, deals, seed=seed, workers=workers, rules=rules,
                            progress=progress, max_seconds=max_seconds, variant=INDIAN21,
                            records=records)
