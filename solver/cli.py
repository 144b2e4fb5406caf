"""Command line of the solver: ``rummy-solver COMMAND ...`` (also ``python -m solver``).

Commands: ``solve``, ``validate``, ``knock``, ``score``, ``hint discard``,
``hint draw``, ``layoffs``, ``pile``, ``round``, ``serve`` and ``bulk``.
Each prints a readable report (cards as ``7♥``, a wild card as ``JK=8♥``)
or, with ``--json``, the library's wire form (what the REST API answers).

A hand is card tokens (``AS 2S 10H JK``) or one quoted string
(``"AS 2S 10H JK"``); options taking cards accept both as well.

Errors: bad input exits 2.  With ``--json`` every error, argument errors
included, is printed to stdout as ``{"error": {"type", "msg", "loc"}}``:
``type`` is the library's stable code (``invalid_card``, ``invalid_rules``
...) or the command line's own (``invalid_choice``, ``missing_argument``,
``empty_hand``, ``invalid_json`` ...), ``loc`` the input at fault as in the
REST API without its ``body`` prefix (``["hand", 3]``, ``["rules", "decks"]``,
``["table", 1, 0]``).  A failure that is not the input's fault exits 1.
"""

from __future__ import annotations

import argparse
import importlib
import json
import os
import re
import sys
from collections.abc import Callable, Sequence
from typing import Any, NoReturn, Protocol, TextIO, TypeAlias, TypeVar

from solver import cli_format
from solver.errors import SolverInputError
from solver.gin import gin_score, knock_check
from solver.hints import discard_hint, draw_hint, layoffs_hint, pile_hint
from solver.round_scoring import PlayerHand, score_round
from solver.rules import PRESETS
from solver.solve import ENGINES, solve
from solver.validate import validate
from solver.version import version_info

PROG = "rummy-solver"
VARIANTS: tuple[str, ...] = tuple(PRESETS)
LOG_LEVELS = ("critical", "error", "warning", "info", "debug", "trace")
"""``serve --log-level`` choices: a copy of ``api.logs.LOG_LEVELS`` (the library
never imports ``api``; a test checks the two agree)."""

EXIT_OK = 0
EXIT_FAILURE = 1
EXIT_BAD_INPUT = 2

Loc = list[str | int]
Commands: TypeAlias = "argparse._SubParsersAction[_Parser]"
"""What ``add_subparsers`` returns; its ``add_parser`` makes a command."""


# ---------------------------------------------------------------------------
# Errors


class CliError(ValueError):
    """Input the command line itself rejects (an empty hand, bad JSON ...)."""

    def __init__(self, code: str, message: str, loc: Sequence[str | int],
                 exit_code: int = EXIT_BAD_INPUT) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.loc: Loc = list(loc)
        self.exit_code = exit_code


class UsageError(Exception):
    """An argument error found by ``parser`` (argparse's ``error()``)."""

    def __init__(self, parser: argparse.ArgumentParser, message: str) -> None:
        super().__init__(message)
        self.parser = parser
        self.message = message


class _Parser(argparse.ArgumentParser):
    """An argument parser whose errors are raised, so ``main`` can print them
    as text or as JSON."""

    def error(self, message: str) -> NoReturn:
        raise UsageError(self, message)


_FIELD_PART = re.compile(r"([A-Za-z_]\w*)|\[(\d+)\]")


def field_loc(field: str) -> Loc:
    """``"players[1].melded[0]"`` -> ``["players", 1, "melded", 0]``."""
    loc: Loc = [name if name else int(index) for name, index in _FIELD_PART.findall(field)]
    return loc or [field]


def error_item(error: ValueError) -> dict[str, Any]:
    """``{"type", "msg", "loc"}`` for an input error (as the REST API's items,
    without the ``body`` prefix)."""
    if isinstance(error, SolverInputError):
        return {"type": error.code, "msg": error.message, "loc": list(error.loc)}
    if isinstance(error, CliError):
        return {"type": error.code, "msg": error.message, "loc": error.loc}
    return {"type": "invalid_request", "msg": str(error) or type(error).__name__, "loc": []}


