"""What the commands share: exit codes, and the board, holes and goal read from a command's
arguments (a variant name, a board file or board text, --vacant, --finish, --pegs)."""
from __future__ import annotations

import argparse
import json
import os
import re
import sys
from collections.abc import Iterable
from pathlib import Path
from typing import Any, NoReturn, TypeAlias, TypeVar, overload

from ..errors import PegsolverError, UnknownVariantError
from ..model import boardfile
from ..model.board import Board
from ..model.geometry import GRIDS, RULES, SQUARE
from ..model.goal import Goal, plural
from ..model.notation import NUMERIC_STYLES, STYLES, hole_name, parse_hole, span
from ..model.variants import find_variant
from ..solver import default_goal
from .cli_values import Once

EXIT_SOLVED, EXIT_UNSOLVED, EXIT_USAGE, EXIT_INTERRUPTED = 0, 1, 2, 130
EXIT_BROKEN_PIPE = 141   # 128 + SIGPIPE: the code of a shell tool whose reader went away
BOARD_FILE_SUFFIXES = (".toml", ".txt")
HOLE_LISTS = ("vacant", "finish")  # options taking several holes
# A word that may be a hole name: d4, aa12, 44, 105 (triangles), or the finish 'any'.
_HOLE_WORD = re.compile(r"[a-z]{1,2}[0-9]{1,3}|[0-9]{1,3}|any|anywhere|fewest", re.IGNORECASE)
# What add_subparsers() returns, to which each command adds its parser (generic in the stubs only).
Subparsers: TypeAlias = "argparse._SubParsersAction[CommandParser]"
_N = TypeVar("_N")
_V = TypeVar("_V")


class JsonErrorParser(argparse.ArgumentParser):
    """A parser whose usage errors also reach stdout as ``{"error": ...}`` when the command
    line asks for ``--json``, as every other error does."""

    wants_json = False  # set by main() for the whole command line

    def error(self, message: str) -> NoReturn:
        if JsonErrorParser.wants_json:
            print(json.dumps({"error": message}))
        # one line, begun as every other error (trials saw two prefixes); the usage is one --help away
        self.exit(2, f"pegsolver: error: {message} (see {self.prog} --help)\n")


class CommandParser(JsonErrorParser):
    """A subcommand's parser. Options and positionals mix in any order (``replay english
    --json d2-d4``), and a hole list (``--vacant a3 c1``) ends at the first word after its
    first that cannot be a hole name, so ``--vacant a3 french`` leaves ``french`` as the board.
    """

    _inside = False

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        for name in (None, "store"):   # a single-value option refuses a second value
            self.register("action", name, Once)

    @overload  # argparse's three forms: with no namespace, a new Namespace is returned
    def parse_known_args(self, args: Iterable[str] | None = None,
                         namespace: None = None) -> tuple[argparse.Namespace, list[str]]: ...
    @overload
    def parse_known_args(self, args: Iterable[str] | None, namespace: _N) -> tuple[_N, list[str]]: ...
    @overload
    def parse_known_args(self, *, namespace: _N) -> tuple[_N, list[str]]: ...

    def parse_known_args(self, args: Iterable[str] | None = None,
                         namespace: object = None) -> tuple[object, list[str]]:
        if self._inside:  # parse_known_intermixed_args parses through this method
            return super().parse_known_args(args, namespace)
        args = sys.argv[1:] if args is None else list(args)
        # Intermixed parsing reads a word after '--' that starts with '-' as an option
        # (Python 3.11): such words go in as placeholders, and come back after parsing.
        after: list[str] = []
        if "--" in args:
            cut = args.index("--")
            after = args[cut + 1:]
            args = args[:cut] + [f"{_PLACEHOLDER}{i}" for i in range(len(after))]
        self._inside = True
        try:
            ns, extra = self.parse_known_intermixed_args(self._split_hole_lists(args), namespace)
        finally:
            self._inside = False
        if after:
            for name, value in vars(ns).items():
                setattr(ns, name, _restore(value, after))
            extra = _restore(extra, after)
        return ns, extra

    def _split_hole_lists(self, args: list[str]) -> list[str]:
        """``--vacant a3 c1 french`` -> ``--vacant=a3 --vacant=c1 french``: one value each, so
        that argparse cannot give the list what follows it; and ``--seconds -1e3`` ->
        ``--seconds=-1e3``, so that the value gets its own message."""
        out: list[str] = []
        i = 0
        while i < len(args):
            word = args[i]
            i += 1
            if word == "--":
                out += args[i - 1:]
                break
            action = self._option_action(word)
            if action is not None and action.nargs is None and i < len(args) and _NEGATIVE.match(args[i]):
                out.append(f"{word}={args[i]}")   # argparse reads '-1e3' or '-inf' as an option
                i += 1
                continue
            if action is None or action.dest not in HOLE_LISTS or action.nargs != "+":
                out.append(word)
                continue
            values: list[str] = []
            # The first value is taken whatever it is (a bad hole is then named as such).
            while i < len(args) and not args[i].startswith("-") and (not values or _HOLE_WORD.fullmatch(args[i])):
                values.append(args[i])
                i += 1
            out += [f"{action.option_strings[-1]}={v}" for v in values] or [word]
        return out

    def _option_action(self, word: str) -> argparse.Action | None:
        """The option ``word`` names (in full or by a prefix), or None."""
        if not word.startswith("--") or "=" in word:
            return None
        options = self._option_string_actions
        found = {options[word]} if word in options else {a for o, a in options.items() if o.startswith(word)}
        return found.pop() if len(found) == 1 else None  # argparse reports an ambiguous prefix itself


