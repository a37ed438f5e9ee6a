"""Command line: ``pegsolver solve english``. Errors in the input exit with code 2."""
from __future__ import annotations

import argparse
import json
import os
import re
import sys
import time
from collections import Counter
from importlib import metadata
from pathlib import Path

EXIT_SOLVED, EXIT_UNSOLVED, EXIT_USAGE, EXIT_INTERRUPTED = 0, 1, 2, 130

try:  # loading these takes a noticeable moment: Ctrl-C meanwhile ends quietly, like Ctrl-C later
    from .. import analysis
    from ..engine import limits
    from ..engine.compile import DEFAULT_BEAM_WIDTH, DEFAULT_STRATEGY, ORDERS, SOLVE_STRATEGIES, STRATEGY_HELP
    from ..engine.outcome import Reason
    from ..errors import BoardTextError, BoardTooLargeError, CoreMissingError, PegsolverError, UnknownVariantError
    from ..model import boardfile
    from ..model.board import Board
    from ..model.geometry import GRIDS, RULES, SQUARE
    from ..model.goal import Goal, plural
    from ..model.notation import NUMERIC_STYLES, STYLE_WORDS, STYLES, group_moves, hole_name, jump_name, parse_hole
    from ..model.variants import catalogue, find_variant
    from ..proofs.classes import class_finishes, has_classes
    from ..solver import BACKENDS, DEFAULT_TABLE_BYTES, Limit, default_goal, solve
    from ..survey import MARKS, survey_vacancies
    from . import bench, svg
    from . import bench_report as report
    from .columns import align_columns
    from .progress import progress_bar
    from .replay import number_read_two_ways, replay_moves
except KeyboardInterrupt:
    print("pegsolver: interrupted", file=sys.stderr)
    sys.exit(EXIT_INTERRUPTED)
