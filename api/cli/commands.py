"""``rummy-solver COMMAND ...`` (also ``python -m api``): the operations of
``api.shared.operations`` on the command line, plus ``serve`` and ``bulk``.

Each operation with a ``CliCommand`` becomes a command whose options are made
from its request model's fields (``--wild-rank``, ``--time-limit-ms``,
``--rules JSON`` ...; cards as tokens or one quoted string).  The options are
collected into the request body the endpoint would get and checked by the
same ``Operation.parse``, so a bad value gives the error the REST API gives
(``loc`` without its ``body`` prefix).  The answer is printed as a readable
report (cards as ``7♥``, a wild card as ``JK=8♥``) or, with ``--json``, as the
endpoint's wire form.

Errors: bad input exits 2, each error the REST API would list printed (a
request with several faults has several).  With ``--json`` every error,
argument errors included, is printed as ``{"error": {"type", "loc", "msg"},
"errors": [every item, the first being "error"]}``: to stdout, but for
``bulk``, whose stdout carries the answers (stderr, one line); ``type`` is
the service's stable code or, for the command line's own
argument errors, ``invalid_choice``, ``missing_value``,
``unrecognized_arguments``, ``conflicting_arguments``, ``missing_argument``
or ``usage_error``.  A failure that is not the input's fault exits 1;
Ctrl-C exits 130 (``interrupted`` on stderr).
"""

from __future__ import annotations

import argparse
import functools
import importlib
import json
import os
import re
import sys
from collections.abc import Callable, Sequence
from typing import Any, NoReturn, TextIO

from pydantic import BaseModel

from api.pool.resources import PROCESSES_PER_CPU, available_cpus, max_processes
from api.shared import reports as report
from api.shared.decode import decode_field
from api.shared.errors import ErrorItem, RequestRejected, command_line_error, item
from api.shared.exit_codes import EXIT_BAD_INPUT, EXIT_FAILURE, EXIT_INTERRUPTED, EXIT_OK
from api.shared.logs import LOG_LEVELS
from api.shared.operations import OPERATIONS, Operation
from api.shared.options import whole, whole_number
from api.shared.settings import Settings, SettingsError, current
from solver.deadline import Deadline
from solver.version import version_info

PROG = "rummy-solver"


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


Commands = Any
"""What ``add_subparsers`` returns (argparse keeps its type private)."""

_ARGUMENT = re.compile(r"argument (\S+?): (.*)", re.DOTALL)


def _option_field(name: str) -> str:
    """``--wild-rank`` -> ``wild_rank``; ``--top/--discard-top`` -> ``discard_top``."""
    return name.split("/")[-1].lstrip("-").replace("-", "_")


def usage_item(message: str) -> ErrorItem:
    """The error item of an argparse error message."""
    found = _ARGUMENT.match(message)
    if found:
        detail = found.group(2)
        if detail.startswith("invalid choice"):
            kind = "invalid_choice"
        elif detail.startswith("expected"):
            kind = "missing_value"
        elif "not allowed with" in detail:
            kind = "conflicting_arguments"
        else:
            kind = "invalid_value"
        return item(kind, [_option_field(found.group(1))], message)
    if message.startswith("the following arguments are required:"):
        names = message.split(":", 1)[1].replace(",", " ").split()
        return item("missing_argument", [_option_field(name) for name in names], message)
    if message.startswith("unrecognized arguments:"):
        return item("unrecognized_arguments", [], message)
    return item("usage_error", [], message)


# ---------------------------------------------------------------------------
# Output


def write(text: str, stream: TextIO) -> None:
    """Print ``text``; suits as letters where the stream cannot show symbols."""
    encoding = getattr(stream, "encoding", None) or "utf-8"
    try:
        text.encode(encoding)
    except (UnicodeEncodeError, LookupError):
        text = text.translate(report.ASCII_SUITS).encode("ascii", "replace").decode("ascii")
    print(text, file=stream)


def _print_json(value: object) -> None:
    write(json.dumps(value, indent=2, ensure_ascii=False), sys.stdout)


def _report_error(errors: Sequence[ErrorItem], as_json: bool, exit_code: int,
                  command: str | None = None) -> int:
    """Print ``errors`` (every item HTTP would list: ``RequestRejected.prefixed(())``)."""
    if as_json and command == "bulk":
        # bulk's stdout carries its answers: its errors go to stderr, one line,
        # argument errors as the errors that end its run.
        from api.bulk.command import stop

        stop(argparse.Namespace(json=True), errors)
        return exit_code
    if as_json:
        _print_json(command_line_error(errors))
        return exit_code
    for error in errors:
        where = "".join(f"[{part}]" if isinstance(part, int) else f".{part}"
                        for part in error["loc"])
        where = f" at {where.lstrip('.')}" if where else ""
        write(f"{PROG}: error: {error['msg']} ({error['type']}{where})", sys.stderr)
    return exit_code


