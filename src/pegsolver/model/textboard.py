"""Boards as text: reading the two common formats and writing one documented format.

Formats read (chosen by the characters present; mixing them is an error):

* seed format, as in the article pegsolver began from: ``x`` peg, ``-`` empty hole,
  ``.`` or space off the board, cells side by side (``..xxx..``);
* common format: ``o``/``O``/``●`` peg, ``.``/``○`` empty hole, space off the board,
  cells side by side or separated by single spaces (``o o . o o``).

In both, ``#`` is off the board too (puzzle sites draw ``##ooo##``), and ``*`` is a peg
when the text has no other peg character: drawings with ``*`` pegs often mark empty holes
``o``, so ``*`` beside ``o`` (or ``x``) is refused as unclear.

Square boards whose holes all sit on alternate character columns are read as spaced.
Triangular boards are drawn with a space between cells, each row offset by one
character, apex at the top (see :mod:`pegsolver.model.geometry` for the coordinates). Rows
may be ragged (an editor stripped their trailing spaces); blank leading and trailing
lines are ignored.

Written format (:func:`format_board`): common format, cells separated by one space,
``o`` peg, ``.`` empty hole, spaces off the board, trailing spaces stripped. The seed
style writes ``x``/``-``/``.`` side by side instead.
"""
from __future__ import annotations

from ..errors import BoardTextError, BoardTooLargeError, text_error
from .geometry import MAX_SHAPE_HOLES, SQUARE, TRIANGLE, Coord, Shape, grid_for

SEED_PEG, SEED_EMPTY, SEED_OFF = "xX", "-", "."
COMMON_PEG, COMMON_EMPTY = "oO●", ".○"
ANY_OFF, STAR_PEG = "#", "*"  # in either format

Cell = tuple[int, int, bool]  # a hole drawn in the text: (line from 1, character column from 0, peg)


def parse_board_text(text: str, grid: str | None = None, name: str = "custom",
                     rules: str | None = None) -> tuple[Shape, int]:
    """Read board text.

    :param grid: ``"square"`` or ``"triangle"``; None: the grid of ``rules``, else square.
    :param rules: jump rules (see :class:`~pegsolver.model.geometry.Shape`); None: the grid's usual.

    :returns: ``(shape, pegs)``, pegs a bitboard over the shape's holes.
    :raises BoardTextError: empty text, tabs, unknown or mixed characters, holes off the
        triangular lattice, no holes or no pegs; the message names the line.
    """
    if not isinstance(text, str):
        raise BoardTextError(f"board text must be a string, not {type(text).__name__}")
    grid = grid_for(grid, rules)
    lines = text.replace("\r\n", "\n").replace("\r", "\n").split("\n")
    seed_chars = set(SEED_PEG + SEED_EMPTY)
    common_chars = set(COMMON_PEG + "○")
    present = set(text)
    if present & seed_chars and present & common_chars:
        raise BoardTextError("board text mixes the seed format (x, -) with the o/. format; use one of them")
    other_pegs = sorted(present & set(SEED_PEG + COMMON_PEG))
    if STAR_PEG in present and other_pegs:
        raise BoardTextError(f"board text uses both '*' and {other_pegs[0]!r} for pegs; drawings with '*' pegs "
                             "often mark empty holes 'o', so this is unclear: draw every peg with one character")
    seed = bool(present & seed_chars)
    peg_chars = (SEED_PEG if seed else COMMON_PEG) + STAR_PEG
    empty_chars = SEED_EMPTY if seed else COMMON_EMPTY
    off_chars = " " + ANY_OFF + (SEED_OFF if seed else "")

    cells: list[Cell] = []
    for y, line in enumerate(lines, start=1):
        for x, ch in enumerate(line):
            if ch in peg_chars or ch in empty_chars:
                cells.append((y, x, ch in peg_chars))
                if len(cells) > MAX_SHAPE_HOLES:
                    raise BoardTooLargeError(f"board text has more than {MAX_SHAPE_HOLES} holes, "
                                             "more than any board pegsolver supports")
            elif ch == "\t":
                raise text_error(y, None, "tab character in board text; draw the board with spaces")
            elif ch not in off_chars:
                fmt = ("seed format: x or * peg, - empty, . or # off board" if seed else
                       "o, ● or * peg, . or ○ empty, space or # off board; or the seed format: x peg, - empty")
                raise text_error(y, x + 1, f"unknown character {ch!r} in board text ({fmt})")
    if not cells:
        raise BoardTextError("board text has no holes" if text.strip() else "board text is empty")
    if grid == TRIANGLE:
        coords = _triangle_coords(cells)
    elif grid == SQUARE:
        coords = _square_coords(cells, lines)
    else:
        raise BoardTextError(f"unknown grid {grid!r}; expected square or triangle")
    shape = Shape(grid, tuple(coords), name=name, rules=rules)
    # Shape sorts and shifts coordinates; find each cell's hole through the same shift.
    r0 = min(r for r, _ in coords)
    c0 = min(c for _, c in coords)
    pegs = 0
    for (r, c), (_, _, peg) in zip(coords, cells):
        if peg:
            pegs |= 1 << shape.index[(r - r0, c - c0)]
    if not pegs:
        raise BoardTextError(f"board {name!r} has no pegs")
    return shape, pegs


