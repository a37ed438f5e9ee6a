"""Pictures of boards and solutions as SVG, written with the standard library.

:func:`board_svg` draws one position (holes named); :func:`solution_svg` draws a
solution as a grid of diagrams, one per move: the position before the move, with the
moving peg, the pegs it jumps and its path to each landing hole marked, then the final
position. :func:`write_svg` saves either. Square grids are drawn square; triangular
grids are drawn as triangles, their skew coordinates ``(row, col)`` put on the plane at
``x = col - row / 2``, ``y = row * sqrt(3) / 2`` (as :func:`pegsolver.engine.compile.centre_distance`
does), so neighbours are one spacing apart in all six directions.

Every peg is a ``<circle>`` whose class includes ``peg`` (``peg mover``: the peg that
moves; ``peg jumped``: a peg it jumps); every hole is a ``<circle class="hole">``; each
diagram is a ``<g class="diagram">``. The diagrams of a solution carry coordinates:
``<text class="coord column">`` above each column and ``<text class="coord row">`` left
of each row on square grids, the hole numbers in the holes on triangles.
"""
from __future__ import annotations

import math
import os
import xml.etree.ElementTree as ET
from collections.abc import Callable, Sequence
from pathlib import Path

from ..errors import OutputFileError, PegsolverError
from ..model.board import Board
from ..model.geometry import SQUARE, Jump, Shape
from ..model.goal import plural
from ..model.notation import column_letters, group_moves, hole_name, move_name

SPACING = 28.0         # px between neighbouring holes
HOLE_RADIUS = 0.36     # in spacings
PEG_RADIUS = 0.30
MARGIN = 0.8           # spacings around a board inside its diagram
TITLE_HEIGHT = 20.0    # px above each board for its caption
HEADING_HEIGHT = 28.0  # px above the grid of diagrams
DEFAULT_COLUMNS = 6

STYLE = """
text { font-family: sans-serif; fill: #333; }
.heading { font-size: 15px; font-weight: bold; }
.caption { font-size: 12px; }
.name { font-size: 8px; text-anchor: middle; dominant-baseline: central; fill: #555; }
.name.on-peg { fill: #fff; }
.coord { font-size: 8px; text-anchor: middle; dominant-baseline: central; fill: #8a7550; }
.panel { fill: #faf6ee; stroke: #d8cbb0; }
.hole { fill: #e6d8bd; stroke: #9c8560; stroke-width: 1; }
.peg { fill: #4a3320; }
.peg.mover { fill: #c0392b; }
.peg.jumped { fill: #4a3320; fill-opacity: 0.35; stroke: #c0392b; stroke-dasharray: 2 2; }
.path { fill: none; stroke: #c0392b; stroke-width: 2; stroke-linejoin: round; marker-end: url(#arrow); }
#arrow path { fill: #c0392b; }
"""


def plane_points(shape: Shape) -> list[tuple[float, float]]:
    """Each hole's ``(x, y)`` on the plane in hole spacings, the leftmost and top at 0."""
    if shape.grid == SQUARE:
        points = [(float(c), float(r)) for r, c in shape.coords]
    else:
        points = [(c - r / 2, r * math.sqrt(3) / 2) for r, c in shape.coords]
    x0 = min(x for x, _ in points)
    y0 = min(y for _, y in points)
    return [(x - x0, y - y0) for x, y in points]


def _board_size(points: Sequence[tuple[float, float]]) -> tuple[float, float]:
    """Width and height in px of a board drawing, margins included."""
    w = max(x for x, _ in points) + 2 * MARGIN
    h = max(y for _, y in points) + 2 * MARGIN
    return w * SPACING, h * SPACING


def _fmt(v: float) -> str:
    return f"{v:.2f}".rstrip("0").rstrip(".")


