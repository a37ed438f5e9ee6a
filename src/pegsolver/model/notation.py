"""Names of holes, jumps and moves.

Square grids use algebraic coordinates: columns ``a, b, ...`` from the left (``z`` is
followed by ``aa``), rows ``1, 2, ...`` from the top, so the English centre is ``d4``.
They also read and write the two-digit column-row numbering of the English literature
(style ``"numeric"``): the English centre is ``44`` and ``d6-d4`` is ``46-44``; and the
row-column numbering of BASIC ports (style ``"numeric-rc"``: ``d6-d4`` is ``64-44``).
Both need at most 9 columns and rows. The API also takes 0-based ``(row, col)`` through
``Shape.index`` / ``Shape.coords``.
Triangular grids number holes row by row from the apex, ``1 .. n(n+1)/2``; on the
15-hole triangle the apex is ``1``, the second row ``2 3`` and the bottom row
``11 .. 15``. A jump is written ``from-to`` (``d2-d4``, ``1-4``); a move, several jumps
by one peg, lists every landing hole (``d2-d4-f4``).
"""
from __future__ import annotations

import re
from collections.abc import Sequence

from ..errors import IllegalJumpError, InvalidJumpError, PegsolverError, UnknownHoleError
from .geometry import SQUARE, Hole, Jump, Shape


def column_letters(col: int) -> str:
    """0 -> 'a', 25 -> 'z', 26 -> 'aa'."""
    out = ""
    col += 1
    while col:
        col, rem = divmod(col - 1, 26)
        out = chr(ord("a") + rem) + out
    return out


def _column_index(letters: str) -> int:
    col = 0
    for ch in letters:
        col = col * 26 + (ord(ch) - ord("a") + 1)
    return col - 1


STYLES = ("algebraic", "numeric", "numeric-rc")
NUMERIC_STYLES = ("numeric", "numeric-rc")
STYLE_WORDS = {"numeric": "column then row", "numeric-rc": "row then column"}


def check_style(style: object) -> None:
    """:raises PegsolverError: ``style`` is not one of :data:`STYLES`."""
    if style not in STYLES:
        raise PegsolverError(f"unknown notation style {style!r}: choose {', '.join(STYLES)}")


def hole_name(shape: Shape, hole: Hole, style: str = "algebraic") -> str:
    """Name of a hole in the board's notation.

    :param style: ``"algebraic"`` (``d4``), ``"numeric"`` (``44``, column digit first) or
        ``"numeric-rc"`` (row digit first) on square grids; triangles always use their numbering.
    :raises InvalidJumpError: a numeric style on a board wider or taller than 9.
    :raises PegsolverError: an unknown style.
    """
    check_style(style)
    if shape.grid != SQUARE:
        return str(hole + 1)
    r, c = shape.coords[hole]
    if style in NUMERIC_STYLES:
        if r > 8 or c > 8:
            raise InvalidJumpError(f"two-digit hole numbers need at most 9 rows and columns; "
                                   f"board {shape.name!r} is larger")
        return f"{c + 1}{r + 1}" if style == "numeric" else f"{r + 1}{c + 1}"
    return f"{column_letters(c)}{r + 1}"


def span(shape: Shape) -> tuple[int, int]:
    """The rows and columns the holes of ``shape`` span from row and column 0."""
    return max(r for r, _ in shape.coords) + 1, max(c for _, c in shape.coords) + 1


def is_hole_number(text: str) -> bool:
    """True for a two-digit square-grid hole number (``44``), whose reading depends on the style."""
    name = text.strip()
    return len(name) == 2 and name.isascii() and name.isdigit() and "0" not in name


_SQUARE_NAME = re.compile(r"([a-z]+)([0-9]+)")


def parse_hole(shape: Shape, text: str, style: str | None = None) -> Hole:
    """Hole index from its name.

    :param style: ``"numeric-rc"`` reads two-digit numbers row first; any other style (or
        None) reads them column first. Algebraic names are read in every style.
    :raises UnknownHoleError: the name is malformed or names no hole of this board, or is a
        two-digit number on a square board of more than 9 rows or columns.
    :raises PegsolverError: an unknown style.
    """
    if style is not None:
        check_style(style)
    name = text.strip().lower()
    if len(name) > 12:   # no hole's name is longer; int() of 4,300 digits raised its own ValueError
        raise UnknownHoleError(f"no hole {text[:20]!r}{'...' if len(text) > 20 else ''} on board {shape.name!r}")
    if shape.grid == SQUARE:
        if is_hole_number(name):
            rows, cols = span(shape)
            if rows > 9 or cols > 9:   # as hole_name: two digits cannot name every hole
                raise UnknownHoleError(f"{text!r}: two-digit hole numbers need at most 9 rows and columns; "
                                       f"board {shape.name!r} has {rows} rows and {cols} columns: name holes "
                                       "by letter and row (a1)")
            if style == "numeric-rc":
                rc, where = (int(name[0]) - 1, int(name[1]) - 1), f"row {name[0]}, column {name[1]}"
            else:
                rc, where = (int(name[1]) - 1, int(name[0]) - 1), f"column {name[0]}, row {name[1]}"
            if rc in shape.index:
                return shape.index[rc]
            raise UnknownHoleError(f"no hole {text!r} ({where}) on board {shape.name!r}")
        m = _SQUARE_NAME.fullmatch(name)
        if m:
            rc = (int(m.group(2)) - 1, _column_index(m.group(1)))
            if rc in shape.index:
                return shape.index[rc]
            raise UnknownHoleError(f"no hole {text!r} on board {shape.name!r}")
        raise UnknownHoleError(
            f"{text!r} is not a hole name on board {shape.name!r} "
            "(expected a column letter and a row number like d4, or two digits like 44)")
    if name.isascii() and name.isdigit() and 1 <= int(name) <= shape.size:  # int() reads any script's digits
        return int(name) - 1
    raise UnknownHoleError(f"no hole {text!r} on board {shape.name!r} (holes are numbered 1..{shape.size})")


