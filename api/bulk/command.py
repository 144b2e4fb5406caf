"""``rummy-solver bulk IN [-o OUT] [--op OP] [--processes N | --ray [ADDRESS]] [--quiet]
[--summary FILE]``: the options of the ``bulk`` command and running it (``api.cli``
registers it).  With ``--summary`` the answers of review lines (``review_game``,
``review_openspiel``) are also added
up per player id (``solver.review.summary``), in input order, so the summary is the
same on the pool and on Ray; a run stopped midway (workers that keep dying, an output
that cannot be written) still writes the summary of the answers written before.  Any
``--op`` may go with it: a line's own ``"op"`` wins, so a log that mixes operations has
its reviews added up (the others are left out), and a log without a review gets a
summary of ``"reviews": 0``.
"""

from __future__ import annotations

import argparse
import contextlib
import gzip
import json
import os
import sys
import time
import traceback
import typing
from collections.abc import Generator, Iterator, Sequence
from typing import IO, Any, TextIO

from api.bulk.on_pool import default_processes, run_lines
from api.bulk.pipeline import WorkersFailed
from api.pool.resources import PROCESSES_PER_CPU, max_processes
from api.shared.decode import UNREADABLE_INPUT, gzip_name, open_input, unusable_file
from api.shared.errors import ErrorItem, RequestRejected, command_line_error, item
from api.shared.exit_codes import EXIT_INTERRUPTED
from api.shared.lines import Answered
from api.shared.operations import find, line_names
from api.shared.options import whole
from api.shared.settings import Settings, current
from solver.review.summary import Summaries

PROGRESS_EVERY_S = 0.2
FLUSH_EVERY_S = 0.5
_READ_BLOCK = 1 << 20
_PER_CPU = f"{PROCESSES_PER_CPU} per CPU this process may use"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Add the ``bulk`` options to ``parser``."""
    parser.add_argument("input", metavar="IN",
                        help="JSON lines, one request body per line ('-': standard input); "
                             "gzip is read as such, known by its first bytes")
    parser.add_argument("-o", "--output", metavar="OUT", default=None,
                        help="where the answers go (default: standard output; *.gz: gzip)")
    parser.add_argument("--op", default="solve_hand", metavar="OP", type=_operation,
                        help="operation of lines without an \"op\" field: "
                             f"{', '.join(line_names())} or an older alias (default: solve_hand)")
    workers = parser.add_mutually_exclusive_group()
    workers.add_argument("--processes", type=whole(1, max_processes(), _PER_CPU),
                         default=None, metavar="N",
                         help=f"worker processes, 1 (in this process) to {max_processes()} "
                              f"({_PER_CPU}; default: one per CPU, here {default_processes()}); "
                              "not with --ray")
    workers.add_argument("--ray", nargs="?", const="", default=None, metavar="ADDRESS",
                         help="run on Ray: a local instance, or 'auto' / 'ray://host:port' for a "
                              "cluster (put IN before --ray, or write --ray=ADDRESS); needs "
                              "pip install -e '.[ray]'")
    parser.add_argument("--quiet", action="store_true",
                        help="no progress bar (it shows only when stderr is a terminal)")
    parser.add_argument("--summary", metavar="FILE", default=None,
                        help="add up the answers of review lines (review_game or "
                             "review_openspiel, by --op or a line's own \"op\": a log may mix "
                             "operations; other lines are "
                             "left out) and write each player's figures over every game reviewed "
                             "(keyed by the records' player ids) to FILE as JSON ('-': standard "
                             "output, with -o OUT); its \"reviews\" counts the games added "
                             "(a run stopped midway: those whose answers were written)")


DESCRIPTION = """\
Answer a game log: one JSON request per line (the body of the operation's
endpoint, plus an optional "id" and an optional "op"), one answer per line,
in input order: {"id", "result"} or {"id", "line", "error": {type, loc, msg}}
-- exactly what POST /v1/solve/stream writes.  IN may be - (standard input);
gzip input is known by its first bytes (any name, standard input too), and
an OUT named .gz is written gzip-compressed.  Exit code: 1 when any line
got an error answer, 2 when the run could not start or stopped before its
end (an input that cannot be read to the end, such as a gzip file cut short;
workers that keep dying; an output that cannot be written; a failure of bulk
itself): the answers before are written, and their --summary (but after a
failure of bulk itself); 130 when interrupted (Ctrl-C); else 0.  An error that ends the run, or keeps it
from starting (a wrong option too), is printed on stderr (stdout carries the
answers): "error: ...", or with --json one line {"error": {type, loc, msg},
"errors": [...]}, as every command's --json prints it."""