def _root(width: float, height: float, title: str) -> ET.Element:
    svg = ET.Element("svg", {"xmlns": "http://www.w3.org/2000/svg", "width": _fmt(width),
                             "height": _fmt(height), "viewBox": f"0 0 {_fmt(width)} {_fmt(height)}"})
    ET.SubElement(svg, "title").text = title
    ET.SubElement(svg, "style").text = STYLE
    defs = ET.SubElement(svg, "defs")
    marker = ET.SubElement(defs, "marker", {"id": "arrow", "viewBox": "0 0 10 10", "refX": "8", "refY": "5",
                                            "markerWidth": "5", "markerHeight": "5", "orient": "auto"})
    ET.SubElement(marker, "path", {"d": "M 0 0 L 10 5 L 0 10 z"})
    return svg


def _diagram(parent: ET.Element, board: Board, x: float, y: float, caption: str,
             move: Sequence[Jump] = (), names: bool = False, style: str = "algebraic",
             coords: bool = False) -> None:
    """One board drawn with its top-left corner at (x, y) px, the caption above it;
    ``names``: each hole's name in it; ``coords``: column and row labels in the margin."""
    shape = board.shape
    points = plane_points(shape)
    w, h = _board_size(points)
    g = ET.SubElement(parent, "g", {"class": "diagram", "transform": f"translate({_fmt(x)},{_fmt(y)})"})
    ET.SubElement(g, "text", {"class": "caption", "x": "2", "y": "14"}).text = caption
    ET.SubElement(g, "rect", {"class": "panel", "x": "0", "y": _fmt(TITLE_HEIGHT), "width": _fmt(w),
                              "height": _fmt(h), "rx": "6"})

    def centre(hole: int) -> tuple[float, float]:
        px, py = points[hole]
        return (px + MARGIN) * SPACING, TITLE_HEIGHT + (py + MARGIN) * SPACING

    mover = move[0].from_hole if move else None
    jumped = {j.over for j in move}
    for hole in range(shape.size):
        cx, cy = centre(hole)
        ET.SubElement(g, "circle", {"class": "hole", "cx": _fmt(cx), "cy": _fmt(cy),
                                    "r": _fmt(HOLE_RADIUS * SPACING)})
        if board.pegs_mask >> hole & 1:
            kind = "peg mover" if hole == mover else "peg jumped" if hole in jumped else "peg"
            ET.SubElement(g, "circle", {"class": kind, "cx": _fmt(cx), "cy": _fmt(cy),
                                        "r": _fmt(PEG_RADIUS * SPACING)})
        if names:
            on_peg = " on-peg" if board.pegs_mask >> hole & 1 else ""
            ET.SubElement(g, "text", {"class": "name" + on_peg, "x": _fmt(cx), "y": _fmt(cy)}).text = \
                hole_name(shape, hole, style)
    if coords and shape.grid == SQUARE:
        _coordinates(g, shape, centre, style)
    if move:
        holes = [move[0].from_hole] + [j.to_hole for j in move]
        ET.SubElement(g, "polyline", {"class": "path",
                                      "points": " ".join("{},{}".format(*map(_fmt, centre(hh))) for hh in holes)})


def _coordinates(g: ET.Element, shape: Shape, centre: Callable[[int], tuple[float, float]], style: str) -> None:
    """Column labels in the top margin and row labels in the left margin of a square board."""
    first_in_col: dict[int, int] = {}
    first_in_row: dict[int, int] = {}
    for hole, (r, c) in enumerate(shape.coords):
        first_in_col.setdefault(c, hole)
        first_in_row.setdefault(r, hole)
    top = TITLE_HEIGHT + MARGIN * SPACING / 3   # between the panel's edge and the first row
    left = MARGIN * SPACING / 3
    for c, hole in sorted(first_in_col.items()):
        label = column_letters(c) if style == "algebraic" else str(c + 1)
        ET.SubElement(g, "text", {"class": "coord column", "x": _fmt(centre(hole)[0]), "y": _fmt(top)}).text = label
    for r, hole in sorted(first_in_row.items()):
        ET.SubElement(g, "text", {"class": "coord row", "x": _fmt(left), "y": _fmt(centre(hole)[1])}).text = str(r + 1)