_ARGUMENT = re.compile(r"argument (\S+?): (.*)", re.DOTALL)


def _option_loc(name: str) -> str:
    """``--wild-rank`` -> ``wild_rank``; ``--top/--discard-top`` -> ``discard_top`` (an
    option's last spelling is the library's field name)."""
    return name.split("/")[-1].lstrip("-").replace("-", "_")


def usage_item(message: str) -> dict[str, Any]:
    """``{"type", "msg", "loc"}`` for an argparse error message."""
    loc: Loc = []
    found = _ARGUMENT.match(message)
    if found:
        loc = [_option_loc(found.group(1))]
        detail = found.group(2)
        if detail.startswith("invalid choice"):
            kind = "invalid_choice"
        elif detail.startswith("expected"):
            kind = "missing_value"
        elif "not allowed with" in detail:
            kind = "conflicting_arguments"
        else:
            kind = "invalid_value"
    elif message.startswith("the following arguments are required:"):
        kind = "missing_argument"
        loc = [_option_loc(name) for name in message.split(":", 1)[1].replace(",", " ").split()]
    elif message.startswith("unrecognized arguments:"):
        kind = "unrecognized_arguments"
    else:
        kind = "usage_error"
    return {"type": kind, "msg": message, "loc": loc}


# ---------------------------------------------------------------------------
# Output


def write(text: str, stream: TextIO) -> None:
    """Print ``text``; suits as letters where the stream cannot show symbols."""
    encoding = getattr(stream, "encoding", None) or "utf-8"
    try:
        text.encode(encoding)
    except (UnicodeEncodeError, LookupError):
        text = text.translate(cli_format.ASCII_SUITS).encode("ascii", "replace").decode("ascii")
    print(text, file=stream)


def _print_json(value: object) -> None:
    write(json.dumps(value, indent=2), sys.stdout)


class _Result(Protocol):
    def to_dict(self) -> dict[str, Any]: ...


R = TypeVar("R", bound=_Result)


def _emit(args: argparse.Namespace, result: R, render: Callable[[R], str]) -> int:
    """Print ``result`` as JSON (``--json``) or as ``render`` writes it."""
    if args.json:
        _print_json(result.to_dict())
    else:
        write(render(result), sys.stdout)
    return EXIT_OK


def _report_error(item: dict[str, Any], as_json: bool, exit_code: int) -> int:
    if as_json:
        _print_json({"error": item})
    else:
        where = "".join(f"[{part}]" if isinstance(part, int) else f".{part}" for part in item["loc"])
        where = f" at {where.lstrip('.')}" if where else ""
        write(f"{PROG}: error: {item['msg']} ({item['type']}{where})", sys.stderr)
    return exit_code


# ---------------------------------------------------------------------------
# Input helpers


def cards_text(tokens: Sequence[str] | None) -> str:
    """Tokens or quoted strings of cards as one space-separated string."""
    return " ".join(tokens or ())


def _hand(args: argparse.Namespace, attribute: str = "hand", field: str = "hand") -> str:
    """The cards of ``attribute`` as one string (a ``CliError`` at ``field`` when none)."""
    text = cards_text(getattr(args, attribute))
    if not text.replace(",", " ").split():
        option = "" if attribute == "hand" else f" --{attribute.replace('_', '-')}"
        raise CliError("empty_hand", f"no cards given for{option or ' the hand'}: pass card tokens "
                       "(AS 2S 3S) or one quoted string (\"AS 2S 3S\")", field_loc(field))
    return text


def parse_json_option(text: str | None, option: str) -> Any:
    """The value of a JSON option (``None`` when not given)."""
    if text is None:
        return None
    try:
        return json.loads(text)
    except json.JSONDecodeError as error:
        raise CliError("invalid_json", f"--{option.replace('_', '-')} is not valid JSON: {error}",
                       [option]) from None


def _rules(args: argparse.Namespace) -> Any:
    return parse_json_option(args.rules, "rules")