EXAMPLES = """\
examples:
  rummy-solver bulk games.jsonl -o answers.jsonl
  rummy-solver bulk games.jsonl.gz -o answers.jsonl.gz --op hint_discard --processes 2
  zcat games.jsonl.gz | rummy-solver bulk - --quiet > answers.jsonl
  rummy-solver bulk games.jsonl.gz -o answers.jsonl.gz --ray auto
  rummy-solver bulk records.jsonl --op review_game -o reviews.jsonl --summary players.json
"""


def _operation(text: str) -> str:
    operation = find(text)
    if operation is None or not operation.in_lines:
        raise argparse.ArgumentTypeError(
            f"unknown operation {text!r}; choose one of {', '.join(line_names())}")
    return operation.name


class InputLines:
    """The lines of a stream without their line endings, never holding more
    than ``limit + 1`` bytes of one: a longer line comes out cut to that
    (and is answered ``line_too_large``), the rest of it skipped.  A stream
    that cannot be read to its end (a gzip file cut short or corrupt, a read
    error) ends the lines there, every line before it still answered, and
    ``failure`` says where and why.

    >>> import io
    >>> lines = InputLines(io.BytesIO(b'{"a": 1}\\r\\n{"b": 2}'), 100)
    >>> list(lines), lines.failure
    ([b'{"a": 1}', b'{"b": 2}'], None)
    """

    def __init__(self, stream: IO[bytes], limit: int) -> None:
        self.stream = stream
        self.limit = limit
        self.failure: str | None = None

    def __iter__(self) -> Iterator[bytes]:
        read = 0
        stream, limit = self.stream, self.limit
        try:
            while line := stream.readline(limit + 1):
                if len(line) > limit and not line.endswith(b"\n"):
                    while rest := stream.readline(_READ_BLOCK):
                        if rest.endswith(b"\n"):
                            break
                read += 1
                yield line.rstrip(b"\r\n")
        except UNREADABLE_INPUT as exc:
            self.failure = (f"the input cannot be read past line {read}: {exc} (a gzip file "
                            "cut short or corrupt, or a read error); every line before it is "
                            "answered in the output")


def count_lines(path: str) -> int:
    """Lines in an uncompressed file (a last line without a newline counts)."""
    count = 0
    last = b"\n"
    with open(path, "rb") as stream:
        while block := stream.read(_READ_BLOCK):
            count += block.count(b"\n")
            last = block[-1:]
    return count + (last != b"\n")


class Progress:
    """A one-line progress bar on a terminal: lines, rate, and (given a
    total) percent and ETA."""

    def __init__(self, stream: TextIO, total: int | None) -> None:
        self.stream = stream
        self.total = total
        self.started = time.monotonic()
        self.drawn = 0.0
        self.width = 0

    def update(self, done: int, failed: int, force: bool = False) -> None:
        """Redraw (at most every ``PROGRESS_EVERY_S`` unless ``force``)."""
        now = time.monotonic()
        if not force and now - self.drawn < PROGRESS_EVERY_S:
            return
        self.drawn = now
        elapsed = max(now - self.started, 1e-9)
        rate = done / elapsed
        parts = [f"{done:,} lines"]
        if self.total:
            parts[0] = f"{done:,}/{self.total:,} lines ({100 * done / self.total:.0f}%)"
        parts.append(f"{rate:,.1f} lines/s")
        if self.total and rate > 0:
            parts.append(f"ETA {_clock(max(0, self.total - done) / rate)}")
        parts.append(f"elapsed {_clock(elapsed)}")
        if failed:
            parts.append(f"{failed:,} errors")
        text = " | ".join(parts)
        self.stream.write("\r" + text.ljust(self.width))
        self.stream.flush()
        self.width = len(text)

    def close(self, done: int, failed: int) -> None:
        """The final line."""
        self.update(done, failed, force=True)
        self.stream.write("\n")
        self.stream.flush()


def _clock(seconds: float) -> str:
    whole = int(seconds)
    return f"{whole // 3600}:{whole // 60 % 60:02d}:{whole % 60:02d}"


def _open_input(name: str) -> IO[bytes]:
    try:
        return open_input(name)
    except OSError as exc:
        raise unusable_file("input", "standard input" if name == "-" else name, exc) from None