def jump_name(shape: Shape, jump: Jump, style: str = "algebraic") -> str:
    return f"{hole_name(shape, jump.from_hole, style)}-{hole_name(shape, jump.to_hole, style)}"


def group_moves(jumps: Sequence[Jump]) -> list[list[Jump]]:
    """Split jumps into moves: consecutive jumps by the same peg form one move."""
    moves: list[list[Jump]] = []
    for j in jumps:
        if moves and moves[-1][-1].to_hole == j.from_hole:
            moves[-1].append(j)
        else:
            moves.append([j])
    return moves


def move_name(shape: Shape, move: Sequence[Jump], style: str = "algebraic") -> str:
    return "-".join([hole_name(shape, move[0].from_hole, style)] + [hole_name(shape, j.to_hole, style) for j in move])


def find_jump(shape: Shape, from_hole: Hole, to_hole: Hole) -> Jump:
    """The jump of the board from one hole to another.

    :raises InvalidJumpError: no jump of the board's rules joins the two holes.
    """
    for j in shape.jumps:
        if j.from_hole == from_hole and j.to_hole == to_hole:
            return j
    raise InvalidJumpError(
        f"no jump from {hole_name(shape, from_hole)} to {hole_name(shape, to_hole)} on board {shape.name!r}")


def split_moves(text: str) -> list[str]:
    """Moves of a list separated by commas and/or white space; typographic dashes and
    spaces around a dash (``d2 – d4``) are read as ``d2-d4``. Two commas (or semicolons)
    with no move between them give an empty string there, for the caller to refuse; a
    separator at either end is dropped. Move numbers (``1. d2-d4 2. f3-d3``, as books and
    ``solve`` write a list, or ``1) d2-d4``) are skipped, once checked against the moves' places.

    :raises InvalidJumpError: a move number out of place (``1. d2-d4 3. f3-d3``: a move lost
        in copying the list).
    """
    # a dash joins the words on either side; one with no word on a side stays an item of its
    # own (a trailing '-' was glued to the move before it, which was then unreadable)
    text = re.sub(r"(?<=\w)\s*[-\u2010-\u2015\u2212]\s*(?=\w)", "-", text.strip())
    text = re.sub(r"[\u2010-\u2015\u2212]", "-", text)
    parts: list[str] = []
    for part in re.split(r"\s*[,;]\s*|\s+", text):
        numbered = re.match(r"(\d+)[.)]", part)   # "1." or "1)"
        if numbered is None:
            parts.append(part)
            continue
        due = sum(1 for p in parts if p) + 1
        if int(numbered.group(1)) != due:
            raise InvalidJumpError(f"move number {numbered.group(0)} stands where move {due} is due: is a move "
                                   f"missing from the list, or the numbering wrong?")
        if part[numbered.end():]:   # "1.d2-d4"
            parts.append(part[numbered.end():])
    while parts and not parts[-1]:
        parts.pop()
    while parts and not parts[0]:
        parts.pop(0)
    return parts


def _jump_over(shape: Shape, from_hole: Hole, over: Hole, to_hole: Hole) -> bool:
    return Jump(from_hole, over, to_hole) in shape.jump_set


def parse_move(shape: Shape, text: str, style: str | None = None) -> list[Jump]:
    """Jumps of a move written ``a-b`` or ``a-b-c...`` (algebraic names, or hole numbers
    read as ``style`` says: see :func:`parse_hole`).

    :raises InvalidJumpError: fewer than two holes (syntax).
    :raises UnknownHoleError: a name that is not a hole.
    :raises IllegalJumpError: two holes of the board that no jump joins; when the move
        reads as from-over-to (``4-2-1``: 4 jumps 2 into 1) the message says so.
    """
    parts = [p for p in text.strip().split("-")]
    if len(parts) < 2 or any(not p for p in parts):
        raise InvalidJumpError(f"{text!r} is not a jump or move (expected holes joined by '-', like d2-d4)")
    holes = [parse_hole(shape, p, style) for p in parts]
    jumps = []
    for k, (a, b) in enumerate(zip(holes, holes[1:])):
        try:
            jumps.append(find_jump(shape, a, b))
        except InvalidJumpError:
            # Two real holes: readable, but the rules have no such jump.
            raise IllegalJumpError(f"no jump from {parts[k].strip()} to {parts[k + 1].strip()} on board "
                                   f"{shape.name!r}" + _from_over_to(shape, parts, holes, k)) from None
    return jumps


def _from_over_to(shape: Shape, parts: list[str], holes: list[Hole], k: int) -> str:
    """A hint when holes k, k+1, k+2 are a jump's from, over and to holes."""
    if k + 2 >= len(holes) or not _jump_over(shape, *holes[k:k + 3]):
        return ""
    # The whole move written from-over-to (a-b-c-d-e: a over b to c, then over d to e)?
    whole = len(holes) % 2 == 1 and all(_jump_over(shape, *holes[i:i + 3]) for i in range(0, len(holes) - 2, 2))
    written = "-".join(parts) if whole else "-".join(parts[k:k + 3])
    meant = "-".join(parts[0::2]) if whole else f"{parts[k]}-{parts[k + 2]}"
    return (f"; {written} reads as from-over-to ({parts[k]} jumps {parts[k + 1]} into {parts[k + 2]}), "
            f"but a jump names only its holes of departure and landing: write {meant}")