def whole_number(low: int, high: int | None = None) -> Callable[[str], int]:
    """An argparse ``type``: an integer from ``low`` (to ``high``)."""
    def parse(text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"must be a whole number; got {text!r}") from None
        if value < low or (high is not None and value > high):
            bound = f"from {low} to {high}" if high is not None else f"at least {low}"
            raise argparse.ArgumentTypeError(f"must be {bound}; got {value}")
        return value
    return parse


# ---------------------------------------------------------------------------
# Commands


def _solve(args: argparse.Namespace) -> int:
    """``solve HAND``: the optimal arrangement."""
    if args.engine == "cpsat":
        # Load OR-Tools before the clock starts: a cold CP-SAT that cannot load in the
        # time left is skipped by solve(), and every CLI run is cold.
        importlib.import_module("solver.engines.cpsat")
    solution = solve(_hand(args), args.variant, wild_rank=args.wild_rank, discard=args.discard,
                     rules=_rules(args), engine=args.engine, time_limit_ms=args.time_limit_ms)
    return _emit(args, solution, cli_format.format_solution)


def _validate(args: argparse.Namespace) -> int:
    """``validate --meld ... --deadwood ...``: every problem of a declared arrangement."""
    melds = [cards_text(meld) for meld in args.meld or ()]
    deadwood = cards_text(args.deadwood)
    if not melds and not deadwood.split():
        raise CliError("empty_hand", "nothing to validate: give --meld \"AS 2S 3S\" (once per meld) "
                       "and/or --deadwood \"KD QH\"", ["melds"])
    hand = None if args.hand is None else _hand(args)
    report = validate(melds, deadwood, args.variant, wild_rank=args.wild_rank, rules=_rules(args),
                      hand=hand)
    return _emit(args, report, cli_format.format_validation)


def _knock(args: argparse.Namespace) -> int:
    """``knock HAND``: gin knock eligibility, every knocking discard."""
    report = knock_check(_hand(args), rules=_rules(args), knock_limit=args.knock_limit,
                         upcard=args.upcard, time_limit_ms=args.time_limit_ms)
    return _emit(args, report, cli_format.format_knock)


def _score(args: argparse.Namespace) -> int:
    """``score --knocker ... --defender ...``: a gin knock scored."""
    score = gin_score(_hand(args, "knocker", "knocker"), _hand(args, "defender", "defender"),
                      rules=_rules(args), knock_limit=args.knock_limit, upcard=args.upcard,
                      time_limit_ms=args.time_limit_ms)
    return _emit(args, score, cli_format.format_gin_score)


def _hint_discard(args: argparse.Namespace) -> int:
    """``hint discard HAND``: every discard ranked."""
    hint = discard_hint(_hand(args), args.variant, wild_rank=args.wild_rank, rules=_rules(args),
                        time_limit_ms=args.time_limit_ms)
    return _emit(args, hint, cli_format.format_discard_hint)


def _hint_draw(args: argparse.Namespace) -> int:
    """``hint draw HAND --top CARD``: take the pile top or draw blind."""
    seen = None if args.seen is None else cards_text(args.seen)
    hint = draw_hint(_hand(args), args.top, args.variant, seen=seen, wild_rank=args.wild_rank,
                     rules=_rules(args), time_limit_ms=args.time_limit_ms)
    return _emit(args, hint, cli_format.format_draw_hint)


def _tables(args: argparse.Namespace) -> list[str]:
    return [cards_text(meld) for meld in args.table or ()]


def _layoffs(args: argparse.Namespace) -> int:
    """``layoffs HAND --table ...``: fits onto the table and the best play."""
    hint = layoffs_hint(_hand(args), _tables(args), args.variant, wild_rank=args.wild_rank,
                        rules=_rules(args), time_limit_ms=args.time_limit_ms)
    return _emit(args, hint, cli_format.format_layoffs)


def _pile(args: argparse.Namespace) -> int:
    """``pile HAND --pile ...``: each depth of the discard pile."""
    hint = pile_hint(_hand(args), _tables(args), _hand(args, "pile", "discard_pile"), args.variant,
                     wild_rank=args.wild_rank, rules=_rules(args), time_limit_ms=args.time_limit_ms)
    return _emit(args, hint, cli_format.format_pile)