def _open_output(name: str | None) -> IO[bytes]:
    if name is None or name == "-":
        return sys.stdout.buffer
    if gzip_name(name):
        return typing.cast(IO[bytes], gzip.open(name, "wb"))
    return open(name, "wb")


def _refuse_overwriting(source: IO[bytes], args: argparse.Namespace) -> None:
    """``conflicting_arguments`` when ``--output`` or ``--summary`` names the
    input (by any path; standard input redirected from it too) or both name
    one file: opened for writing, the input would be emptied before a line of
    it is read, and the run would end at once, nothing answered, with exit 0."""
    written = [(flag, name) for flag, name in (("--output", args.output),
                                               ("--summary", args.summary))
               if name not in (None, "-")]
    try:
        read: os.stat_result | None = os.fstat(source.fileno())
    except (OSError, ValueError):  # no file behind the input (a test's stream)
        read = None
    for flag, name in written:
        with contextlib.suppress(OSError):
            if read is not None and os.path.samestat(os.stat(name), read):
                raise RequestRejected.one("conflicting_arguments", [flag.lstrip("-")],
                                          f"{flag} {name} is the input file: writing it "
                                          "would erase the lines before they are read")
    if args.summary == "-" and args.output in (None, "-"):
        raise RequestRejected.one("conflicting_arguments", ["summary"],
                                  "--summary - and the answers would both go to standard "
                                  "output: give the answers a file (-o OUT)")
    if len(written) == 2 and _same_file(written[0][1], written[1][1]):
        raise RequestRejected.one("conflicting_arguments", ["summary"],
                                  f"--output and --summary are the same file {written[0][1]}")


def _same_file(first: str, second: str) -> bool:
    try:
        return os.path.samefile(first, second)
    except OSError:  # one does not exist yet
        return os.path.realpath(first) == os.path.realpath(second)


def _total(name: str, source: IO[bytes]) -> int | None:
    """The input's line count when it can be had cheaply (a regular,
    uncompressed file), for the ETA."""
    if name == "-" or isinstance(source, gzip.GzipFile) or not os.path.isfile(name):
        return None
    return count_lines(name)


def _answers(args: argparse.Namespace, lines: Iterator[bytes],
             settings: Settings) -> Generator[Answered, None, None]:
    if args.ray is not None:
        from api.bulk.on_ray import run_lines_ray

        return run_lines_ray(lines, args.op, args.ray or None, settings=settings)
    return run_lines(lines, args.op, args.processes, settings=settings)


def run(args: argparse.Namespace) -> int:
    """Run ``bulk`` with parsed ``args``; returns the exit code.  An error
    that ends the run (exit 2) is on stderr: ``error: ...``, or with ``--json``
    one line, the ``{"error": {"type", "loc", "msg"}, "errors": [...]}`` every
    command's ``--json`` prints (stdout carries the answers)."""
    opened: list[tuple[str, str, IO[Any]]] = []  # (option, name, stream), closed at the end
    code = 2
    try:
        code = _run(args, opened)
    except RequestRejected as stopped:
        code = stop(args, stopped.prefixed(()))
    except Exception as exc:  # a bug: exit 1 would pass the answers cut short for a whole run
        if not getattr(args, "json", False):
            traceback.print_exc()
        code = stop(args, [item("internal_error", [], f"{type(exc).__name__}: {exc}")])
    finally:
        closed = _close_files(opened)
    if closed is not None and code in (0, 1):
        return stop(args, closed.prefixed(()))
    return code


def stop(args: argparse.Namespace, errors: Sequence[ErrorItem]) -> int:
    """Print the errors that end the run on stderr (stdout carries the
    answers): with ``--json`` one line, ``api.shared.errors.command_line_error``;
    exit code 2.  ``api.cli`` prints bulk's argument errors with it too."""
    if getattr(args, "json", False):
        # ASCII: a file name the terminal cannot show stays valid JSON.
        print(json.dumps(command_line_error(errors)), file=sys.stderr)
    else:
        for error in errors:
            print(f"error: {error['msg']}", file=sys.stderr)
    return 2


