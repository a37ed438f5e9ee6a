"""The obstacle checks: whether position classes or a pagoda function rule a problem out,
and why, in words (None when they allow it)."""
from __future__ import annotations

from ..model.board import Board
from ..model.goal import Goal
from ..model.notation import hole_name
from . import pagoda
from .classes import class_allows_pegs, class_finishes, classes_differ, has_classes


def class_obstacle(board: Board, goal: Goal, style: str = "algebraic") -> str | None:
    """Why position classes forbid the problem, in words (hole names in ``style``, as
    :func:`pegsolver.model.notation.hole_name` takes it), or None if they allow it."""
    shape = board.shape
    if not has_classes(shape):
        return None
    kind = "de Bruijn's 16 classes" if shape.grid == "square" else "Bell's 4 triangular classes"
    if goal.finish is not None:
        if classes_differ(shape, board.pegs_mask, goal.finish_mask()):
            return (f"the start and the finish {goal.describe(shape, style)} are in different position classes "
                    f"({kind}), and no jump changes a position's class")
        return None
    if goal.pegs == 1 and not class_finishes(shape, board.pegs_mask):
        return (f"no single hole is in the start's position class ({kind}), so no jump sequence "
                f"can leave one peg anywhere")
    if goal.pegs > 1 and not class_allows_pegs(shape, board.pegs_mask, goal.pegs):
        return (f"no set of {goal.pegs} holes is in the start's position class ({kind}), so no jump "
                f"sequence can leave {goal.pegs} pegs")
    return None


def pagoda_obstacle(board: Board, goal: Goal, style: str = "algebraic") -> str | None:
    """A pagoda proof that the problem is impossible, in words (hole names in ``style``), or None."""
    shape = board.shape
    if goal.finish is not None:
        finishes = [goal.finish_mask()]
    elif goal.pegs == 1:
        finishes = [1 << h for h in class_finishes(shape, board.pegs_mask)]
    else:
        return None
    proofs = [pagoda.certificate(shape, board.pegs_mask, f) for f in finishes]
    w = proofs[0] if proofs else None
    if w is None or not all(proofs):
        return None
    names = [hole_name(shape, f.bit_length() - 1, style) for f in finishes]
    many = (f"one peg on any of {len(finishes)} holes ({', '.join(names)})" if len(finishes) != 1
            else f"one peg at {names[0]}, the one hole of its position class")
    where = goal.describe(shape, style) if goal.finish is not None else many
    return (f"a pagoda function is worth {pagoda.value(w, board.pegs_mask)} on the start and "
            f"{pagoda.value(w, finishes[0])} on the finish, and no jump raises it, so the start cannot reach "
            f"{where} (pagoda functions: Berlekamp, Conway & Guy, Winning Ways, ch. 23)")