DEFAULT_SECONDS = 60.0
BOARD_FILE_SUFFIXES = (".toml", ".txt")
HOLE_LISTS = ("vacant", "finish")  # options taking several holes
# A word that may be a hole name: d4, aa12, 44, 105 (triangles), or the finish 'any'.
_HOLE_WORD = re.compile(r"[a-z]{1,2}[0-9]{1,3}|[0-9]{1,3}|any|anywhere|fewest", re.IGNORECASE)


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
    s = sub.add_parser("solve", help="find a solution, or show there is none",
                       description="Solve a board from its start to a goal. Exit code: 0 solved, "
                                   "1 no solution (proved or limit reached), 2 bad input, 130 Ctrl-C.")
    add_board_args(s)
    add_vacant_arg(s)
    s.add_argument("--finish", nargs="+", action="extend", metavar="HOLE",
                   help="goal: one peg at HOLE, the exact pattern of several holes, 'any' for one peg anywhere "
                        "(--pegs K for K pegs anywhere), or 'fewest': the fewest pegs the start can be reduced "
                        "to, proved")
    s.add_argument("--pegs", type=int, metavar="K", help="with --finish any (or no --finish): leave K pegs anywhere")
    s.add_argument("--strategy", choices=list(SOLVE_STRATEGIES), default=DEFAULT_STRATEGY,
                   help="; ".join(f"{k}: {v}" for k, v in STRATEGY_HELP.items()) + f" (default: {DEFAULT_STRATEGY})")
    s.add_argument("--backward", action="store_true",
                   help="search backward by complement duality: from the complement of the finish to the "
                        "complement of the start (needs --finish HOLE or a pattern)")
    s.add_argument("--backend", choices=BACKENDS, default="core", help="core (compiled) or reference (pure Python)")
    s.add_argument("--order", choices=ORDERS, help="static jump order to try (default: the strategy's); "
                                                   "down/up/right/left: jumps landing toward that side first")
    s.add_argument("--beam-width", type=int, metavar="W",  # no default: given or not matters
                   help=f"positions the beam keeps per level, with --strategy beam or auto (default: "
                        f"{DEFAULT_BEAM_WIDTH:,}); its memory counts against --table-mb")
    s.add_argument("--nodes", type=int, metavar="N", help="stop after N positions (default: no limit)")
    s.add_argument("--seconds", type=float, default=DEFAULT_SECONDS, metavar="S",
                   help=f"stop after S seconds; 0 for no limit (default: {DEFAULT_SECONDS:g})")
    s.add_argument("--table-mb", type=float, metavar="MB",  # no default: given or not matters
                   help=f"memory for the table of dead positions (or the beam's levels) in MiB "
                        f"(default: {DEFAULT_TABLE_BYTES >> 20})")
    s.add_argument("--no-proofs", dest="proofs", action="store_false",
                   help="no position-class or pagoda proofs and no pagoda pruning: search alone")
    s.add_argument("--boards", action="store_true", help="print the board after each move (text output only)")
    s.add_argument("--svg", metavar="FILE", help="also draw the solution in FILE as SVG: one board per move")

    r = sub.add_parser("replay", help="check a list of moves typed from a book or another program",
                       description="Play moves from the start and report each jump as legal or name the "
                                   "first illegal one and why. Two-digit hole numbers are read column then "
                                   "row (46 = d6) unless --notation numeric-rc; when the other reading is "
                                   "legal too, the output says so. Exit code: 0 all legal, 1 an illegal jump "
                                   "(no such jump on the board, or not possible there), 2 a move that cannot "
                                   "be read (syntax, unknown hole).")
    add_board_args(r)
    r.add_argument("moves", help='moves separated by commas or spaces: "d2-d4, f3-d3" or "46-44 43-45" '
                                 'or multi-jump moves "a4-c4-c2"')
    add_vacant_arg(r)

    c = sub.add_parser("classes", help="for each single vacancy, the finishes its position class allows",
                       description="For each single-vacancy start, list the holes where one final peg is "
                                   "allowed by position class (de Bruijn 1972 on square grids, Bell 2008 on "
                                   "triangles). A finish not listed is impossible; a listed one may still be.")
    add_board_args(c)

    t = sub.add_parser("table", help="solve or disprove every single-vacancy -> single-peg problem of a board",
                       description="For every single-vacancy start and every one-peg finish: solved (and "
                                   "replayed), or proved impossible by position class, pagoda function or "
                                   "exhaustive search. Marks: S solved, c class, p pagoda, x exhausted search, "
                                   "? stopped at the time limit (nothing proved).")
    add_board_args(t)
    t.add_argument("--seconds", type=float, default=120.0, metavar="S",
                   help="time limit of one problem's search (the auto portfolio); 0 for none (default: 120)")

    b = sub.add_parser("boards", help="list the board variants with pictures")
    b.add_argument("--json", action="store_true", help="print a JSON list instead of text")
    b.add_argument("--svg", metavar="DIR", help="also draw each variant's start in DIR/NAME.svg (DIR is created)")

    p = sub.add_parser("play", help="play a board by hand in the terminal, with hints",
                       description="Play in the terminal: click a peg, then its landing hole (or the peg, "
                                   "the peg it jumps and the landing hole). Keys: u undo, r redo, h hint, "
                                   "n new game, v restart from a chosen vacancy, f choose the finish, q quit.")
    add_board_args(p)
    add_vacant_arg(p)
    p.add_argument("--finish", nargs="+", action="extend", metavar="HOLE",
                   help="the finish hints aim for: one peg at HOLE, several holes, or 'any' "
                        "(default: the variant's standard goal)")
    p.add_argument("--seconds", type=float, default=10.0, metavar="S",
                   help="time limit of one hint's search (default: 10)")
    p.set_defaults(strategy="guided")  # the hint's first search; choose_goal reads it
    add_bench_parser(sub)
    add_count_parser(sub)
    return parser


def add_vacant_arg(p) -> None:
    p.add_argument("--vacant", nargs="+", action="extend", metavar="HOLE",
                   help="start with every hole filled except these (e.g. --vacant a3 c1); the list ends "
                        "at a word that is not a hole name")


def add_board_args(p) -> None:
    p.add_argument("variant", nargs="?",
                   help="variant name (english, french, wiegleb, diamond, asymmetric, triangleN, squareN, "
                        "rectRxC, NAME-diagonal) or a board file (.toml, or drawn text); default: english")
    p.add_argument("--board", metavar="FILE", help="read the start from a board file (.toml, or drawn text)")
    p.add_argument("--rules", choices=RULES, help="jump rules of a drawn-text board file (default: orthogonal)")
    p.add_argument("--grid", choices=GRIDS, help="grid of a drawn-text board file (triangle = triangular rules)")
    p.add_argument("--notation", choices=STYLES, default="algebraic",
                   help="hole names on square boards: algebraic (d4), numeric (two digits, column then row: "
                        "d6 is 46) or numeric-rc (row then column: d6 is 64); also how hole numbers given "
                        "are read (default: algebraic, numbers read column then row)")
    p.add_argument("--json", action="store_true", help="print JSON instead of text")


def _is_variant(name: str) -> bool:
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
    if _is_variant(spec):
        if os.path.lexists(spec):
            print(f"pegsolver: note: {spec!r} is read as the variant {find_variant(spec).name}, not as the "
                  f"file of that name here; to read the file, write ./{spec} or --board {spec}", file=sys.stderr)
        return False
    return Path(spec).suffix != "" or os.path.lexists(spec)


