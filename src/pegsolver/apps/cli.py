"""Command line: ``pegsolver solve english``. Errors in the input exit with code 2."""
from __future__ import annotations

import argparse
import json
import os
import sys
from typing import Any, TextIO, cast

try:  # loading these takes a noticeable moment: Ctrl-C meanwhile ends quietly, like Ctrl-C later
    from ..engine.outcome import Reason
    from ..engine.stopping import interrupt_guard, interrupt_name, raise_early_signal
    from ..errors import CoreMissingError, PegsolverError, Terminated
    from .cli_args import (
        EXIT_BROKEN_PIPE,
        EXIT_INTERRUPTED,
        EXIT_UNSOLVED,
        EXIT_USAGE,
        CommandParser,
        JsonErrorParser,
        is_variant,
    )
    from .cli_bench import add_bench_parser, cmd_bench
    from .cli_boards import (
        add_boards_parser,
        add_classes_parser,
        add_play_parser,
        add_replay_parser,
        cmd_boards,
        cmd_classes,
        cmd_play,
        cmd_replay,
    )
    from .cli_count import add_count_parser, add_table_parser, cmd_count, cmd_table
    from .cli_solve import add_solve_parser, cmd_solve
except KeyboardInterrupt as e:
    from .entry import stopped_while_loading
    stopped_while_loading(e)


def package_version() -> str:
    from importlib import metadata  # loaded for --version only: it costs start-up time
    try:
        return metadata.version("pegsolver")
    except metadata.PackageNotFoundError:  # run from a source tree that is not installed
        return "(not installed)"


def build_parser() -> argparse.ArgumentParser:
    return build_parsers()[0]


def build_parsers() -> tuple[argparse.ArgumentParser, dict[str, argparse.ArgumentParser]]:
    """The command line's parser, and each command's parser by name."""
    parser = JsonErrorParser(prog="pegsolver", description="Peg solitaire solver.")
    parser.add_argument("--version", action="version", version=f"%(prog)s {package_version()}")
    sub = parser.add_subparsers(dest="command", required=True, parser_class=CommandParser)
    for add in (add_solve_parser, add_replay_parser, add_classes_parser, add_table_parser, add_boards_parser,
                add_play_parser, add_bench_parser, add_count_parser):
        add(sub)
    return parser, dict(sub.choices)


class _Watched:
    """sys.stdout for one command, noting whether it has begun to write its answer (an
    interruption then must not add an answer of its own to a half-written one)."""

    def __init__(self, inner: TextIO) -> None:
        self.inner, self.started = inner, False

    def write(self, text: str) -> int:
        self.started = self.started or bool(text)
        return self.inner.write(text)

    def __getattr__(self, name: str) -> Any:
        return getattr(self.inner, name)


COMMANDS = {"solve": cmd_solve, "replay": cmd_replay, "classes": cmd_classes, "table": cmd_table,
            "boards": cmd_boards, "play": cmd_play, "bench": cmd_bench, "count": cmd_count}


def extra_words(parser: argparse.ArgumentParser, words: list[str], extra: list[str], board: str | None = None) -> str:
    """The error for words no argument takes; after an option of one value (`count english
    --finish d4 d3`), it says that option takes one; a second board's name after ``board``
    (the command's board, as given), that one board is taken."""
    message = f"unrecognized arguments: {' '.join(extra)}"
    if board is not None and len(extra) == 1 and is_variant(extra[0]):   # a trial's `solve english french`
        return f"{message} (the board is {board!r} already; give one board)"
    at = words.index(extra[0]) if extra[0] in words else -1
    option = words[at - 2] if at >= 2 else ""
    # argparse keeps no public map from option strings to their actions
    action = getattr(parser, "_option_string_actions", {}).get(option)
    if action is None or action.nargs is not None or "=" in option:
        return message
    if callable(action.type):   # only words that read as its values (a trial's "--seconds 5 extra")
        try:
            for word in extra:
                action.type(word)
        except Exception:
            return message
    return f"{message} ({option} takes one {action.metavar or action.dest.upper()}, not a list)"


