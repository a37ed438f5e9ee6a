"""Checking a move list typed from a book or another program."""
from __future__ import annotations

from dataclasses import dataclass, field

from ..errors import IllegalJumpError, PegsolverError
from ..model.board import Board
from ..model.geometry import SQUARE, Jump, Shape
from ..model.notation import is_hole_number, split_moves


@dataclass
class ReplayReport:
    """What :func:`replay_moves` found.

    ``moves``: the legal moves played, as (text, jumps); ``jumps``: all legal jumps;
    ``board``: the position after them; ``error``: None, or why move number
    ``error_index`` (0-based), written ``error_text``, is illegal or unreadable.
    """

    board: Board
    moves: list[tuple[str, list[Jump]]] = field(default_factory=list)
    jumps: list[Jump] = field(default_factory=list)
    error: str | None = None
    error_index: int = -1
    error_text: str = ""
    unreadable: bool = False  # the error is in the text (syntax, unknown hole), not the rules


def number_read_two_ways(shape: Shape, texts: list[str]) -> str | None:
    """The first two-digit hole number in ``texts`` (moves or hole names) that names another
    hole row-column than column-row (``24``, not ``44``), on a square board; else None."""
    if shape.grid != SQUARE:
        return None
    return next((part for text in texts for move in split_moves(text) for part in move.split("-")
                 if is_hole_number(part) and part[0] != part[1]), None)


def replay_moves(start: Board, text: str, style: str | None = None) -> ReplayReport:
    """Play the moves in ``text`` (commas or spaces between moves; ``a-b`` or ``a-b-c``,
    any hole notation) from ``start``, stopping at the first illegal or unreadable one.

    :param style: ``"numeric-rc"`` reads two-digit hole numbers row then column; otherwise
        they read column then row (the English literature's ``46-44``).
    :returns: a :class:`ReplayReport`; ``start`` is not changed.
    :raises PegsolverError: ``text`` holds no moves.
    """
    tokens = split_moves(text)
    if not tokens:
        raise PegsolverError("no moves given to replay")
    board = start.with_pegs(start.pegs_mask)
    report = ReplayReport(board)
    for k, token in enumerate(tokens):
        if not token:   # two separators in a row: a move left out, or a typo
            report.error, report.error_index, report.unreadable = (
                f"an empty move between two separators, after {tokens[k - 1]!r}", k, True)
            break
        try:
            jumps = board.push_move(token, style)
        except PegsolverError as e:
            report.error, report.error_index, report.error_text = str(e), k, token
            report.unreadable = not isinstance(e, IllegalJumpError)
            break
        report.moves.append((token, jumps))
        report.jumps.extend(jumps)
    return report