# ---------------------------------------------------------------------------
# Options from a request model


def field_kind(schema: dict[str, Any], definitions: dict[str, Any]) -> str:
    """How a request field is given on the command line, from its JSON schema:
    ``cards`` (tokens or one quoted string), ``groups`` (an option repeated,
    one group of cards each), ``flag``, ``integer``, ``text`` (a string or a
    choice) or ``json``."""
    branches = []
    for branch in schema.get("anyOf", [schema]):
        if "$ref" in branch:
            branch = definitions.get(branch["$ref"].rsplit("/", 1)[-1], {})
        if branch.get("type") != "null":
            branches.append(branch)
    types = {"string" if "enum" in b else b.get("type") for b in branches}
    if "array" in types:
        array = next(b for b in branches if b.get("type") == "array")
        inner = array.get("items", {})
        if inner.get("type") == "array":
            return "groups"
        return "cards" if inner.get("type") == "string" else "json"
    if types == {"boolean"} and schema.get("default") is False:
        return "flag"
    if types == {"integer"}:
        return "integer"
    if types == {"string"}:
        return "text"
    return "json"


LIST_METAVARS = {"players": "ID"}
"""A list of words that is not of cards (a recorded game's player ids)."""


def first_clause(description: str) -> str:
    """A field's description up to its first ``;`` outside brackets: an
    option's help line.

    >>> first_clause("the dealer's seat (default: the last seat; 0 first); a seat number")
    "the dealer's seat (default: the last seat; 0 first)"
    """
    depth = 0
    for index, char in enumerate(description):
        depth += (char in "([") - (char in ")]")
        if char == ";" and depth <= 0:
            return description[:index]
    return description


@functools.cache
def _request_schema(request: type[BaseModel]) -> dict[str, Any]:
    """The JSON schema of a request model, made once a process (pydantic
    takes about 0.1 s a model; read, never changed)."""
    return request.model_json_schema()


def _add_fields(parser: argparse.ArgumentParser, operation: Operation) -> None:
    """An option (or the positional cards) per field of the operation's request."""
    assert operation.cli is not None
    schema = _request_schema(operation.request)
    definitions = schema.get("$defs", {})
    kinds = {name: field_kind(properties, definitions)
             for name, properties in schema["properties"].items()}
    for name, properties in schema["properties"].items():
        kind = kinds[name]
        help_text = first_clause(properties.get("description") or "")
        default = operation.cli.defaults.get(name)
        if default is not None:
            help_text = f"{help_text} (default {default})".strip()
        if name == operation.cli.positional:
            parser.add_argument(name, nargs="*", metavar="CARD",
                                help=f"{help_text or 'the hand'}: card tokens (AS 10H JK) or one "
                                     "quoted string")
            continue
        flags = operation.cli.options.get(name, (f"--{name.replace('_', '-')}",))
        common: dict[str, Any] = {"dest": name, "help": help_text, "default": None}
        if kind == "flag":
            parser.add_argument(*flags, action="store_true", **{**common, "default": False})
        elif kind == "cards":
            parser.add_argument(*flags, nargs="+", action="extend",
                                metavar=LIST_METAVARS.get(name, "CARD"), **common)
        elif kind == "groups":
            parser.add_argument(*flags, nargs="+", action="append", metavar="CARD", **common)
        elif kind == "json":
            parser.add_argument(*flags, metavar="JSON", **common)
        else:
            parser.add_argument(*flags, metavar=name.upper() if kind == "text" else "N", **common)
    parser.set_defaults(operation=operation.name, kinds=kinds)


def _tokens(parts: Sequence[str]) -> list[str]:
    return " ".join(parts).replace(",", " ").split()


def request_body(args: argparse.Namespace, operation: Operation) -> dict[str, Any]:
    """The request body the options describe (what the endpoint would get)."""
    assert operation.cli is not None
    body: dict[str, Any] = {}
    kinds: dict[str, str] = args.kinds
    for name, kind in kinds.items():
        value = getattr(args, name, None)
        if value is None or value is False or (name == operation.cli.positional and not value):
            continue
        if kind == "cards":
            body[name] = " ".join(value) if name == operation.cli.positional or \
                _takes_text(operation, name) else _tokens(value)
        elif kind == "groups":
            body[name] = [_tokens(group) for group in value]
        elif kind == "json":
            body[name] = decode_field(value, name, f"--{name.replace('_', '-')}")
        elif kind == "integer":
            body[name] = whole_number(value, name)
        else:
            body[name] = value
    for name, default in operation.cli.defaults.items():
        body.setdefault(name, default)
    if operation.cli.extra is not None:
        operation.cli.extra.apply(args, body)
    return body


