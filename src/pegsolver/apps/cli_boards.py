"""Commands about boards and moves: ``replay`` (moves typed by people, checked), ``boards``
(the catalogue), ``classes`` (finishes allowed by position class) and ``play`` (the game)."""
from __future__ import annotations

import argparse
import json
import os
import re
import sys
from typing import TypedDict

from ..engine import limits
from ..errors import PegsolverError
from ..model.board import Board
from ..model.geometry import MAX_SHAPE_HOLES, Hole, Shape
from ..model.goal import plural
from ..model.notation import STYLE_WORDS, group_moves, hole_name, jump_name, parse_hole
from ..model.variants import catalogue
from ..proofs.classes import class_finishes, has_classes
from . import svg
from .cli_args import (
    EXIT_SOLVED,
    EXIT_UNSOLVED,
    EXIT_USAGE,
    Subparsers,
    add_board_args,
    add_vacant_arg,
    check_notation,
    choose_goal,
    is_variant,
    load_board,
    load_start,
    with_vacant,
)
from .cli_values import number
from .output_paths import check_output_dir, check_output_file
from .replay import ReplayReport, number_read_two_ways, replay_moves


class NumberReading(TypedDict):
    """How ``replay`` read two-digit hole numbers that read two ways, and whether each way is legal."""

    used: str  # the notation used: "numeric" or "numeric-rc"
    other: str  # the other one
    other_legal: bool
    used_legal: bool
    example: str  # the first such number


class BoardEntry(TypedDict):
    """One variant as ``boards --json`` lists it."""

    name: str
    aliases: list[str]
    holes: int
    rules: str
    symmetries: int
    vacant: list[str]
    goal: str
    description: str
    picture: str  # the start drawn as text


# a move written with no board before it (d2-d4, 46-44,), or a move's number (1., 2)): not a variant's name
_MOVE_WORD = re.compile(r"([a-z]{0,2}[0-9]{1,3}-)+[a-z]{0,2}[0-9]{1,3}[,;]?|[0-9]{1,3}[.)]", re.IGNORECASE)


def add_replay_parser(sub: Subparsers) -> None:
    """The ``replay`` command's arguments."""
    r = sub.add_parser("replay", help="check a list of moves typed from a book or another program",
                       description="Play moves from the start and report each jump as legal or name the "
                                   "first illegal one and why. Two-digit hole numbers are read column then "
                                   "row (46 = d6) unless --notation numeric-rc; when the other reading is "
                                   "legal too, the output says so. Exit code: 0 all legal, 1 an illegal jump "
                                   "(no such jump on the board, or not possible there), 2 a move that cannot "
                                   "be read (syntax, unknown hole).")
    add_board_args(r)
    # several words too: a trial's unquoted `replay english d2-d4 f3-d3` was refused
    r.add_argument("moves", nargs="+", help='moves separated by commas or spaces: "d2-d4, f3-d3" or 46-44 43-45 '
                                            '(quoted or not) or multi-jump moves a4-c4-c2')
    add_vacant_arg(r)


def add_classes_parser(sub: Subparsers) -> None:
    """The ``classes`` command's arguments."""
    c = sub.add_parser("classes", help="for each single vacancy, the finishes its position class allows",
                       description="For each single-vacancy start, list the holes where one final peg is "
                                   "allowed by position class (de Bruijn 1972 on square grids, Bell 2008 on "
                                   "triangles). A finish not listed is impossible; a listed one may still be.")
    add_board_args(c)


def add_boards_parser(sub: Subparsers) -> None:
    """The ``boards`` command's options."""
    b = sub.add_parser("boards", help="list the board variants with pictures")
    b.add_argument("--json", action="store_true", help="print a JSON list instead of text")
    b.add_argument("--svg", metavar="DIR",
                   help="also draw each variant's start in DIR/NAME.svg (DIR is created; its parent must exist)")


def add_play_parser(sub: Subparsers) -> None:
    """The ``play`` command's options."""
    p = sub.add_parser("play", help="play a board by hand in the terminal, with hints",
                       description="Play in the terminal: click a peg, then its landing hole (or the peg, "
                                   "the peg it jumps and the landing hole). Keys: u undo, r redo, h hint, "
                                   "n new game, v restart from a chosen vacancy, f choose the finish, q quit.")
    add_board_args(p, json=False)   # interactive: no answer to print
    add_vacant_arg(p)
    p.add_argument("--finish", nargs="+", action="extend", metavar="HOLE",
                   help="the finish hints aim for: one peg at HOLE, several holes, or 'any' "
                        "(default: the variant's standard goal)")
    p.add_argument("--seconds", type=number, default=10.0, metavar="S",
                   help="time limit of one hint's search (default: 10)")
    p.set_defaults(strategy="auto")  # the hints' search; choose_goal reads it (the variant's goal)


def write_board_svgs(folder: str) -> int:
    """Draw each catalogued variant's start in ``folder/NAME.svg``; returns the number of files.

    :raises OutputFileError: the folder cannot be created or a file cannot be written.
    """
    path = check_output_dir(folder, "pictures")
    variants = catalogue()
    # every file checked before any is written: a directory in the way left a partial set
    files = [check_output_file(path / f"{svg.safe_file_name(v.name)}.svg", "SVG file", (".svg",)) for v in variants]
    for v, file in zip(variants, files):
        board = v.board()
        shape = board.shape
        title = (f"{v.name}: {plural(shape.size, 'hole')}, {' '.join(v.vacant)} vacant, "
                 f"goal {v.goal(shape).describe(shape)}")
        svg.write_svg(file, svg.board_svg(board, title))
    return len(variants)


