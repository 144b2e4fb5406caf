"""The Rummy 500, Rommy and basic rummy arenas: rotated deals between named players,
summed up as plain data.

The deals, their rotations, the worker processes and the figures every such
game shares are ``benchmarks.arena.core.rotations``; this module holds the round
loop and the figures of these games, which differ only by their ``Variant``
(``run_rummy500_arena``, ``run_rommy_arena``, ``run_basic_arena``; the
random streams of the decks and seeds are named after the game, so a seed
deals other decks in each).

* A **deal** is one shuffled deck (the game's: 52 cards and two jokers,
  basic rummy's 52 cards; Rummy 500 at 5 to 8 players two such decks, 108
  cards: ``Variant.cards_for``) played once per rotation of the lineup
  (``n`` rounds with ``n`` players).  The dealer is the last seat: seat 0
  plays first.
* A player's **points per deal** are its mean over the rotations of its
  round points (Rummy 500 and Rommy: laid down and laid off, less what is
  left in hand; basic rummy: what it collected on going out, or minus what
  it held when another did, doubled for a rummy; 0 at the turn limit).
* A round is **won** by the highest score of the round (shared equally on a
  tie).
* Rommy's **pile penalties** (a deeper card taken and not used that turn,
  50 points each): per round for each player and for each seat.
* Basic rummy's **rummies**: rounds a player won by a rummy (out in one
  turn, nothing laid before), a share of its rounds (``rummy_rate``), and
  of every round going out.

An illegal action (``IllegalActionError``) or a player's exception stops
that round, unscored, and is counted against the player; the run then fails.

``records`` (a path or a callable, ``benchmarks.arena.core.records``)
receives every round played as a recorded game (``laydown.records``), deal
by deal in order and each deal's rotations in order, whatever the number of
workers; a round stopped by an illegal action is left out.
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
from benchmarks.arena.core.rotations import mean, share
from benchmarks.arena.laydown.players import ENTRANTS, make_player
from benchmarks.arena.laydown.records import round_record
from benchmarks.arena.laydown.referee import (
    MAX_TURNS,
    Event,
    IllegalActionError,
    Kind,
    Player,
    RoundResult,
    Rummy500Round,
)
from benchmarks.arena.laydown.variants import BASIC, ROMMY, RUMMY500, Variant

GAME = RUMMY500.name
"""Rummy 500's name, also the name of its random streams."""
MAX_ACTIONS = 2 * MAX_TURNS + 2
"""A round never takes more actions than this (two a turn)."""


def deck_for(seed: int, deal: int, variant: Variant = RUMMY500,
             players: int | None = None) -> tuple[int, ...]:
    """The shuffled deck of deal ``deal`` (of Rummy 500 unless ``variant``
    says) for a table of ``players`` (None: one deck, ``Variant.deck``)."""
    cards = variant.deck if players is None else variant.cards_for(players)
    return rotations.deck_for(variant.name, cards, seed, deal)


def seed_for(seed: int, deal: int, rotation: int, seat: int, variant: Variant = RUMMY500) -> int:
    """A player's seed for one round."""
    return rotations.seed_for(variant.name, seed, deal, rotation, seat)


@dataclass(slots=True)
class RoundRecord:
    """One round of a deal: who sat where and what the referee said."""

    seats: tuple[str, ...]
    """The player in each seat."""
    result: RoundResult | None
    """None: stopped by an illegal action."""
    violation: tuple[int, str] | None = None
    """(seat, message) of an illegal action."""
    decision_ms: dict[str, list[float]] = field(default_factory=dict)
    deck: tuple[int, ...] = ()
    """The shuffled deck the round was dealt from."""
    events: tuple[Event, ...] = ()
    """The referee's public history of the round."""
    drawn: tuple[int, ...] = ()
    """The card of each stock draw, in order (referee-side)."""

    def points(self, seat: int) -> int:
        """The round points of ``seat`` (0 when the round was stopped)."""
        return 0 if self.result is None else self.result.points[seat]