# A negative number argparse would take for an option (it knows only -5 and -1.5 as numbers).
_NEGATIVE = re.compile(r"-(\d|\.\d|inf|nan)", re.IGNORECASE)
_PLACEHOLDER = "\0after--"  # no command-line word holds a NUL


def _restore(value: _V, after: list[str]) -> _V:
    """``value`` with each placeholder for a word after '--' replaced by that word."""
    if isinstance(value, str) and value.startswith(_PLACEHOLDER):
        return after[int(value[len(_PLACEHOLDER):])]  # type: ignore[return-value]
    if isinstance(value, list):
        return [_restore(v, after) for v in value]  # type: ignore[return-value]
    return value


def add_vacant_arg(p: argparse.ArgumentParser) -> None:
    p.add_argument("--vacant", nargs="+", action="extend", metavar="HOLE",
                   help="start with every hole filled except these (e.g. --vacant a3 c1); the list ends "
                        "at a word that is not a hole name; given twice, the lists join")


def add_board_args(p: argparse.ArgumentParser, json: bool = True) -> None:
    """The start's options, and ``--json`` unless the command has no answer to print (play)."""
    p.add_argument("variant", nargs="?",
                   help="variant name (english, french, wiegleb, diamond, asymmetric, triangleN, squareN, "
                        "rectRxC, NAME-diagonal) or a board file (.toml, or drawn text); default: english")
    p.add_argument("--board", metavar="FILE", action=Once,
                   help="read the start from a board file (.toml, or drawn text)")
    p.add_argument("--rules", choices=RULES, help="jump rules of a drawn-text board file (default: orthogonal)")
    p.add_argument("--grid", choices=GRIDS, help="grid of a drawn-text board file (triangle = triangular rules)")
    p.add_argument("--notation", choices=STYLES, default="algebraic",
                   help="hole names on square boards: algebraic (d4), numeric (two digits, column then row: "
                        "d6 is 46) or numeric-rc (row then column: d6 is 64); also how hole numbers given "
                        "are read (default: algebraic, numbers read column then row)")
    if json:
        p.add_argument("--json", action="store_true", help="print JSON instead of text")
    else:
        p.set_defaults(json=False)


def is_variant(name: str) -> bool:
    """True when ``name`` names a variant (a family member too large to solve included)."""
    try:
        find_variant(name)
    except UnknownVariantError:
        return False
    except PegsolverError:  # a family member too large, say: still a variant's name
        return True
    return True