def _round(args: argparse.Namespace) -> int:
    """``round --player ... | --players JSON``: points of every player."""
    players = players_from_args(args)
    score = score_round(players, args.variant, wild_rank=args.wild_rank, rules=_rules(args),
                        time_limit_ms=args.time_limit_ms)
    return _emit(args, score, cli_format.format_round)


def _serve(args: argparse.Namespace) -> int:
    """``serve``: the REST API (``api.serve``)."""
    # Imported here so the library never needs the web stack.
    from api.serve import serve

    return serve(args.host, args.port, args.workers, args.log_level)


# ---------------------------------------------------------------------------
# round: players from flags or JSON


_PLAYER_KEYS = {"hand": (str, list), "melded": (list,), "went_out": (bool,), "dropped": (str,),
                "had_turn": (bool,), "rummy": (bool,), "pile_penalties": (int,)}


def players_from_json(text: str) -> list[PlayerHand]:
    """``--players '[{"hand": "...", "went_out": true}, ...]'`` as ``PlayerHand``s."""
    value = parse_json_option(text, "players")
    if not isinstance(value, list):
        raise CliError("invalid_players", "--players must be a JSON list of player objects",
                       ["players"])
    players = []
    for index, entry in enumerate(value):
        if not isinstance(entry, dict):
            raise CliError("invalid_players", f"players[{index}] must be an object with keys "
                           f"{', '.join(_PLAYER_KEYS)}", ["players", index])
        for key, item in entry.items():
            if key not in _PLAYER_KEYS:
                raise CliError("invalid_players", f"players[{index}]: unknown key {key!r}; use "
                               f"{', '.join(_PLAYER_KEYS)}", ["players", index, key])
            kinds = _PLAYER_KEYS[key]
            if not isinstance(item, kinds) or (bool not in kinds and isinstance(item, bool)):
                names = " or ".join({"str": "a string", "list": "a list", "bool": "true/false",
                                     "int": "an integer"}[kind.__name__] for kind in kinds)
                raise CliError("invalid_players", f"players[{index}].{key} must be {names}",
                               ["players", index, key])
        players.append(PlayerHand(**entry))
    return players


def _player_option(text: str, option: str, count: int) -> tuple[int, str]:
    """``"1=first"`` -> ``(1, "first")`` for ``--option``, the index checked."""
    index_text, sep, value = text.partition("=")
    if not sep and option in ("went_out", "no_turn"):
        index_text, value = text, ""
    elif not sep:
        raise CliError("invalid_player_option", f"--{option.replace('_', '-')} takes PLAYER=VALUE "
                       f"(a player index, '=', a value); got {text!r}", [option])
    try:
        index = int(index_text)
    except ValueError:
        raise CliError("invalid_player_option", f"--{option.replace('_', '-')}: the player index "
                       f"must be a whole number; got {index_text!r}", [option]) from None
    if not 0 <= index < count:
        raise CliError("invalid_player_option", f"--{option.replace('_', '-')}: player {index} "
                       f"does not exist ({count} --player given, numbered from 0)", [option])
    return index, value


