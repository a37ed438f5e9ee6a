"""Command line: ``pegsolver solve english``. Errors in the input exit with code 2."""
from __future__ import annotations

import argparse
import json
import os
import sys
from importlib import metadata

try:  # loading these takes a noticeable moment: Ctrl-C meanwhile ends quietly, like Ctrl-C later
    from ..errors import CoreMissingError, PegsolverError
    from .cli_args import _HOLE_WORD, EXIT_INTERRUPTED, EXIT_SOLVED, EXIT_USAGE, HOLE_LISTS
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
except KeyboardInterrupt:
    print("pegsolver: interrupted", file=sys.stderr)
    sys.exit(130)


def package_version() -> str:
    try:
        return metadata.version("pegsolver")
    except metadata.PackageNotFoundError:  # run from a source tree that is not installed
        return "(not installed)"


class JsonErrorParser(argparse.ArgumentParser):
    """A parser whose usage errors also reach stdout as ``{"error": ...}`` when the command
    line asks for ``--json``, as every other error does."""

    wants_json = False  # set by main() for the whole command line

    def error(self, message):
        if JsonErrorParser.wants_json:
            print(json.dumps({"error": message}))
        super().error(message)


class CommandParser(JsonErrorParser):
    """A subcommand's parser. Options and positionals mix in any order (``replay english
    --json d2-d4``), and a hole list (``--vacant a3 c1``) ends at the first word after its
    first that cannot be a hole name, so ``--vacant a3 french`` leaves ``french`` as the board.
    """

    _inside = False

    def parse_known_args(self, args=None, namespace=None):
        if self._inside:  # parse_known_intermixed_args parses through this method
            return super().parse_known_args(args, namespace)
        args = sys.argv[1:] if args is None else list(args)
        self._inside = True
        try:
            return self.parse_known_intermixed_args(self._split_hole_lists(args), namespace)
        finally:
            self._inside = False

    def _split_hole_lists(self, args: list[str]) -> list[str]:
        """``--vacant a3 c1 french`` -> ``--vacant=a3 --vacant=c1 french``: one value each, so
        that argparse cannot give the list what follows it."""
        out: list[str] = []
        i = 0
        while i < len(args):
            word = args[i]
            i += 1
            if word == "--":
                out += args[i - 1:]
                break
            action = self._hole_list_action(word)
            if action is None:
                out.append(word)
                continue
            values: list[str] = []
            # The first value is taken whatever it is (a bad hole is then named as such).
            while i < len(args) and not args[i].startswith("-") and (not values or _HOLE_WORD.fullmatch(args[i])):
                values.append(args[i])
                i += 1
            out += [f"{action.option_strings[-1]}={v}" for v in values] or [word]
        return out

    def _hole_list_action(self, word: str):
        if not word.startswith("--") or "=" in word:
            return None
        options = self._option_string_actions
        found = {options[word]} if word in options else {a for o, a in options.items() if o.startswith(word)}
        action = found.pop() if len(found) == 1 else None  # argparse reports an ambiguous prefix itself
        return action if action is not None and action.dest in HOLE_LISTS and action.nargs == "+" else None


def build_parser() -> argparse.ArgumentParser:
    parser = JsonErrorParser(prog="pegsolver", description="Peg solitaire solver.")
    parser.add_argument("--version", action="version", version=f"%(prog)s {package_version()}")
    sub = parser.add_subparsers(dest="command", required=True, parser_class=CommandParser)
    for add in (add_solve_parser, add_replay_parser, add_classes_parser, add_table_parser, add_boards_parser,
                add_play_parser, add_bench_parser, add_count_parser):
        add(sub)
    return parser


COMMANDS = {"solve": cmd_solve, "replay": cmd_replay, "classes": cmd_classes, "table": cmd_table,
            "boards": cmd_boards, "play": cmd_play, "bench": cmd_bench, "count": cmd_count}


def main(argv: list[str] | None = None) -> int:
    JsonErrorParser.wants_json = "--json" in (sys.argv[1:] if argv is None else argv)
    args = build_parser().parse_args(argv)
    try:
        return COMMANDS[args.command](args)
    except (PegsolverError, CoreMissingError) as e:
        if getattr(args, "json", False):  # scripts reading stdout get the error too
            print(json.dumps({"error": str(e)}))
        print(f"pegsolver: error: {e}", file=sys.stderr)
        return EXIT_USAGE
    except KeyboardInterrupt:
        print("pegsolver: interrupted", file=sys.stderr)
        return EXIT_INTERRUPTED
    except BrokenPipeError:
        # The reader (e.g. `| head`) went away: stop quietly, as Unix tools do.
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return EXIT_SOLVED
    except OSError as e:  # e.g. writing to a full disk
        print(f"pegsolver: error: cannot write the output: {e.strerror or e}", file=sys.stderr)
        return EXIT_USAGE


if __name__ == "__main__":
    sys.exit(main())