def play_round(deck: Sequence[int], seats: Sequence[str], seeds: Sequence[int],
               players: Sequence[Player] | None = None,
               variant: Variant = RUMMY500) -> RoundRecord:
    """One round of ``variant`` (Rummy 500 unless told) from ``deck`` with the
    players ``seats`` (names) in seat order (``players``: those players
    themselves, else new ones made by name)."""
    game = Rummy500Round(deck, len(seats), variant=variant)
    players = ([make_player(name, variant.label) for name in seats] if players is None
               else list(players))
    for index, player in enumerate(players):
        player.start_deal(index, seeds[index])
    times: dict[str, list[float]] = {name: [] for name in seats}
    violation: tuple[int, str] | None = None
    drawn: list[int] = []
    for _ in range(MAX_ACTIONS):
        if game.over:
            break
        seat = game.to_act
        view = game.view(seat)
        started = time.perf_counter()
        try:
            action = players[seat].act(view)
        except Exception as error:  # a crashing player is reported, not fatal
            violation = (seat, f"{seats[seat]} raised {type(error).__name__} in the "
                               f"{view.phase} phase: {error}")
            break
        times[seats[seat]].append((time.perf_counter() - started) * 1000)
        held = Counter(game.hand_of(seat))
        try:
            game.apply(action)
        except IllegalActionError as error:
            violation = (seat, f"{seats[seat]}: {error}")
            break
        if action.kind == Kind.DRAW_STOCK:
            drawn += (Counter(game.hand_of(seat)) - held).elements()
    else:
        violation = (game.to_act, f"the round did not end in {MAX_ACTIONS} actions")
    return RoundRecord(tuple(seats), game.result if violation is None else None, violation,
                       times, game.deck, tuple(game.events), tuple(drawn))


@dataclass(slots=True)
class _Tally:
    """One player's figures over the rounds it finished."""

    rounds: int = 0
    wins: float = 0.0
    went_out: int = 0
    rummies: int = 0
    pile_takes: list[float] = field(default_factory=list)
    cards_taken: list[float] = field(default_factory=list)
    laid: list[float] = field(default_factory=list)
    in_hand: list[float] = field(default_factory=list)
    penalties: list[float] = field(default_factory=list)
    penalty_points: list[float] = field(default_factory=list)

    def add(self, result: RoundResult, seat: int) -> None:
        record = result.seats[seat]
        best = max(result.points)
        winners = sum(p == best for p in result.points)
        self.rounds += 1
        self.wins += (record.points == best) / winners
        self.went_out += record.went_out
        self.rummies += record.went_out and result.rummy
        self.pile_takes.append(record.pile_takes)
        self.cards_taken.append(record.cards_taken)
        self.laid.append(record.laid_points)
        self.in_hand.append(record.hand_points)
        self.penalties.append(record.pile_penalties)
        self.penalty_points.append(record.penalty_points)

    def penalty_figures(self) -> dict[str, Any]:
        """The pile penalties of a game that charges them."""
        return {"pile_penalties": int(sum(self.penalties)),
                "pile_penalties_per_round": mean(self.penalties),
                "pile_penalty_points_per_round": mean(self.penalty_points)}