def players_from_args(args: argparse.Namespace) -> list[PlayerHand]:
    """The players of ``round``: ``--players JSON`` or ``--player`` with the
    per-player flags."""
    flags = ("went_out", "rummy", "dropped", "no_turn", "melded", "pile_penalties")
    if args.players is not None:
        if args.player or any(getattr(args, flag) for flag in flags):
            raise CliError("conflicting_arguments", "give --players JSON alone, or --player with "
                           "the per-player flags, not both", ["players"])
        return players_from_json(args.players)
    if not args.player:
        raise CliError("missing_argument", "give each player's remaining cards with --player "
                       "(once per player, \"\" for none) or all of them with --players JSON",
                       ["player"])
    count = len(args.player)
    fields: list[dict[str, Any]] = [{"hand": cards_text(tokens)} for tokens in args.player]
    if args.went_out is not None:
        winner, _ = _player_option(args.went_out, "went_out", count)
        fields[winner]["went_out"] = True
        fields[winner]["rummy"] = args.rummy
    elif args.rummy:
        raise CliError("missing_argument", "--rummy needs --went-out PLAYER", ["rummy"])
    for text in args.dropped or ():
        index, value = _player_option(text, "dropped", count)
        fields[index]["dropped"] = value
    for text in args.no_turn or ():
        index, _ = _player_option(text, "no_turn", count)
        fields[index]["had_turn"] = False
    for text in args.melded or ():
        index, value = _player_option(text, "melded", count)
        fields[index].setdefault("melded", []).append(value)
    for text in args.pile_penalties or ():
        index, value = _player_option(text, "pile_penalties", count)
        if not value.isdigit():
            raise CliError("invalid_player_option", f"--pile-penalties: the count must be a whole "
                           f"number; got {value!r}", ["pile_penalties"])
        fields[index]["pile_penalties"] = int(value)
    return [PlayerHand(**entry) for entry in fields]


# ---------------------------------------------------------------------------
# The parser


_EPILOG = """\
examples:
  rummy-solver solve --variant gin "AS 2S 3S 7H 7D 7C KD QH 4C 9S"
  rummy-solver solve --variant indian13 --wild-rank 9 AH 2H 3H 4S 5S 9D 7S KC KD KS 5D 6D 7D
  rummy-solver validate --variant gin --meld "AS 2S 3S" --meld "7H 7D 7C" --deadwood "KD QH 4C 9S"
  rummy-solver knock "2S 5S 6S 2C 4C 5C 6C 3D 4D 5D 6D" --upcard 4D
  rummy-solver score --knocker "5H 4H 4D 3H 6H 3C 4C 6C 2C 5C" --defender "6D 3S 7S TD 9D 4S 9H 8D 7H TS"
  rummy-solver hint discard "AS 2S 3S 7H 7D 7C 8C 9C TC KH QD"
  rummy-solver hint draw "AS 2S 3S 7H 7D 7C KD QH 4C 9S" --top 4S --seen 9H
  rummy-solver layoffs --variant rummy500 "8H 9H 4H JK 8C QC 2D" --table "5H 6H 7H" --table "7S 7D 7C"
  rummy-solver pile "8H 9H 4H 2D 8C" --table "5H 6H 7H" --pile "KS 3C 8D 8S QD"
  rummy-solver round --variant basic --player "" --player "KD QH 4C" --went-out 0
  rummy-solver serve --port 8000 --workers 2

Cards: rank A 2-9 T (or 10) J Q K then suit S H D C (or ♠ ♥ ♦ ♣), JK for a joker.
Add --json to any command for JSON; errors then come as {"error": {"type", "msg", "loc"}}.
Exit codes: 0 done, 1 failure (not the input's fault), 2 bad input.
"""


def _command(commands: Commands, name: str, help_text: str, description: str | None = None,
             epilog: str | None = None) -> argparse.ArgumentParser:
    parser = commands.add_parser(
        name, help=help_text, description=description or help_text, epilog=epilog,
        allow_abbrev=False, formatter_class=argparse.RawDescriptionHelpFormatter)
    return parser


def _add_json(parser: argparse.ArgumentParser) -> None:
    # SUPPRESS: a --json given before the command is not overwritten by a default here.
    parser.add_argument("--json", action="store_true", default=argparse.SUPPRESS,
                        help="print JSON (errors too, as {\"error\": {...}})")


def _add_hand(parser: argparse.ArgumentParser, what: str = "the hand") -> None:
    parser.add_argument("hand", nargs="*", metavar="CARD",
                        help=f"{what}: card tokens (AS 10H JK) or one quoted string")