def check_notation(args, board: Board) -> None:
    """Refuse two-digit hole numbers before any work on a board they cannot name."""
    style = getattr(args, "notation", None)
    if style in NUMERIC_STYLES and board.shape.grid == SQUARE:
        rows = max(r for r, _ in board.shape.coords) + 1
        cols = max(c for _, c in board.shape.coords) + 1
        if rows > 9 or cols > 9:
            raise PegsolverError(f"--notation {style} needs at most 9 rows and columns; board "
                                 f"{board.shape.name!r} has {rows} rows and {cols} columns")


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


def load_start(args) -> tuple[Board, Goal | None]:
    """The start board (with ``--vacant`` applied) and the goal a board file gives (or None)."""
    board, file_goal = load_board(args)
    board = with_vacant(board, getattr(args, "vacant", None), args.notation)
    check_notation(args, board)
    return board, file_goal


def load_board(args) -> tuple[Board, Goal | None]:
    """The board a variant name, board file or ``--board`` gives, and the file's goal (or None)."""
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
        path = Path(spec)
        if path.suffix.lower() == ".toml":
            board, file_goal = boardfile.load(path)
        else:
            text = boardfile.read_file(path)
            try:
                board = Board.from_text(text, grid=args.grid, name=path.stem, rules=args.rules)
            except (BoardTextError, BoardTooLargeError) as e:
                raise type(e)(f"board file {spec!r}, {e}") from None
    else:
        board = find_variant(args.variant or "english").board()
    return board, file_goal


def choose_goal(args, board: Board, file_goal: Goal | None) -> Goal:
    pegs = getattr(args, "pegs", None)
    if pegs is not None:
        if args.finish and [w.lower() for w in args.finish] not in (["any"], ["anywhere"]):
            raise PegsolverError(f"--pegs {pegs} leaves pegs anywhere: use it alone or with --finish any, "
                                 f"not with --finish {' '.join(args.finish)}")
        if pegs < 1:
            raise PegsolverError(f"--pegs must be at least 1, not {pegs}")
        return Goal.anywhere(pegs)
    if not args.finish:
        return file_goal or default_goal(board, args.strategy)
    words = [w for w in args.finish if w.lower() in ("any", "anywhere", "fewest")]  # each stands alone
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


def print_text(sol, show_boards: bool, style: str) -> None:
    """The answer after :func:`print_problem`: strategy, moves, final position, stats."""
    st = sol.stats
    shape = sol.start.shape
    name = lambda h: hole_name(shape, h, style)  # noqa: E731
    print(f"strategy: {st.strategy} ({STRATEGY_HELP[st.strategy]}), backend: {st.backend}, "
          f"symmetries used: {st.symmetries}, direction: {st.direction}")
    if st.member:
        print(f"answered by: {st.member} (after {plural(st.runs, 'run')} of the portfolio)")
    if sol.goal.fewest_pegs and sol.solved:
        print(f"fewest pegs: {sol.explanation}")
    if sol.solved or sol.jumps:
        print(f"{'solved' if sol.solved else 'best found'}: {plural(len(sol.jumps), 'jump')} in "
              f"{plural(len(sol.moves), 'move')}, {plural(sol.final.peg_count, 'peg')} left")
        board = sol.start.with_pegs(sol.start.pegs_mask)
        if show_boards:
            print(board.to_text())
        for i, (move, text) in enumerate(zip(sol.moves, sol.move_names(style)), 1):
            print(f"{i:3d}. {text}")
            if show_boards:
                for j in move:
                    board.push(j)
                print(board.to_text() + "\n")
        print("final: " + " ".join(name(h) for h in sol.final.pegs()))
    if not sol.solved:
        print(unsolved_text(sol))
    print(f"stats: tests {st.tests:,}  nodes {st.nodes:,}  dead ends {st.dead_ends:,}  "
          f"table hits {st.table_hits:,}  table entries {st.table_entries:,}  "
          f"table {st.table_bytes / 2**20:.2f} MiB  pagoda prunes {st.pagoda_prunes:,}  seconds {st.seconds:.6f}")


def unsolved_text(sol) -> str:
    """Why a solve() answer is not solved, for the text output."""
    if sol.reason.proves_impossible:
        return f"impossible: {sol.explanation}"
    if sol.stats.strategy == "auto" or sol.goal.fewest_pegs:  # the explanation says what ran
        return f"not solved: {sol.explanation}"
    if sol.reason is Reason.BEAM:
        return ("not solved: the beam kept too few positions per level to reach the goal (a wider "
                "--beam-width may); nothing proved")
    why = "Ctrl-C" if sol.reason is Reason.INTERRUPTED else f"the {sol.reason}"
    return (f"not solved: stopped by {why} before a solution was found; nothing proved "
            f"(the default strategy, auto, tries the other strategies too)")