def _takes_text(operation: Operation, name: str) -> bool:
    """Whether the field reads a space-separated string of cards (a hand)."""
    branches = operation.request.model_json_schema()["properties"][name].get("anyOf", [])
    return any(b.get("type") == "string" for b in branches)


def _run_operation(args: argparse.Namespace, settings: Settings) -> int:
    operation = OPERATIONS[args.operation]
    assert operation.cli is not None
    body = request_body(args, operation)
    if body.get("engine") == "cpsat":
        # Load OR-Tools before the clock starts: a cold CP-SAT that cannot load in the
        # time left is skipped, and every command-line run is cold.
        importlib.import_module("solver.engines.cpsat")
    call = operation.parse(body, settings)
    result = operation.run(call.args, Deadline.after_ms(call.limit_ms), settings)
    if args.json:
        _print_json(result if isinstance(result, dict) else result.to_dict())
    else:
        write(operation.cli.render(result), sys.stdout)
    return EXIT_OK


# ---------------------------------------------------------------------------
# The parser


_EPILOG = """\
Cards: rank A 2-9 T (or 10) J Q K then suit S H D C (or ♠ ♥ ♦ ♣), JK for a joker.
Add --json to any command for JSON; errors then come as {"error": {"type", "loc", "msg"},
"errors": [every such item]}.
Exit codes: 0 done, 1 failure (not the input's fault), 2 bad input, 130 interrupted.
Each command's --help lists its options and examples.
"""


def _command(commands: Commands, name: str, help_text: str, description: str | None = None,
             examples: Sequence[str] = ()) -> argparse.ArgumentParser:
    epilog = "examples:\n" + "".join(f"  {line}\n" for line in examples) if examples else None
    parser: argparse.ArgumentParser = commands.add_parser(
        name, help=help_text, description=description or help_text, epilog=epilog,
        allow_abbrev=False, formatter_class=argparse.RawDescriptionHelpFormatter)
    _add_json(parser)
    return parser


def _add_json(parser: argparse.ArgumentParser) -> None:
    # SUPPRESS: a --json given before the command is not overwritten by a default here.
    parser.add_argument("--json", action="store_true", default=argparse.SUPPRESS,
                        help="print JSON (errors too, as {\"error\": {...}, \"errors\": [...]})")


def _add_operations(commands: Commands, only: str | None) -> None:
    """A command per operation; two-word commands (``hint draw``) share a group.
    With ``only``, the options of that command's operations alone (the other
    commands are listed, with their help line, but take no options)."""
    groups: dict[str, Commands] = {}
    for operation in OPERATIONS.values():
        cli = operation.cli
        if cli is None:
            continue
        target = commands
        if len(cli.words) == 2:
            group = cli.words[0]
            if group not in groups:
                parent = _command(commands, group, f"{group}s: "
                                  + ", ".join(op.cli.words[1] for op in OPERATIONS.values()
                                              if op.cli and op.cli.words[0] == group))
                groups[group] = parent.add_subparsers(dest=group, metavar="KIND",
                                                      parser_class=_Parser)
                choices = ", ".join(op.cli.words[1] for op in OPERATIONS.values()
                                    if op.cli and op.cli.words[0] == group)
                parent.set_defaults(handler=_choose(parent, f"choose a {group}: {choices}"))
            target = groups[group]
        parser = _command(target, cli.words[-1], cli.help,
                          description=f"{cli.help}.\n\n{operation.description}",
                          examples=cli.examples)
        if only is None or cli.words[0] == only:
            _add_fields(parser, operation)
        if cli.extra is not None:
            cli.extra.add_arguments(parser)
        parser.set_defaults(handler=_run_operation)


def _serve(args: argparse.Namespace, settings: Settings) -> int:
    from api.server.serve import serve

    return serve(args.host, args.port, args.workers, args.log_level or settings.log_level)