def _is_file_spec(spec: str) -> bool:
    """A board argument names a file when it has a path separator or a board file's suffix;
    else a variant name means the variant, and another name is read as a file if one exists
    (or if it has a suffix, so that a missing file is reported as such)."""
    if "/" in spec or "\\" in spec or Path(spec).suffix.lower() in BOARD_FILE_SUFFIXES:
        return True
    if is_variant(spec):
        if os.path.lexists(spec):
            print(f"pegsolver: note: {spec!r} is read as the variant {find_variant(spec).name}, not as the "
                  f"file of that name here; to read the file, write ./{spec} or --board {spec}", file=sys.stderr)
        return False
    return Path(spec).suffix != "" or os.path.lexists(spec)


def check_notation(args: argparse.Namespace, board: Board) -> None:
    """Refuse two-digit hole numbers before any work on a board they cannot name."""
    style = getattr(args, "notation", None)
    if style in NUMERIC_STYLES and board.shape.grid != SQUARE:
        raise PegsolverError(f"--notation {style} is for square boards; the holes of {board.shape.name!r} "
                             f"(a {board.shape.grid} grid) are numbered already")
    if style in NUMERIC_STYLES:
        rows, cols = span(board.shape)
        if rows > 9 or cols > 9:
            raise PegsolverError(f"--notation {style} needs at most 9 rows and columns; board "
                                 f"{board.shape.name!r} has {plural(rows, 'row')} and {plural(cols, 'column')}")


def parse_holes(board: Board, names: list[str], option: str, style: str | None) -> list[int]:
    """Hole indices of an option's hole names (two-digit numbers read as ``style`` says).

    :raises UnknownHoleError: a name that is no hole; :raises PegsolverError: a hole listed twice.
    """
    holes = [parse_hole(board.shape, h, style) for h in names]
    for k, h in enumerate(holes):
        if h in holes[:k]:
            same = [n for n, x in zip(names, holes) if x == h]
            also = f" (as {' and '.join(same)})" if len(set(same)) > 1 else ""
            raise PegsolverError(f"{option} lists hole {same[0]} twice{also}")
    return holes


def with_vacant(board: Board, names: list[str] | None, style: str | None) -> Board:
    """``board`` with every hole filled but those ``--vacant`` names (unchanged without names)."""
    if not names:
        return board
    holes = parse_holes(board, names, "--vacant", style)  # read in the chosen notation, each once
    if len(holes) == board.shape.size:
        raise PegsolverError("--vacant leaves no peg on the board")
    return board.with_vacant(*holes)


def load_start(args: argparse.Namespace) -> tuple[Board, Goal | None]:
    """The start board (with ``--vacant`` applied) and the goal a board file gives (or None)."""
    board, file_goal = load_board(args)
    check_notation(args, board)
    return with_vacant(board, getattr(args, "vacant", None), args.notation), file_goal


def load_board(args: argparse.Namespace) -> tuple[Board, Goal | None]:
    """The board a variant name, board file or ``--board`` gives, and the file's goal (or None).
    Sets ``args.file_start``: True when a board file named its start (vacant holes)."""
    spec = args.board
    if spec is not None and not spec.strip():
        raise PegsolverError("empty board file name after --board")
    if spec and args.variant:
        raise PegsolverError("give a variant name or --board FILE, not both")
    if args.variant is not None and not args.variant.strip():
        raise PegsolverError("empty variant name; try english, french or triangle5")
    if not spec and args.variant and _is_file_spec(args.variant):
        spec = args.variant
    file_goal = None
    drawn = spec and Path(spec).suffix.lower() != ".toml"
    if (args.rules or args.grid) and not drawn:
        # variants and TOML files name their own rules; only drawn text needs them
        raise PegsolverError("--rules and --grid apply to a board drawn as text; a variant or a .toml file "
                             "names its own (e.g. english-diagonal, or rules = \"diagonal\" in the file)")
    if spec:
        path = Path(spec)   # read as given (a str): Path drops a leading ./ from the messages
        board, file_goal, named = boardfile.load_with_start(spec, args.grid, args.rules)
        args.file_start = named
        vacant = getattr(args, "vacant", None)
        if named and vacant and set(parse_holes(board, vacant, "--vacant", args.notation)) != set(board.vacancies()):
            # two starts, as a file with both a drawn start and 'vacant': which was meant cannot be told
            holes = " ".join(hole_name(board.shape, h, args.notation) for h in board.vacancies())
            how = ("take the start out of the file (its 'vacant' key, or the drawing's vacant holes)"
                   if path.suffix.lower() == ".toml" else "draw every hole of the file filled")
            raise PegsolverError(f"board file {spec!r} gives its own start ({holes} vacant) and --vacant "
                                 f"gives another: leave out --vacant, or {how}")
    else:
        if args.variant is None:
            finish = getattr(args, "finish", None)
            for listed in (getattr(args, "vacant", None) or [], [finish] if isinstance(finish, str) else finish or []):
                _note_board_numbers(listed)
        board = find_variant(args.variant or "english").board()
    return board, file_goal