def cmd_solve(args) -> int:
    # Options that would do nothing here are refused, not silently ignored.
    if args.beam_width is not None and args.strategy not in ("beam", "auto"):
        raise PegsolverError(f"--beam-width applies to --strategy beam (or auto), not to --strategy {args.strategy}")
    if args.boards and args.json:
        raise PegsolverError("--boards draws the boards in the text output; --json has none: use one of them")
    if args.order is not None and args.strategy == "seed":
        raise PegsolverError("--order does nothing with --strategy seed: the seed scans holes row by row")
    if args.table_mb is not None and args.strategy in ("seed", "dfs"):
        raise PegsolverError(f"--table-mb does nothing with --strategy {args.strategy}, which keeps no table")
    board, file_goal = load_start(args)
    goal = choose_goal(args, board, file_goal)
    memory = None if args.table_mb is None else \
        limits.check_memory(args.table_mb, "--table-mb", high=limits.MAX_SEARCH_BYTES, unit=limits.MIB)
    limit = Limit(nodes=None if args.nodes is None else limits.check_nodes(args.nodes, "--nodes"),
                  seconds=limits.check_seconds(args.seconds, "--seconds", zero_is_none=True), memory_bytes=memory)
    svg_path = svg.check_writable(args.svg) if args.svg else None  # before a long search, not after
    if not args.json:
        print_problem(board, goal, args.notation)
    with progress_bar("searching") as bar:  # a status line, on a terminal only
        def progress(p):
            fewest = "" if p.fewest_left is None else f", fewest pegs met {p.fewest_left}"
            rate = p.nodes / p.seconds if p.seconds > 0 else 0
            bar.status(f"round {p.round}, {p.member}, {p.nodes:,} nodes, {rate:,.0f} nodes/s{fewest}")
        sol = solve(board, goal, strategy=args.strategy, limit=limit, backend=args.backend, proofs=args.proofs,
                    order=args.order, backward=args.backward, beam_width=args.beam_width, progress=progress)
    if svg_path:
        write_solution_svg(svg_path, sol, args.notation)
    if args.json:
        print(json.dumps(sol.to_json(args.notation)))
    else:
        print_text(sol, args.boards, args.notation)
    if sol.solved:
        return EXIT_SOLVED
    return EXIT_INTERRUPTED if sol.reason is Reason.INTERRUPTED else EXIT_UNSOLVED


def write_solution_svg(path: Path, sol, style: str) -> None:
    """Draw a solution (or, unsolved, its start and the reason) in an SVG file.

    :raises OutputFileError: the file cannot be written.
    """
    shape = sol.start.shape
    vacant = " ".join(hole_name(shape, h, style) for h in sol.start.vacancies()) or "no hole"
    heading = f"{shape.name}: {vacant} vacant, goal {sol.goal.describe(shape, style)}"
    if sol.solved:
        text = svg.solution_svg(sol.start, sol.jumps,
                                f"{heading}: {plural(len(sol.jumps), 'jump')} in {plural(len(sol.moves), 'move')}",
                                style)
    else:
        text = svg.board_svg(sol.start, f"{heading}: not solved ({sol.reason})", style)
    svg.write_svg(path, text)


def write_board_svgs(folder: str) -> int:
    """Draw each catalogued variant's start in ``folder/NAME.svg``; returns the number of files.

    :raises OutputFileError: the folder cannot be created or a file cannot be written.
    """
    path = svg.check_writable(folder, directory=True)
    variants = catalogue()
    for v in variants:
        board = v.board()
        shape = board.shape
        title = (f"{v.name}: {plural(shape.size, 'hole')}, {' '.join(v.vacant)} vacant, "
                 f"goal {v.goal(shape).describe(shape)}")
        svg.write_svg(path / f"{svg.safe_file_name(v.name)}.svg", svg.board_svg(board, title))
    return len(variants)


def other_reading(args, base: Board, report) -> dict | None:
    """When the move list (or ``--vacant``) holds two-digit hole numbers that read differently
    column-row and row-column: the reading used and whether the other one is legal too."""
    example = number_read_two_ways(base.shape, [args.moves] + (args.vacant or []))
    if example is None:
        return None
    used = "numeric-rc" if args.notation == "numeric-rc" else "numeric"
    other = "numeric" if used == "numeric-rc" else "numeric-rc"
    try:
        alt = replay_moves(with_vacant(base, args.vacant, other), args.moves, other)
        other_legal = alt.error is None
    except PegsolverError:
        other_legal = False
    return {"used": used, "other": other, "other_legal": other_legal, "used_legal": report.error is None,
            "example": example}