def _to_text(svg: ET.Element) -> str:
    ET.indent(svg)
    return ET.tostring(svg, encoding="unicode") + "\n"


def board_svg(board: Board, title: str | None = None, style: str = "algebraic") -> str:
    """One position as an SVG document (text), every hole named.

    :param title: caption above the board; default: the board's name and peg count.
    :param style: hole names, ``"algebraic"`` or ``"numeric"`` (square boards).
    """
    shape = board.shape
    title = title or f"{shape.name}: {plural(shape.size, 'hole')}, {plural(board.peg_count, 'peg')}"
    w, h = _board_size(plane_points(shape))
    width = max(w, 7.5 * len(title)) + 4  # room for the caption too
    svg = _root(width, h + TITLE_HEIGHT + 4, title)
    _diagram(svg, board, 2, 2, title, names=True, style=style)
    return _to_text(svg)


def solution_svg(start: Board, jumps: Sequence[Jump], heading: str = "", style: str = "algebraic",
                 columns: int = DEFAULT_COLUMNS) -> str:
    """A jump sequence as an SVG grid of diagrams (text): for each move (consecutive jumps by
    one peg), the position before it with the move marked, then the final position.

    :param start: the start position (its ``pegs_mask``; its history is ignored).
    :param jumps: legal jumps from ``start``, in order (empty: the start alone).
    :param heading: a line of text above the grid.
    :param columns: diagrams per row, at least 1.
    :raises IllegalJumpError: a jump that is not legal where it is played.
    :raises PegsolverError: ``columns`` below 1.
    """
    if isinstance(columns, bool) or not isinstance(columns, int) or columns < 1:
        raise PegsolverError(f"diagrams per row must be a whole number, at least 1, not {columns!r}")
    shape = start.shape
    board = start.with_pegs(start.pegs_mask)
    panels: list[tuple[Board, str, list[Jump]]] = []
    for number, move in enumerate(group_moves(list(jumps)), 1):
        panels.append((board.with_pegs(board.pegs_mask), f"{number}. {move_name(shape, move, style)}", move))
        for j in move:
            board.push(j)
    panels.append((board, f"final: {plural(board.peg_count, 'peg')}", []))
    w, h = _board_size(plane_points(shape))
    cell_w, cell_h = max(w, 100.0) + 12, h + TITLE_HEIGHT + 12
    cols = min(columns, len(panels))
    rows = math.ceil(len(panels) / cols)
    top = HEADING_HEIGHT if heading else 4.0
    width = max(cols * cell_w + 8, 7.5 * len(heading) + 16)
    svg = _root(width, top + rows * cell_h + 4, heading or f"{shape.name}: {plural(len(jumps), 'jump')}")
    if heading:
        ET.SubElement(svg, "text", {"class": "heading", "x": "8", "y": "19"}).text = heading
    triangle = shape.grid != SQUARE
    for k, (position, caption, move) in enumerate(panels):
        r, c = divmod(k, cols)
        # Triangles have no rows and columns to label: their holes carry their numbers.
        _diagram(svg, position, 8 + c * cell_w, top + r * cell_h, caption, move, names=triangle, style=style,
                 coords=not triangle)
    return _to_text(svg)


def write_svg(path: str | os.PathLike[str], text: str) -> Path:
    """Save an SVG document (text) at ``path``.

    :returns: the path written.
    :raises OutputFileError: the file cannot be written (the message names it and says why).
    """
    p = Path(path)
    data = text.encode("utf-8")   # before the file is opened: a failure leaves no empty file
    try:
        p.write_bytes(data)
    except OSError as e:
        raise OutputFileError(f"cannot write the SVG file {str(p)!r}: {e.strerror or e}") from None
    return p


def safe_file_name(name: str) -> str:
    """A variant name made safe as a file name (letters, digits, ``-`` and ``_`` kept)."""
    return "".join(ch if ch.isalnum() or ch in "-_" else "_" for ch in name) or "board"
