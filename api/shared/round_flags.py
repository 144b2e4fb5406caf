"""``rummy-solver round``'s per-player flags: a shorter way to write ``--players JSON``.

``--player CARDS`` once per player (in order, ``""`` for none) with
``--went-out PLAYER``, ``--rummy``, ``--dropped PLAYER=first|middle``,
``--no-turn PLAYER``, ``--melded PLAYER=CARDS`` (repeatable) and
``--pile-penalties PLAYER=N`` build the same ``players`` list the request
body holds; the result is checked by the operation's model like any body.
The operation registry names this as ``score_round``'s command-line extra.
"""

from __future__ import annotations

import argparse
from typing import Any

from api.shared.errors import RequestRejected
from api.shared.options import whole_number

_FLAGS = ("went_out", "rummy", "dropped", "no_turn", "melded", "pile_penalties")

HELP = """\
Players come in order (player 0 first), either as --player CARDS (the cards
each still holds; "" for none) with the flags below, or as --players JSON: a
list of objects with keys hand, melded (list of card groups), laid_off (list
of {cards, onto}: cards laid off and the table meld they went onto), went_out,
dropped ("first"/"middle"), had_turn, rummy, pile_penalties."""


class RoundFlags:
    """The ``CliExtra`` of ``score_round``."""

    def add_arguments(self, parser: argparse.ArgumentParser) -> None:
        """Add ``--player`` and the per-player flags."""
        group = parser.add_argument_group("players one by one", HELP)
        group.add_argument("--player", nargs="+", action="append", metavar="CARD",
                           help="a player's remaining cards (repeat for each player)")
        group.add_argument("--went-out", metavar="PLAYER",
                           help="the player who went out / declared")
        group.add_argument("--rummy", action="store_true",
                           help="the player who went out went rummy (all cards down at once)")
        group.add_argument("--dropped", action="append", metavar="PLAYER=first|middle",
                           help="indian: a player who dropped (repeatable)")
        group.add_argument("--no-turn", action="append", metavar="PLAYER",
                           help="indian: a player who had no turn yet, pays half (repeatable)")
        group.add_argument("--melded", action="append", metavar="PLAYER=CARDS",
                           help='a group the player put down, e.g. 0="AS 2S 3S" (repeatable)')
        group.add_argument("--pile-penalties", action="append", metavar="PLAYER=N",
                           help="rommy: times the player took the pile without melding")

    def apply(self, args: argparse.Namespace, body: dict[str, Any]) -> None:
        """Build ``body["players"]`` from the flags (unless ``--players`` gave it)."""
        if "players" in body:
            if args.player or any(getattr(args, flag) for flag in _FLAGS):
                raise RequestRejected.one(
                    "conflicting_arguments", ["players"],
                    "give --players JSON alone, or --player with the per-player flags, not both")
            return
        if not args.player:
            raise RequestRejected.one(
                "missing_argument", ["player"], "give each player's remaining cards with "
                "--player (once per player, \"\" for none) or all of them with --players JSON")
        body["players"] = _players(args)


def _players(args: argparse.Namespace) -> list[dict[str, Any]]:
    count = len(args.player)
    players: list[dict[str, Any]] = [{"hand": " ".join(tokens)} for tokens in args.player]
    if args.went_out is not None:
        winner, _ = _player_option(args.went_out, "went_out", count)
        players[winner]["went_out"] = True
        players[winner]["rummy"] = args.rummy
    elif args.rummy:
        raise RequestRejected.one("missing_argument", ["rummy"], "--rummy needs --went-out PLAYER")
    for text in args.dropped or ():
        index, value = _player_option(text, "dropped", count)
        players[index]["dropped"] = value
    for text in args.no_turn or ():
        index, _ = _player_option(text, "no_turn", count)
        players[index]["had_turn"] = False
    for text in args.melded or ():
        index, value = _player_option(text, "melded", count)
        players[index].setdefault("melded", []).append(value.replace(",", " ").split())
    for text in args.pile_penalties or ():
        index, value = _player_option(text, "pile_penalties", count)
        players[index]["pile_penalties"] = whole_number(value, "pile_penalties")
    return players


def _player_option(text: str, option: str, count: int) -> tuple[int, str]:
    """``"1=first"`` -> ``(1, "first")`` for ``--option``, the index checked."""
    flag = f"--{option.replace('_', '-')}"
    index_text, sep, value = text.partition("=")
    if not sep and option in ("went_out", "no_turn"):
        index_text, value = text, ""
    elif not sep:
        raise RequestRejected.one("invalid_player_option", [option],
                                  f"{flag} takes PLAYER=VALUE (a player index, '=', a value); "
                                  f"got {text!r}")
    try:
        index = int(index_text)
    except ValueError:
        raise RequestRejected.one("invalid_player_option", [option],
                                  f"{flag}: the player index must be a whole number; "
                                  f"got {index_text!r}") from None
    if not 0 <= index < count:
        raise RequestRejected.one("invalid_player_option", [option],
                                  f"{flag}: player {index} does not exist ({count} --player "
                                  "given, numbered from 0)")
    return index, value


ROUND_FLAGS = RoundFlags()