def main(argv: list[str] | None = None) -> int:
    words = sys.argv[1:] if argv is None else argv
    # play has no answer to print: its errors go to stderr alone, --json or not
    JsonErrorParser.wants_json = "--json" in words and next((w for w in words if not w.startswith("-")), "") != "play"
    if sys.stderr is None:   # started with 2>&-: print(file=None) would put the notes into the answer
        sys.stderr = open(os.devnull, "w")
    if sys.stdout is None:   # started with >&-
        print("pegsolver: error: cannot write the output: standard output is closed", file=sys.stderr)
        return EXIT_USAGE
    args = None
    out: _Watched | None = None
    try:
        try:
            parser, commands = build_parsers()
            args, extra = parser.parse_known_args(argv)
        except Exception as e:   # after a signal, an error is the signal's (argparse's clean-up)
            raise_early_signal(e)
            raise
        raise_early_signal()   # a signal whose exception was caught as the arguments were read
        if extra:  # the command's parser says it, so that its help is the one pointed to
            # an unknown option takes the words after it: name it alone ("replay english
            # --boards d2-d4" called the moves unrecognized too)
            unknown = [w.split("=")[0] for w in extra if w.startswith("--") and len(w) > 2]
            commands[args.command].error(f"unknown option{'s' * (len(unknown) > 1)} {', '.join(unknown)}" if unknown
                                         else extra_words(commands[args.command], words, extra,
                                                          getattr(args, "variant", None)))
        # SIGTERM stops a command as Ctrl-C does, with what it finished (play: Textual's own way)
        guard = interrupt_guard(ending=True)
        if args.command == "play":
            return cmd_play(args)
        sys.stdout = cast(TextIO, out := _Watched(sys.stdout))
        try:
            with guard:
                code = COMMANDS[args.command](args)
        finally:
            sys.stdout = out.inner
        return code
    except (PegsolverError, CoreMissingError) as e:
        if getattr(args, "json", False):  # scripts reading stdout get the error too
            print(json.dumps({"error": str(e)}))
        print(f"pegsolver: error: {e}", file=sys.stderr)
        return EXIT_USAGE
    except KeyboardInterrupt as e:   # before a command had an answer to print (later, it prints its own)
        what = f"stopped by {'SIGTERM' if isinstance(e, Terminated) else interrupt_name()}"
        if out is not None and out.started:   # as its answer was written: that answer is cut short
            print(f"pegsolver: {what} while the answer was written: the output is incomplete", file=sys.stderr)
            return EXIT_INTERRUPTED
        if args is not None and args.command == "play":   # the game was on: no answer was due
            print(f"pegsolver: {what}: the game ended", file=sys.stderr)
            return EXIT_INTERRUPTED
        what += " before the command had an answer"   # the same words in JSON and on stderr
        if getattr(args, "json", JsonErrorParser.wants_json):
            print(json.dumps({"reason": Reason.INTERRUPTED.value, "error": what}))
        print(f"pegsolver: {what}", file=sys.stderr)
        return EXIT_INTERRUPTED
    except MemoryError as e:   # the system refused memory where no search turned it into a stop
        what = f"out of memory ({e})" if str(e) else "out of memory"
        if getattr(args, "json", False):
            print(json.dumps({"reason": Reason.MEMORY_LIMIT.value, "error": what}))
        print(f"pegsolver: error: {what}: the system refused an allocation; give a smaller budget "
              "(--table-mb, --memory-gb) or free memory", file=sys.stderr)
        return EXIT_UNSOLVED
    except BrokenPipeError:
        # The reader (e.g. `| head`) went away: stop quietly with the code of a tool that
        # SIGPIPE ended (the answer's own code is not known: it was not all written)
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return EXIT_BROKEN_PIPE
    except OSError as e:  # e.g. writing to a full disk
        print(f"pegsolver: error: cannot write the output: {e.strerror or str(e) or type(e).__name__}", file=sys.stderr)
        return EXIT_USAGE


if __name__ == "__main__":
    from .entry import run
    run()