def reading_text(shape, reading: dict | None) -> str:
    """The note on two readings of hole numbers, when the other one is legal too."""
    if not reading or not reading["other_legal"]:
        return ""
    number = reading["example"]

    def read(style):
        try:
            where = hole_name(shape, parse_hole(shape, number, style))
        except PegsolverError:
            where = "no hole"
        return f"{STYLE_WORDS[style]} ({number} is {where}, --notation {style})"
    if reading["used_legal"]:
        return (f"hole numbers were read {read(reading['used'])}; read {read(reading['other'])}, the moves are "
                "legal too: check which way the source numbers its holes")
    return f"hole numbers were read {read(reading['used'])}; read {read(reading['other'])}, every move is legal"


def cmd_replay(args) -> int:
    if args.variant is None and args.board is None and _is_variant(args.moves):
        raise PegsolverError(f"no moves to replay: {args.moves!r} names a board; give the moves after it, "
                             f"e.g. pegsolver replay {args.moves} \"MOVE MOVE ...\"")
    base, _ = load_board(args)
    board = with_vacant(base, args.vacant, args.notation)
    check_notation(args, board)
    report = replay_moves(board, args.moves, args.notation)
    reading = other_reading(args, base, report)
    shape = board.shape
    name = lambda h: hole_name(shape, h, args.notation)  # noqa: E731
    final = report.board
    if args.json:
        print(json.dumps({
            "legal": report.error is None,
            "board": shape.name,
            "jumps": [jump_name(shape, j, args.notation) for j in report.jumps],
            "jump_count": len(report.jumps),
            "move_count": len(group_moves(report.jumps)),
            "error": None if report.error is None else {
                "move": report.error_index + 1, "text": report.error_text, "reason": report.error},
            "final": [name(h) for h in final.pegs()],
            "pegs_left": final.peg_count,
            "final_board": final.to_text(),
            "numbers": None if reading is None else {k: reading[k] for k in ("used", "other", "other_legal")},
        }))
    else:
        print(f"board: {shape.name} ({plural(shape.size, 'hole')}, {shape.rules} jumps)")
        for k, (text, jumps) in enumerate(report.moves, 1):
            print(f"{k:3d}. {text:<12} ok ({len(jumps)} jump{'s' * (len(jumps) != 1)})")
        if report.error is not None:
            label = "UNREADABLE" if report.unreadable else "ILLEGAL"
            print(f"{report.error_index + 1:3d}. {report.error_text:<12} {label}: {report.error}")
        print(final.to_text())
        print(f"jumps: {len(report.jumps)}, moves: {len(group_moves(report.jumps))}, pegs left: {final.peg_count}"
              + ("" if report.error is None else " (stopped at the illegal move)"))
        if reading_text(shape, reading):
            print(f"note: {reading_text(shape, reading)}")
    if report.error is None:
        return EXIT_SOLVED
    return EXIT_USAGE if report.unreadable else EXIT_UNSOLVED


def cmd_boards(args) -> int:
    entries = []
    for v in catalogue():
        board = v.board()
        shape = board.shape
        entries.append({
            "name": v.name, "aliases": list(v.aliases), "holes": shape.size, "rules": shape.rules,
            "symmetries": len(shape.symmetries), "vacant": list(v.vacant),
            "goal": v.goal(shape).describe(shape), "description": v.description, "picture": board.to_text()})
    drawn = write_board_svgs(args.svg) if args.svg else 0
    if args.json:
        print(json.dumps(entries))
        return EXIT_SOLVED
    for e in entries:
        aliases = f" (also: {', '.join(e['aliases'])})" if e["aliases"] else ""
        print(f"{e['name']}{aliases}: {e['holes']} holes, {e['rules']} jumps, {e['symmetries']} symmetries")
        print(f"  {e['description']}")
        print("\n".join("    " + line for line in e["picture"].splitlines()) + "\n")
    print("Families: triangleN (any side), squareN, rectRxC; NAME-diagonal adds diagonal jumps on square grids.")
    if drawn:
        print(f"svg: {drawn} pictures in {args.svg}")
    return EXIT_SOLVED