def _add_game(parser: argparse.ArgumentParser, variant: str | None = "gin",
              wild: bool = True) -> None:
    """The options every solving command shares."""
    if variant is not None:
        parser.add_argument("--variant", default=variant, choices=VARIANTS,
                            help=f"rules preset (default {variant})")
    if wild:
        parser.add_argument("--wild-rank", metavar="CARD",
                            help="the cut card: a rank (7), a card (7H, needed by indian21) or JK")
    parser.add_argument("--rules", metavar="JSON",
                        help='knob overrides as a JSON object, e.g. \'{"knock_limit": 5}\'')
    parser.add_argument("--time-limit-ms", type=int, metavar="MS",
                        help="stop after MS milliseconds with the best answer found")
    _add_json(parser)


def _add_cards_option(parser: argparse.ArgumentParser, *flags: str, help_text: str,
                      many: bool = False, required: bool = False) -> None:
    """``--flag CARDS``: tokens or one quoted string; ``many``: repeat for several groups."""
    parser.add_argument(*flags, nargs="+", action="append" if many else "extend", metavar="CARD",
                        required=required, help=help_text)


def _add_table(parser: argparse.ArgumentParser) -> None:
    _add_cards_option(parser, "--table", many=True,
                      help_text="one table meld, cards in meld order (repeat for each meld)")


def _add_knock_limit(parser: argparse.ArgumentParser) -> None:
    limit = parser.add_mutually_exclusive_group()
    limit.add_argument("--knock-limit", type=int, metavar="N",
                       help="knock with deadwood <= N (default: the knob knock_limit, 10)")
    limit.add_argument("--upcard", metavar="CARD",
                       help="Oklahoma: the first upcard sets the limit (its value; an ace: gin only)")


def _add_solve(commands: Commands) -> None:
    parser = _command(commands, "solve", "the optimal melds of one hand")
    _add_hand(parser)
    parser.add_argument("--discard", action="store_true",
                        help="the hand holds one card more than is kept: choose the discard too")
    parser.add_argument("--engine", default="auto", choices=ENGINES,
                        help="auto (search, CP-SAT past its budget), search or cpsat")
    _add_game(parser)
    parser.set_defaults(handler=_solve)


def _add_validate(commands: Commands) -> None:
    parser = _command(commands, "validate", "check a declared arrangement and score it")
    _add_cards_option(parser, "--meld", help_text="one declared meld (repeat for each meld)", many=True)
    _add_cards_option(parser, "--deadwood", help_text="the cards left unmelded")
    _add_cards_option(parser, "--hand", help_text="optional: the whole kept hand, which melds + deadwood "
                      "must match")
    _add_game(parser)
    parser.set_defaults(handler=_validate)


def _add_knock(commands: Commands) -> None:
    parser = _command(commands, "knock", "gin: may this hand knock? (10 cards, or 11: every discard)")
    _add_hand(parser)
    _add_knock_limit(parser)
    _add_game(parser, variant=None, wild=False)
    parser.set_defaults(handler=_knock)


def _add_score(commands: Commands) -> None:
    parser = _command(commands, "score", "gin: score a knock (the defender lays off optimally)")
    _add_cards_option(parser, "--knocker", help_text="the knocker's hand (10 or 11 cards)", required=True)
    _add_cards_option(parser, "--defender", help_text="the defender's 10 cards", required=True)
    _add_knock_limit(parser)
    _add_game(parser, variant=None, wild=False)
    parser.set_defaults(handler=_score)


def _add_hint(commands: Commands) -> None:
    parser = _command(commands, "hint", "what to discard, or whether to take the discard")
    _add_json(parser)
    kinds = parser.add_subparsers(dest="hint", metavar="{discard,draw}", parser_class=_Parser)
    parser.set_defaults(handler=_choose(parser, "choose a hint: discard or draw"))
    discard = _command(kinds, "discard", "rank every discard of a hand holding one card too many")
    _add_hand(discard)
    _add_game(discard)
    discard.set_defaults(handler=_hint_discard)
    draw = _command(kinds, "draw", "take the discard-pile top or draw blind (exact expectation)")
    _add_hand(draw)
    draw.add_argument("--top", "--discard-top", required=True, metavar="CARD",
                      help="the discard-pile top card")
    _add_cards_option(draw, "--seen", help_text="other cards known not to be in the stock")
    _add_game(draw)
    draw.set_defaults(handler=_hint_draw)