def _square_coords(cells: list[Cell], lines: list[str]) -> list[Coord]:
    by_line: dict[int, list[int]] = {}
    for y, x, _ in cells:
        by_line.setdefault(y, []).append(x)
    touching = any(_side_by_side(row, lines[y - 1]) for y, row in by_line.items())
    spaced_rows = any(b - a == 2 for row in by_line.values() for a, b in zip(row, row[1:]))
    parity = {x % 2 for _, x, _ in cells}
    if not touching and spaced_rows and len(parity) > 1:
        # Drawn with a space between cells, but some line is shifted by one character:
        # reading it densely would silently give another board.
        counts = {p: sum(1 for _, x, _ in cells if x % 2 == p) for p in (0, 1)}
        first = cells[0][1] % 2   # a tie: the first cell sets the columns (a trial's "o o  o ." named column 1)
        odd_one = 1 - first if counts[1 - first] <= counts[first] else first
        y, x, _ = next(c for c in cells if c[1] % 2 == odd_one)
        raise text_error(y, x + 1, "cells are drawn one space apart, but this one sits between two columns "
                                   "(a line shifted by one character?); a board drawn as a triangle is read "
                                   "on the triangle grid (rules='triangular' or grid='triangle'; on the command line "
                                   "--rules triangular or --grid triangle)")
    if touching:
        _refuse_spaced_line(by_line, lines)
    spaced = not touching and len(parity) == 1 and len({x for _, x, _ in cells}) > 1
    return [(y, x // 2 if spaced else x) for y, x, _ in cells]


def _side_by_side(row: list[int], line: str) -> bool:
    # a line drawn side by side: cells that touch, or one off-board mark (# or the seed format's .) apart,
    # or a cell with an off-board mark beside it (a trial's "#o#" under a spaced line was taken for a shift)
    return any(b - a == 1 or b - a == 2 and line[a + 1] != " " for a, b in zip(row, row[1:])) or any(
        line[x - 1:x].strip() or line[x + 1:x + 2].strip() for x in row)


def _refuse_spaced_line(by_line: dict[int, list[int]], lines: list[str]) -> None:
    # A drawing with cells side by side, where a line of two cells or more has them all
    # one space apart: most likely a board drawn spaced with a typo in another line, which
    # read side by side would silently have no jumps along that line. (# between them is
    # drawn on purpose.)
    for y, row in sorted(by_line.items()):
        if _spaced(row, lines[y - 1]):
            tight = min(t for t, r in by_line.items() if _side_by_side(r, lines[t - 1]))
            # named from this line: a board file's reader counts its own lines (a trial's TOML
            # error gave this line's file number beside the other's number in the drawing)
            k = tight - y
            other = f"the line {'above' if k < 0 else 'below'}" if abs(k) == 1 else \
                f"the line {abs(k)} lines {'above' if k < 0 else 'below'}"
            raise text_error(y, row[1], f"this line's cells are one space apart, but {other} has cells side "
                                        f"by side; draw every line one way: one space apart, or side by side "
                                        f"with # for each place off the board (o#o#o)")


def _spaced(row: list[int], line: str) -> bool:
    # a line drawn one space apart: two cells or more, a space at every odd place from the
    # first, and some sign of it: two cells one space apart, or an off-board mark between
    # spaces (a trial's "o # o"). Three spaces alone ("o   o") may be a gap drawn side by side.
    if len(row) < 2 or any((b - a) % 2 for a, b in zip(row, row[1:])):
        return False
    between = line[row[0]:row[-1] + 1]
    return all(ch == " " for ch in between[1::2]) and (
        any(b - a == 2 for a, b in zip(row, row[1:])) or any(ch != " " for ch in between[2:-1:2]))


def _triangle_coords(cells: list[Cell]) -> list[Coord]:
    parities = {(x + y) % 2 for y, x, _ in cells}
    if len(parities) > 1:
        y, x, _ = next(c for c in cells if (c[0] + c[1]) % 2 != (cells[0][0] + cells[0][1]) % 2)
        raise text_error(y, x + 1, "hole is off the triangular lattice "
                         "(draw one space between cells and offset each row by one character)")
    return [(y, (x + y) // 2) for y, x, _ in cells]


def format_board(shape: Shape, pegs: int, style: str = "common") -> str:
    """Board as text in the written format (see the module docstring).

    :param style: ``"common"`` (``o``/``.``) or ``"seed"`` (``x``/``-``/``.``).
    :raises BoardTextError: unknown style.
    """
    if style not in ("common", "seed"):
        raise BoardTextError(f"unknown board text style {style!r}; expected common or seed")
    peg, empty = ("x", "-") if style == "seed" else ("o", ".")
    if shape.grid == TRIANGLE:
        # Skew (r, c) is drawn at character column 2c - r, shifted to start at 0.
        xs = {h: 2 * c - r for h, (r, c) in enumerate(shape.coords)}
        step, off = 1, " "
    else:
        xs = {h: c for h, (r, c) in enumerate(shape.coords)}
        step, off = (1, ".") if style == "seed" else (2, " ")
    x0 = min(xs.values())
    width = max(xs.values()) - x0
    height = max(r for r, _ in shape.coords) + 1
    rows = [[off] * (width * step + 1) for _ in range(height)]
    for h, (r, _) in enumerate(shape.coords):
        rows[r][(xs[h] - x0) * step] = peg if pegs >> h & 1 else empty
    return "\n".join("".join(row).rstrip() if off == " " else "".join(row) for row in rows)