def cmd_classes(args) -> int:
    board, _ = load_start(args)
    shape = board.shape
    if not has_classes(shape):
        raise PegsolverError(f"board {shape.name!r} with {shape.rules} jumps has no position classes")
    name = lambda h: hole_name(shape, h, args.notation)  # noqa: E731
    table = {name(v): [name(f) for f in class_finishes(shape, shape.full_mask & ~(1 << v))]
             for v in range(shape.size)}
    if args.json:
        print(json.dumps({"board": shape.name, "finishes": table}))
        return EXIT_SOLVED
    print(f"board: {shape.name} ({plural(shape.size, 'hole')}); one-peg finishes allowed by position class:")
    width = max(len(k) for k in table)
    for vacancy, finishes in table.items():
        print(f"  {vacancy:>{width}} -> {' '.join(finishes) if finishes else 'none (impossible)'}")
    return EXIT_SOLVED


def cmd_table(args) -> int:
    board, _ = load_start(args)
    shape = board.shape
    seconds = limits.check_seconds(args.seconds, "--seconds", zero_is_none=True)
    name = lambda h: hole_name(shape, h, args.notation)  # noqa: E731
    t0 = time.perf_counter()
    with progress_bar("problems", shape.size ** 2) as bar:
        entries = survey_vacancies(board, seconds, progress=lambda done, total: bar.advance())
    seconds = time.perf_counter() - t0
    counts = Counter(e.reason for e in entries)
    if args.json:
        print(json.dumps({
            "board": shape.name, "seconds": seconds, "counts": dict(counts),
            "entries": [{"vacancy": name(e.vacancy), "finish": name(e.finish), "reason": e.reason,
                         "jumps": [jump_name(shape, j, args.notation) for j in e.jumps],
                         "nodes": e.nodes, "seconds": e.seconds,
                         "mapped_from": None if e.mapped_from is None else [name(h) for h in e.mapped_from]}
                        for e in entries]}))
    else:
        width = max(len(name(h)) for h in range(shape.size)) + 1
        grid = {(e.vacancy, e.finish): MARKS.get(e.reason, "?") for e in entries}
        grid.update({(v, f): " " for v in range(shape.size) for f in range(shape.size) if (v, f) not in grid})
        print(f"board: {shape.name}; rows: vacancy, columns: finish; "
              "S solved, c position class, p pagoda, x exhausted search, ? not settled")
        print(" " * width + "".join(f"{name(f):>{width}}" for f in range(shape.size)))
        for v in range(shape.size):
            print(f"{name(v):>{width}}" + "".join(f"{grid[(v, f)]:>{width}}" for f in range(shape.size)))
        print(", ".join(f"{k}: {c}" for k, c in sorted(counts.items())) + f"; {seconds:.1f} s")
    if entries and entries[-1].reason is Reason.INTERRUPTED:
        print(f"interrupted by Ctrl-C after {len(entries) - 1} of {shape.size ** 2} problems", file=sys.stderr)
        return EXIT_INTERRUPTED
    return EXIT_SOLVED if all(e.reason in MARKS for e in entries) else EXIT_UNSOLVED


def cmd_play(args) -> int:
    if args.json:
        raise PegsolverError("play is interactive: --json does not apply to it")
    board, file_goal = load_start(args)
    goal = choose_goal(args, board, file_goal).resolve(board.shape)
    goal.check(board.shape, board.pegs_mask)
    limits.check_seconds(args.seconds, "--seconds")
    if not (sys.stdin.isatty() and sys.stdout.isatty()):
        raise PegsolverError("play needs an interactive terminal, and standard input or output is not one")
    from .play import run  # Textual is loaded only to play

    run(board, goal, args.notation, args.seconds)
    return EXIT_SOLVED


def add_bench_parser(sub) -> None:
    """The ``bench`` subcommand's arguments."""
    n = sub.add_parser("bench", help="compare the search strategies on the standard problem set",
                       description="Solve each problem of the standard set with each strategy variant under a "
                                   "limit per run, and print a table per problem: tests, nodes, table entries, "
                                   "table memory, wall seconds and speed relative to the seed search. Exit code: "
                                   "0 done (runs stopped by a limit included), 1 an answer contradicting the "
                                   "problem set, 2 bad input, 130 Ctrl-C (what finished is printed).")
    n.add_argument("--problems", nargs="+", action="extend", metavar="NAME",
                   help="problems to run, by name (default: all; --list)")
    n.add_argument("--strategies", nargs="+", action="extend", metavar="NAME",
                   help=f"strategy variants to run (default: all): {', '.join(bench.BENCH_STRATEGIES)}")
    n.add_argument("--nodes", type=int, default=bench.DEFAULT_NODES, metavar="N",
                   help=f"stop a run after N positions; 0 for no limit (default: {bench.DEFAULT_NODES:,})")
    n.add_argument("--seconds", type=float, default=bench.DEFAULT_SECONDS, metavar="S",
                   help=f"stop a run after S seconds; 0 for no limit (default: {bench.DEFAULT_SECONDS:g})")
    out = n.add_mutually_exclusive_group()
    out.add_argument("--json", action="store_true", help="print every result as one JSON object")
    out.add_argument("--summary", action="store_true",
                     help="print only a markdown table: per problem the fastest strategy and its speed "
                          "relative to the seed search and the pure-Python reference")
    out.add_argument("--list", action="store_true", help="list the problems and strategy variants, run nothing")
    n.add_argument("--csv", metavar="FILE", help="also write one CSV row per run to FILE")
    n.add_argument("--plot", metavar="FILE", help="also draw work and time per strategy in FILE (.png, .svg, .pdf)")