def summarize(lineup: Sequence[str], deals: Sequence[Sequence[RoundRecord]],
              variant: Variant = RUMMY500) -> dict[str, Any]:
    """Per player: points per deal (interval over deals), round wins, going
    out, pile takes, illegal actions, decision times; pairwise differences
    per deal; the mean points of each seat whoever sits there; where the
    game charges pile penalties, those of each player and each seat; where
    the winner collects (basic rummy), each player's rummies."""
    common = rotations.sum_up(lineup, deals)
    tallies = {name: _Tally() for name in common.names}
    seat_penalties: list[list[float]] = [[] for _ in lineup]
    turns: list[float] = []
    for deal in deals:
        for game in deal:
            if game.result is not None:
                turns.append(game.result.turns)
                for seat, name in enumerate(game.seats):
                    tallies[name].add(game.result, seat)
                    seat_penalties[seat].append(game.result.seats[seat].pile_penalties)
    charges = variant.pile_penalty is not None
    collects = variant.scoring == "collect"
    players = {name: common.player(name, ENTRANTS[name].description, {
        "rounds": tally.rounds,
        "round_win_rate": share(tally.wins, tally.rounds),
        "going_out_rate": share(tally.went_out, tally.rounds),
        **({"rummies": tally.rummies, "rummy_rate": share(tally.rummies, tally.rounds)}
           if collects else {}),
        "pile_takes_per_round": mean(tally.pile_takes),
        "cards_taken_per_round": mean(tally.cards_taken),
        "laid_points_per_round": mean(tally.laid),
        "hand_points_per_round": mean(tally.in_hand),
        **(tally.penalty_figures() if charges else {}),
    }) for name, tally in tallies.items()}
    results = {**common.results(variant.name, "rounds", players), "turns_per_round": mean(turns),
               "illegal_actions": sum(common.illegal.values())}
    if charges:
        results["pile_penalty"] = variant.pile_penalty
        results["seat_pile_penalties_per_round"] = [mean(p) for p in seat_penalties]
    if collects:
        results["rummies"] = sum(tally.rummies for tally in tallies.values())
    return results


def run_arena(variant: Variant, lineup: Sequence[str], deals: int, *, seed: int = 0,
              workers: int = 1, progress: bool = True,
              max_seconds: float | None = None, records: Records = None) -> dict[str, Any]:
    """Play ``variant`` and sum up (see the module docstring and
    ``rotations.play_deals``); every round played as a recorded game to
    ``records``."""
    check_names(ENTRANTS, lineup, variant.label)
    players = len(lineup)
    variant.hand_size(players)  # ValueError when the game does not seat them
    started = time.monotonic()
    play = functools.partial(play_round, variant=variant)
    played = rotations.play_deals(variant.name, variant.cards_for(players), lineup, play, deals,
                                  seed=seed, workers=workers, progress=progress,
                                  max_seconds=max_seconds)
    results = summarize(lineup, played, variant)
    results.update(seed=seed, workers=workers, wall_s=time.monotonic() - started,
                   max_turns=MAX_TURNS, decks=variant.decks(players),
                   deck=variant.deck_label(players), house_rules=dict(variant.house_rules))
    if records is not None:
        results["records"] = write_records(records, (
            round_record(game, variant) for deal in played for game in deal
            if game.result is not None))
    return results


def run_rummy500_arena(lineup: Sequence[str], deals: int, *, seed: int = 0, workers: int = 1,
                       progress: bool = True, max_seconds: float | None = None,
                       records: Records = None) -> dict[str, Any]:
    """Play Rummy 500 and sum up (``run_arena``)."""
    return run_arena(RUMMY500, lineup, deals, seed=seed, workers=workers, progress=progress,
                     max_seconds=max_seconds, records=records)


def run_rommy_arena(lineup: Sequence[str], deals: int, *, seed: int = 0, workers: int = 1,
                    progress: bool = True, max_seconds: float | None = None,
                    records: Records = None) -> dict[str, Any]:
    """Play Rommy and sum up (``run_arena``)."""
    return run_arena(ROMMY, lineup, deals, seed=seed, workers=workers, progress=progress,
                     max_seconds=max_seconds, records=records)


def run_basic_arena(lineup: Sequence[str], deals: int, *, seed: int = 0, workers: int = 1,
                    progress: bool = True, max_seconds: float | None = None,
                    records: Records = None) -> dict[str, Any]:
    """Play basic rummy and sum up (``run_arena``)."""
    return run_arena(BASIC, lineup, deals, seed=seed, workers=workers, progress=progress,
                     max_seconds=max_seconds, records=records)