def _run(args: argparse.Namespace, opened: list[tuple[str, str, IO[Any]]]) -> int:
    settings = current()
    source = _open_input(args.input)
    if args.input != "-":
        opened.append(("input", args.input, source))
    _refuse_overwriting(source, args)
    lines = InputLines(source, settings.max_body_bytes)
    try:
        answers = _answers(args, iter(lines), settings)
    except (ImportError, ConnectionError, ValueError) as exc:  # Ray could not start
        if args.ray is None:
            raise
        raise RequestRejected.one("invalid_value", ["ray"], f"--ray: {exc}") from None
    output = "standard output" if args.output in (None, "-") else args.output
    try:
        sink = _open_output(args.output)
    except OSError as exc:
        answers.close()
        raise unusable_file("output", output, exc, "write") from None
    if args.output not in (None, "-"):
        opened.append(("output", output, sink))
    summaries = summary_sink = None
    if args.summary is not None:  # opened now: an unwritable path ends the run before it starts
        if args.summary == "-":
            summary_sink = sys.stdout
        else:
            try:
                summary_sink = open(args.summary, "w", encoding="utf-8")  # noqa: SIM115
            except OSError as exc:
                answers.close()
                raise unusable_file("summary", args.summary, exc, "write") from None
            opened.append(("summary", args.summary, summary_sink))
        summaries = Summaries()
    progress = None
    if not args.quiet and sys.stderr.isatty():
        progress = Progress(sys.stderr, _total(args.input, source))
    stopped = None
    try:
        code = _write(answers, sink, progress, summaries, output)
    except RequestRejected as exc:  # workers that keep dying, an output that cannot be written
        code, stopped = 2, exc  # the summary still adds up the answers written
    if summary_sink is not None and summaries is not None:
        try:
            _write_summary(summary_sink, summaries)
        except OSError as exc:
            raise unusable_file("summary", args.summary, exc, "write") from None
    if stopped is not None:
        raise stopped
    if lines.failure is not None and code in (0, 1):
        raise RequestRejected.one("invalid_value", ["input"], lines.failure)
    return code


def _close_files(streams: list[tuple[str, str, IO[Any]]]) -> RequestRejected | None:
    """Close every stream; the first error (closing writes what is left: a
    gzip file's end, on a disk that may be full)."""
    failure = None
    for option, name, stream in streams:
        try:
            stream.close()
        except OSError as exc:
            failure = failure or unusable_file(option, name, exc,
                                               "read" if option == "input" else "write")
    return failure


def _write_summary(stream: IO[str], summaries: Summaries) -> None:
    """The players' figures over every review answered, as JSON."""
    json.dump(summaries.to_dict(), stream, indent=1, ensure_ascii=False)
    stream.write("\n")


def _write(answers: Generator[Answered, None, None], sink: IO[bytes], progress: Progress | None,
           summaries: Summaries | None = None, output: str = "the output") -> int:
    done = failed = 0
    flushed = time.monotonic()

    def put(data: bytes | None) -> None:
        """Write (``None``: flush) ``data``; a failure is the output's (a full disk)."""
        try:
            if data is None:
                sink.flush()
            else:
                sink.write(data)
        except BrokenPipeError:
            raise
        except OSError as exc:
            raise unusable_file("output", output, exc, "write") from None

    try:
        for answered in answers:
            put(answered.text.encode("utf-8") + b"\n")
            if summaries is not None and answered.ok:
                summaries.add(answered.to_dict()["result"])
            done += 1
            failed += not answered.ok
            if progress is not None:
                progress.update(done, failed)
            if time.monotonic() - flushed > FLUSH_EVERY_S:
                put(None)
                flushed = time.monotonic()
        put(None)
    except KeyboardInterrupt:
        answers.close()
        print("\ninterrupted", file=sys.stderr)
        return EXIT_INTERRUPTED
    except BrokenPipeError:
        answers.close()
        # Whoever read the output left; keep Python from complaining at exit.
        devnull = os.open(os.devnull, os.O_WRONLY)
        with contextlib.suppress(OSError, ValueError):
            os.dup2(devnull, sink.fileno())
        return 1
    except Exception as exc:
        answers.close()  # stop the workers first
        if not isinstance(exc, RequestRejected | WorkersFailed | OSError):
            raise
        if progress is not None:
            progress.close(done, failed)
        if isinstance(exc, RequestRejected):  # the output cannot be written
            raise
        # Workers that keep dying, or a pool that cannot start its processes.
        raise RequestRejected.one("workers_failed", [], str(exc)) from None
    if progress is not None:
        progress.close(done, failed)
    return 1 if failed else 0