def _add_layoffs(commands: Commands) -> None:
    parser = _command(commands, "layoffs", "which cards extend the table melds, and the best play")
    _add_hand(parser)
    _add_table(parser)
    _add_game(parser)
    parser.set_defaults(handler=_layoffs)


def _add_pile(commands: Commands) -> None:
    parser = _command(commands, "pile", "rummy500/rommy: what taking the discard pile to each "
                      "depth is worth")
    _add_hand(parser)
    _add_cards_option(parser, "--pile", "--discard-pile", help_text="the discard pile, bottom to top",
                      required=True)
    _add_table(parser)
    _add_game(parser, variant="rummy500")
    parser.set_defaults(handler=_pile)


_ROUND_HELP = """\
Players come in order (player 0 first), either as --player CARDS (the cards
each still holds; "" for none) with the flags below, or as
--players JSON: a list of objects with keys hand, melded (list of card
groups), went_out, dropped ("first"/"middle"), had_turn, rummy, pile_penalties.

  rummy-solver round --variant basic --player "" --player "KD QH 4C" --went-out 0
  rummy-solver round --variant indian13 --wild-rank 7 \\
      --player "3H 4H 5H 9C JK JC QS QD 7S 4D 5D 6D 7D 2C" \\
      --player "2S 4S 6S 8S TS QS 2H 4H 6H 8H TH QH KD" --player "" \\
      --went-out 0 --dropped 2=first
  rummy-solver round --variant rummy500 --players '[{"hand": "", "melded": ["AS 2S 3S"],
      "went_out": true}, {"hand": "KD QH", "melded": ["7H 7D 7C"]}]'
"""


def _add_round(commands: Commands) -> None:
    parser = _command(commands, "round", "points of a finished round for every player",
                      description=_ROUND_HELP)
    parser.add_argument("--variant", required=True, choices=VARIANTS,
                        help="rules preset (gin is scored knock by knock: use score)")
    _add_cards_option(parser, "--player", help_text="a player's remaining cards (repeat for each player)",
                      many=True)
    parser.add_argument("--went-out", metavar="PLAYER", help="the player who went out / declared")
    parser.add_argument("--rummy", action="store_true",
                        help="the player who went out went rummy (all cards down at once)")
    parser.add_argument("--dropped", action="append", metavar="PLAYER=first|middle",
                        help="indian: a player who dropped (repeatable)")
    parser.add_argument("--no-turn", action="append", metavar="PLAYER",
                        help="indian: a player who had no turn yet, pays half (repeatable)")
    parser.add_argument("--melded", action="append", metavar="PLAYER=CARDS",
                        help='a group the player put down, e.g. 0="AS 2S 3S" (repeatable)')
    parser.add_argument("--pile-penalties", action="append", metavar="PLAYER=N",
                        help="rommy: times the player took the pile without melding")
    parser.add_argument("--players", metavar="JSON", help="all players as JSON (see above)")
    _add_game(parser, variant=None)
    parser.set_defaults(handler=_round)


def _add_serve(commands: Commands) -> None:
    parser = _command(commands, "serve", "start the REST API (uvicorn)")
    parser.add_argument("--host", default="127.0.0.1", help="address to listen on (127.0.0.1)")
    parser.add_argument("--port", type=whole_number(0, 65535), default=8000, help="TCP port, 0-65535 (8000)")
    from api.resources import available_cpus  # the container's CPU quota, not the node's cores

    parser.add_argument("--workers", type=whole_number(1), default=available_cpus(),
                        help="worker processes, at least 1 (default: one per CPU this container may use)")
    parser.add_argument("--log-level", default="info", choices=LOG_LEVELS, help="(info)")
    _add_json(parser)
    parser.set_defaults(handler=_serve)