def other_reading(args: argparse.Namespace, base: Board, report: ReplayReport) -> NumberReading | None:
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


def reading_text(shape: Shape, reading: NumberReading | None) -> str:
    """The note on two readings of hole numbers, when the other one is legal too."""
    if not reading or not reading["other_legal"]:
        return ""
    number = reading["example"]

    def read(style: str) -> str:
        try:
            where = hole_name(shape, parse_hole(shape, number, style))
        except PegsolverError:
            where = "no hole"
        return f"{STYLE_WORDS[style]} ({number} is {where}, --notation {style})"
    if reading["used_legal"]:
        return (f"hole numbers were read {read(reading['used'])}; read {read(reading['other'])}, the moves are "
                "legal too: check which way the source numbers its holes")
    return f"hole numbers were read {read(reading['used'])}; read {read(reading['other'])}, every move is legal"


def cmd_replay(args: argparse.Namespace) -> int:
    v = args.variant
    if args.board is None and v and _MOVE_WORD.fullmatch(v) and not is_variant(v) and not os.path.lexists(v):
        args.variant, args.moves = None, [v, *args.moves]   # moves alone, unquoted: the default board's
    args.moves = " ".join(args.moves)
    if args.variant is None and args.board is None and is_variant(args.moves):
        raise PegsolverError(f"no moves to replay: {args.moves!r} names a board; give the moves after it, "
                             f"e.g. pegsolver replay {args.moves} \"MOVE MOVE ...\"")
    # a board's name among the moves (a trial's `replay english d2-d4 french`): no move has no '-'
    named = next((w for w in re.split(r"[\s,;]+", args.moves) if w and "-" not in w and is_variant(w)), None)
    if named is not None:
        given = f" (the board is {args.variant or args.board!r} already)" if args.variant or args.board else ""
        raise PegsolverError(f"{named!r} names a board, among the moves{given}: give one board, before the moves")
    base, _ = load_board(args)
    check_notation(args, base)
    board = with_vacant(base, args.vacant, args.notation)
    report = replay_moves(board, args.moves, args.notation)
    reading = other_reading(args, base, report)
    shape = board.shape

    def name(h: Hole) -> str:
        return hole_name(shape, h, args.notation)
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
            "numbers": None if reading is None else {
                "used": reading["used"], "other": reading["other"], "other_legal": reading["other_legal"]},
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
              + ("" if report.error is None else
                 f" (stopped at the {'unreadable' if report.unreadable else 'illegal'} move)"))
        if reading_text(shape, reading):
            print(f"note: {reading_text(shape, reading)}")
    if report.error is None:
        return EXIT_SOLVED
    if report.unreadable:  # bad input: said on stderr too, as every exit 2 is
        print(f"pegsolver: error: move {report.error_index + 1} {report.error_text!r} cannot be read: {report.error}",
              file=sys.stderr)
        return EXIT_USAGE
    return EXIT_UNSOLVED


def cmd_boards(args: argparse.Namespace) -> int:
    entries: list[BoardEntry] = []
    for v in catalogue():
        board = v.board()
        shape = board.shape
        entries.append({
            "name": v.name, "aliases": list(v.aliases), "holes": shape.size, "rules": shape.rules,
            "symmetries": len(shape.symmetries), "vacant": list(v.vacant),
            "goal": v.goal(shape).describe(shape), "description": v.description, "picture": board.to_text()})
    drawn = write_board_svgs(args.svg) if args.svg is not None else 0
    if args.json:
        print(json.dumps(entries))
        return EXIT_SOLVED
    for e in entries:
        aliases = f" (also: {', '.join(e['aliases'])})" if e["aliases"] else ""
        print(f"{e['name']}{aliases}: {e['holes']} holes, {e['rules']} jumps, {e['symmetries']} symmetries")
        print(f"  {e['description']}")
        print("\n".join("    " + line for line in e["picture"].splitlines()) + "\n")
    print(f"Families: triangleN, squareN, rectRxC, of at most {MAX_SHAPE_HOLES} holes (triangle15, square11); "
          "NAME-diagonal adds diagonal jumps on square grids.")
    if drawn:
        print(f"svg: {drawn} pictures in {args.svg}")
    return EXIT_SOLVED


def cmd_classes(args: argparse.Namespace) -> int:
    board, _ = load_start(args)
    shape = board.shape
    if not has_classes(shape):
        raise PegsolverError(f"board {shape.name!r} with {shape.rules} jumps has no position classes")

    def name(h: Hole) -> str:
        return hole_name(shape, h, args.notation)
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


def cmd_play(args: argparse.Namespace) -> int:
    board, file_goal = load_start(args)
    goal = choose_goal(args, board, file_goal).resolve(board.shape)
    goal.check(board.shape, board.pegs_mask)
    limits.check_seconds(args.seconds, "--seconds")
    if not (sys.stdin.isatty() and sys.stdout.isatty()):
        raise PegsolverError("play needs an interactive terminal, and standard input or output is not one")
    from .play import run  # Textual is loaded only to play

    run(board, goal, args.notation, args.seconds)
    return EXIT_SOLVED