def cmd_bench(args) -> int:
    problem_set = bench.load_problems()
    if args.list:
        for p in problem_set.problems:
            print(f"{p.name}: {p.describe()} (expected: {p.expect}{', small' if p.small else ''})\n  {p.source}")
        print(f"problem set v{problem_set.version}\nstrategies:")
        for name, kwargs in bench.BENCH_STRATEGIES.items():
            print(f"  {name}: solve({', '.join(f'{k}={v!r}' for k, v in kwargs.items())})")
        return EXIT_SOLVED
    limit = bench.default_limit(nodes=limits.check_nodes(args.nodes, "--nodes", zero_is_none=True),
                                seconds=limits.check_seconds(args.seconds, "--seconds", zero_is_none=True))
    plan = bench.plan_bench(args.problems, args.strategies, problem_set)
    if not plan.runs:  # every chosen pair skipped: say why instead of an empty report
        raise PegsolverError("nothing to run: " + "; ".join(f"{k.strategy} on {k.problem}: {k.why}"
                                                            for k in plan.skipped))
    # Output files are checked before the runs, so that a long bench is not lost at the end.
    csv_path = report.check_output_path(args.csv, "CSV file") if args.csv else None
    plot_path = report.check_output_path(args.plot, "chart", report.PLOT_SUFFIXES) if args.plot else None
    with progress_bar("bench", len(plan.runs)) as bar:
        run = bench.run_bench(plan, limit, before=lambda p, s: bar.status(f"{p} / {s}"),
                              after=lambda r: bar.advance())
    if args.json:
        print(json.dumps(run.to_json()))
    elif args.summary:
        print(report.summary_markdown(run))
    else:
        print(report.tables(run, problem_set))
    if csv_path:
        report.write_csv(run, csv_path)
    if plot_path:
        report.write_plot(run, plot_path)
    if run.interrupted:
        print(f"interrupted by Ctrl-C after {len(run.results)} of {run.planned} runs", file=sys.stderr)
        return EXIT_INTERRUPTED
    for r in run.unexpected:
        print(f"pegsolver: {r.problem} with {r.strategy}: {r.unexpected}", file=sys.stderr)
    return EXIT_UNSOLVED if run.unexpected else EXIT_SOLVED


def add_count_parser(sub) -> None:
    """The ``count`` subcommand's arguments."""
    c = sub.add_parser("count", help="enumerate every reachable position: levels, winning positions, solutions",
                       description="Enumerate every position reachable from the start, level by level (one level "
                                   "per jump), up to the symmetries that fix the start and finish; count the jump "
                                   "sequences reaching each, the complete games, and with --finish the winning "
                                   "positions and the solutions. --table: the number of solutions of every "
                                   "single-vacancy -> single-peg problem. Exit code: 0 complete, 1 stopped by a "
                                   "limit, 2 bad input (including a board too large for the memory budget), "
                                   "130 Ctrl-C.")
    add_board_args(c)
    add_vacant_arg(c)
    c.add_argument("--finish", metavar="HOLE", help="one-peg finish: also count winning positions and solutions")
    c.add_argument("--table", action="store_true",
                   help="solutions of every single-vacancy -> single-peg problem instead of one start")
    c.add_argument("--unreduced", action="store_true", help="count every position, not symmetry classes")
    c.add_argument("--threads", type=int, metavar="N",
                   help="threads, a power of two up to 64 (default: the CPUs available, rounded down to one)")
    c.add_argument("--memory-gb", type=float, metavar="GB",
                   help="memory budget in GiB (default: 3/4 of the memory available)")
    c.add_argument("--seconds", type=float, default=0.0, metavar="S", help="time limit; 0 for none (default)")
    c.add_argument("--force", action="store_true",
                   help="run even when the up-front estimate is over the memory budget")