def _add_bulk(commands: Commands) -> None:
    """``bulk`` from ``solver.bulk_cli`` when that module is there."""
    try:
        bulk_cli = importlib.import_module("solver.bulk_cli")
    except ImportError as error:
        parser = _command(commands, "bulk", "solve many hands (not available in this build)")
        parser.add_argument("rest", nargs=argparse.REMAINDER, help=argparse.SUPPRESS)
        parser.set_defaults(handler=_unavailable(f"bulk is not available ({error})"))
        return
    parser = _command(commands, "bulk", "answer a game log of JSON lines (see bulk --help)",
                      description=(bulk_cli.__doc__ or "").strip() or None)
    bulk_cli.add_arguments(parser)
    parser.set_defaults(handler=_bulk_runner(bulk_cli.run))


def _bulk_runner(run: Callable[[argparse.Namespace], int]) -> Callable[[argparse.Namespace], int]:
    def handler(args: argparse.Namespace) -> int:
        code: int = run(args)
        return code
    return handler


def _unavailable(message: str) -> Callable[[argparse.Namespace], int]:
    def handler(args: argparse.Namespace) -> int:
        raise CliError("not_available", message, ["command"], exit_code=EXIT_FAILURE)
    return handler


def _choose(parser: argparse.ArgumentParser, message: str) -> Callable[[argparse.Namespace], int]:
    def handler(args: argparse.Namespace) -> int:
        parser.error(message)
    return handler


def build_parser() -> argparse.ArgumentParser:
    """The argument parser (exposed for tests)."""
    parser = _Parser(prog=PROG, description="Exact rummy hand solver: every answer is provably "
                     "optimal (or says it is not).",
                     epilog=_EPILOG, allow_abbrev=False,
                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--version", action="store_true",
                        help="print the package, OR-Tools and Python versions")
    parser.add_argument("--json", action="store_true", help="print JSON (also after the command)")
    commands = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)
    for add in (_add_solve, _add_validate, _add_knock, _add_score, _add_hint, _add_layoffs,
                _add_pile, _add_round, _add_serve, _add_bulk):
        add(commands)
    return parser


# ---------------------------------------------------------------------------
# Entry point


def version_text() -> str:
    """``rummy-solver 0.2.0 (OR-Tools 9.15.6755, Python 3.11.7)``."""
    info = version_info()
    return f"{info['package']} {info['version']} (OR-Tools {info['ortools']}, Python {info['python']})"


def wants_json(argv: Sequence[str]) -> bool:
    """Whether ``--json`` is among the options (before any ``--``)."""
    for token in argv:
        if token == "--":
            return False
        if token == "--json":
            return True
    return False


def _run(parser: argparse.ArgumentParser, args: argparse.Namespace) -> int:
    if args.version:
        if args.json:
            _print_json(version_info())
        else:
            write(version_text(), sys.stdout)
        return EXIT_OK
    if args.command is None:
        parser.error("choose a command: solve, validate, knock, score, hint, layoffs, pile, "
                     "round, serve or bulk (see --help)")
    handler: Callable[[argparse.Namespace], int] = args.handler
    return handler(args)


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of the ``rummy-solver`` console script; returns the exit code."""
    arguments = list(sys.argv[1:] if argv is None else argv)
    as_json = wants_json(arguments)
    parser = build_parser()
    try:
        return _run(parser, parser.parse_args(arguments))
    except UsageError as error:
        if as_json:
            return _report_error(usage_item(error.message), True, EXIT_BAD_INPUT)
        error.parser.print_usage(sys.stderr)
        write(f"{error.parser.prog}: error: {error.message}", sys.stderr)
        return EXIT_BAD_INPUT
    except SolverInputError as error:
        return _report_error(error_item(error), as_json, EXIT_BAD_INPUT)
    except CliError as error:
        return _report_error(error_item(error), as_json, error.exit_code)
    except BrokenPipeError:
        # The reader went away (``rummy-solver ... | head``): stop quietly.
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        return EXIT_FAILURE
    except Exception as error:
        if not as_json:
            raise
        # Programs reading --json get an answer they can parse even when the solver fails.
        item = {"type": "internal_error", "msg": f"{type(error).__name__}: {error}", "loc": []}
        return _report_error(item, True, EXIT_FAILURE)


if __name__ == "__main__":
    sys.exit(main())