def _note_board_numbers(names: list[str]) -> None:
    # `--vacant a3 37` or `--finish d4 37` takes 37 as a hole of the default board; the user
    # may have meant board 37
    for i, name in enumerate(names):
        if not name.isdigit():
            continue
        try:
            meant = find_variant(name)
        except PegsolverError:
            continue
        # board 33 is the default board itself: only a 33 after other holes (`--finish d4 33`)
        # looks like the board's name; alone, it is the numeric hole 33 (c3)
        if meant.name == "english" and (len(names) == 1 or i != len(names) - 1):
            continue
        meant_text = "" if meant.name == "english" else f" ({meant.name})"
        print(f"pegsolver: note: {name} is read as a hole of the default board, english; for board {name}"
              f"{meant_text} name it before the hole lists, or write --vacant=HOLE, --finish=HOLE", file=sys.stderr)


ANYWHERE_WORDS = ("any", "anywhere")   # --finish words for one peg anywhere


def means_anywhere(words: str | list[str] | None) -> bool:
    """Whether a --finish value (a word or the list of them) says one peg anywhere."""
    if isinstance(words, list):
        return len(words) == 1 and means_anywhere(words[0])
    return words is not None and words.lower() in ANYWHERE_WORDS


def choose_goal(args: argparse.Namespace, board: Board, file_goal: Goal | None) -> Goal:
    pegs = getattr(args, "pegs", None)
    if pegs is not None:
        if args.finish and not means_anywhere(args.finish):
            raise PegsolverError(f"--pegs {pegs} leaves pegs anywhere: use it alone or with --finish any, "
                                 f"not with --finish {' '.join(args.finish)}")
        if pegs < 1:
            raise PegsolverError(f"--pegs must be at least 1, not {pegs}")
        return Goal.anywhere(pegs)
    if not args.finish:
        if file_goal is not None and file_goal.fewest_pegs and getattr(args, "command", "solve") != "solve":
            raise PegsolverError("the board file's finish = \"fewest\" is a question for solve; "
                                 "here give --finish HOLE or --finish any")
        return file_goal or default_goal(board, args.strategy)
    words = [w for w in args.finish if means_anywhere(w) or w.lower() == "fewest"]  # each stands alone
    if words:
        fewest = words[0].lower() == "fewest"
        if len(args.finish) == 1 and fewest:
            if getattr(args, "command", "solve") != "solve":
                raise PegsolverError("--finish fewest is a question for solve; here give a hole or 'any'")
            return Goal.fewest()
        if len(args.finish) == 1:
            return Goal.anywhere()
        holes = [w for w in args.finish if w not in words]
        meaning = "the fewest pegs possible" if fewest else "one peg anywhere"
        raise PegsolverError(f"--finish {words[0]} stands alone ({meaning}); to name the finish, "
                             f"give only holes: --finish {' '.join(holes) or 'HOLE'}")
    holes = parse_holes(board, args.finish, "--finish", args.notation)
    return Goal.at(holes[0]) if len(holes) == 1 else Goal.pattern(holes)


def print_problem(start: Board, goal: Goal, style: str) -> None:
    """The board and the goal: printed before a search, so a long one shows what it works on."""
    shape = start.shape
    vacant = " ".join(hole_name(shape, h, style) for h in start.vacancies())
    print(f"board: {shape.name} ({plural(shape.size, 'hole')}, {shape.rules} jumps), vacant: {vacant or 'none'}")
    print(f"goal: {goal.describe(shape, style)}", flush=True)