def cmd_count(args) -> int:
    board, _ = load_start(args)
    shape = board.shape
    name = lambda h: hole_name(shape, h, args.notation)  # noqa: E731
    memory = None if args.memory_gb is None else \
        limits.check_memory(args.memory_gb, "--memory-gb", low=limits.MIB, unit=limits.GIB)
    limit = Limit(seconds=limits.check_seconds(args.seconds, "--seconds", zero_is_none=True), memory_bytes=memory,
                  threads=None if args.threads is None else limits.check_threads(args.threads, "--threads"))
    if args.table:
        if args.finish or args.vacant:
            raise PegsolverError("--table covers every vacancy and finish; drop --vacant and --finish")
        if args.unreduced:
            raise PegsolverError("--unreduced does not apply to --table, which counts solutions, not positions; "
                                 "drop one of them")
        try:
            with progress_bar("vacancies", shape.size) as bar:
                table = analysis.solution_counts(shape, progress=lambda v: bar.advance(), limit=limit,
                                                 force=args.force)
        except analysis.AnalysisStopped as stop:
            print(f"pegsolver: {stop}", file=sys.stderr)
            return EXIT_INTERRUPTED if stop.reason is Reason.INTERRUPTED else EXIT_UNSOLVED
        return print_solution_table(shape, table, args.json, name)
    finish = parse_hole(shape, args.finish, args.notation) if args.finish else None
    with progress_bar("levels", board.peg_count) as bar:
        def progress(k, n):
            bar.advance()
            bar.status(f"{n:,} positions after {k} jumps")
        result = analysis.analyse(board, finish, reduced=not args.unreduced, progress=progress,
                                  keep_positions=finish is not None, limit=limit, force=args.force)
    if args.json:
        print(json.dumps(result.to_json(name)))
    else:
        print_analysis(result, name)
    if result.stopped is Reason.INTERRUPTED:
        return EXIT_INTERRUPTED
    return EXIT_UNSOLVED if result.stopped else EXIT_SOLVED


def print_analysis(a, name) -> None:
    shape = a.start.shape
    vacant = " ".join(name(h) for h in a.start.vacancies())
    kind = (f"one per symmetry class ({a.symmetries} symmetries fix the start{' and finish' if a.finish else ''})"
            if a.symmetries > 1 else "every position (no symmetry used)")
    print(f"board: {shape.name} ({plural(shape.size, 'hole')}), vacant: {vacant or 'none'}; positions counted: {kind}")

    def num(x):
        return "?" if x is None else f"{x:,}"
    headers = ["jumps", "pegs", "positions", "dead ends", "sequences"] + (["winning"] if a.finish is not None else [])
    rows = [[str(lv.jumps), str(lv.pegs), num(lv.positions), num(lv.dead_ends), num(lv.sequences)]
            + ([num(lv.winning)] if a.finish is not None else []) for lv in a.levels]
    print(align_columns(headers, rows, ("right",) * len(headers)))
    print(f"total positions: {a.total:,}")
    if a.winning is not None:
        print(f"winning positions (on some solution to {name(a.finish)}): {a.winning:,}")
    if a.finish is not None and a.solutions is not None:
        print(f"solutions ending at {name(a.finish)}: {a.solutions:,}")
    if a.finishes:
        print("solutions by finish: " + ", ".join(f"{name(h)} {n:,}" for h, n in sorted(a.finishes.items())))
    elif not a.stopped:
        print("no one-peg finish")
    if a.games is not None:
        print(f"complete games (played until no jump is left): {a.games:,}")
    print(f"{a.message}; {a.seconds:.2f} s, {a.threads} thread(s), peak {a.peak_bytes / 2**20:,.0f} MiB")


def print_solution_table(shape, table, as_json, name) -> int:
    if as_json:
        print(json.dumps({"board": shape.name, "solutions": {
            name(v): {name(f): table[(v, f)] for f in range(shape.size) if table[(v, f)]}
            for v in range(shape.size)}, "total": sum(table.values())}))
        return EXIT_SOLVED
    rows = [[name(v), f"{sum(table[(v, f)] for f in range(shape.size)):,}"]
            + [f"{table[(v, f)]:,}" if table[(v, f)] else "" for f in range(shape.size)] for v in range(shape.size)]
    print(f"board: {shape.name}; solutions of each vacancy (row) -> finish (column) problem; blank: none")
    print(align_columns(["vacancy", "all"] + [name(f) for f in range(shape.size)], rows,
                        ("right",) * (shape.size + 2)))
    print(f"total: {sum(table.values()):,} solutions; solvable pairs: {sum(1 for n in table.values() if n):,}")
    return EXIT_SOLVED


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