def _add_serve(commands: Commands) -> None:
    parser = _command(commands, "serve", "start the REST API (uvicorn)",
                      examples=("rummy-solver serve --port 8000 --workers 2",))
    parser.add_argument("--host", default="127.0.0.1", help="address to listen on (127.0.0.1)")
    parser.add_argument("--port", type=whole(0, 65535), default=8000,
                        help="TCP port, 0-65535 (8000)")
    parser.add_argument("--workers", type=whole(1, max_processes(), f"{PROCESSES_PER_CPU} per CPU "
                                                   "this process may use"),
                        default=available_cpus(),
                        help=f"worker processes, 1 to {max_processes()} ({PROCESSES_PER_CPU} per "
                             "CPU; default: one per CPU this container may use)")
    parser.add_argument("--log-level", default=None, choices=LOG_LEVELS,
                        help="(default: RUMMY_SOLVER_LOG_LEVEL, info)")
    parser.set_defaults(handler=_serve)


def _add_bulk(commands: Commands) -> None:
    from api.bulk import command

    parser = _command(commands, "bulk", "answer a game log of JSON lines (see bulk --help)",
                      description=command.DESCRIPTION, examples=())
    parser.epilog = command.EXAMPLES
    command.add_arguments(parser)
    parser.set_defaults(handler=lambda args, settings: command.run(args))


def _choose(parser: argparse.ArgumentParser,
            message: str) -> Callable[[argparse.Namespace, Settings], int]:
    def handler(args: argparse.Namespace, settings: Settings) -> int:
        parser.error(message)
    return handler


def build_parser(only: str | None = None) -> argparse.ArgumentParser:
    """The argument parser (exposed for tests); with ``only``, the options of
    that command alone, as ``main`` builds it for the command it is given
    (each operation's options come from its request's JSON schema, which is
    most of the command line's start-up)."""
    parser = _Parser(prog=PROG, description="Exact rummy hand solver: every answer is provably "
                     "optimal (or says it is not).", epilog=_EPILOG, allow_abbrev=False,
                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--version", action="store_true",
                        help="print the package, OR-Tools and Python versions")
    parser.add_argument("--json", action="store_true", help="print JSON (also after the command)")
    commands = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)
    _add_operations(commands, only)
    _add_serve(commands)
    _add_bulk(commands)
    return parser


# ---------------------------------------------------------------------------
# Entry point


def version_text() -> str:
    """``rummy-solver 0.3.0 (OR-Tools 9.15.6755, Python 3.11.7)``."""
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


def command_of(argv: Sequence[str]) -> str | None:
    """The command ``argv`` names: its first word that is not an option (the
    options before a command take no value), known before the options parse.

    >>> command_of(["--json", "bulk", "in.jsonl"]), command_of(["--version"])
    ('bulk', None)
    """
    return next((token for token in argv if not token.startswith("-")), None)


def _run(parser: argparse.ArgumentParser, args: argparse.Namespace) -> int:
    if args.version:
        if args.json:
            _print_json(version_info())
        else:
            write(version_text(), sys.stdout)
        return EXIT_OK
    if args.command is None:
        parser.error("choose a command (see --help)")
    settings = current()
    settings.apply_to_engines()
    handler: Callable[[argparse.Namespace, Settings], int] = args.handler
    return handler(args, settings)


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of the ``rummy-solver`` console script; returns the exit code."""
    try:
        return _answer(list(sys.argv[1:] if argv is None else argv))
    except BrokenPipeError:
        # The reader went away (``rummy-solver ... | head``) while an answer or
        # an error was printed: stop quietly.
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        return EXIT_FAILURE


def _answer(arguments: list[str]) -> int:
    """``main``'s work: the command run, its errors printed; the exit code."""
    as_json = wants_json(arguments)
    command = command_of(arguments)
    parser = build_parser(only=command or "")
    try:
        return _run(parser, parser.parse_args(arguments))
    except UsageError as error:
        if as_json:
            return _report_error([usage_item(error.message)], True, EXIT_BAD_INPUT, command)
        error.parser.print_usage(sys.stderr)
        write(f"{error.parser.prog}: error: {error.message}", sys.stderr)
        return EXIT_BAD_INPUT
    except RequestRejected as error:
        return _report_error(error.prefixed(()), as_json, EXIT_BAD_INPUT, command)
    except SettingsError as error:
        return _report_error([item("invalid_setting", [], str(error))], as_json, EXIT_BAD_INPUT,
                             command)
    except KeyboardInterrupt:
        # Ctrl-C on a long advice or review: stop as bulk does, without a traceback.
        write("interrupted", sys.stderr)
        return EXIT_INTERRUPTED
    except BrokenPipeError:
        raise  # main's: no error to print where nobody reads
    except Exception as error:
        if not as_json:
            raise
        # Programs reading --json get an answer they can parse even when the solver fails.
        failure = item("internal_error", [], f"{type(error).__name__}: {error}")
        return _report_error([failure], True, EXIT_FAILURE)


if __name__ == "__main__":
    sys.exit(main())
