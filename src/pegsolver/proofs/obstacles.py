"""The obstacle checks: whether position classes or a pagoda function rule a problem out.
A proof is kept as data (:class:`Proof`) and put in words on demand, with its holes named
in any notation; the ``*_obstacle`` functions give those words at once (None when the
problem is not ruled out)."""
from __future__ import annotations

from dataclasses import dataclass

from ..model.board import Board
from ..model.geometry import Shape
from ..model.goal import Goal
from ..model.notation import hole_name
from . import pagoda
from .classes import class_allows_pegs, class_finishes, classes_differ, has_classes


@dataclass(frozen=True)
class Proof:
    """A proof that the position ``start`` (a bitboard of ``shape``) cannot reach ``goal``:
    by position classes (``by_classes``), or by pagoda functions, one for each finish
    position in ``finishes`` (bitboards): ``weights[i]`` (one integer weight per hole,
    shape (size,)) is worth more on ``finishes[i]`` than on the start, and no jump raises it."""

    shape: Shape
    start: int
    goal: Goal
    by_classes: bool
    weights: tuple[tuple[int, ...], ...] = ()
    finishes: tuple[int, ...] = ()

    def text(self, style: str = "algebraic") -> str:
        """The proof in words, hole names in ``style`` (as
        :func:`pegsolver.model.notation.hole_name` takes it)."""
        return _class_words(self.shape, self.goal, style) if self.by_classes else self._pagoda_words(style)

    def _pagoda_words(self, style: str) -> str:
        shape, finishes, w = self.shape, self.finishes, self.weights[0]
        names = [hole_name(shape, f.bit_length() - 1, style) for f in finishes]
        many = (f"one peg on any of {len(finishes)} holes ({', '.join(names)})" if len(finishes) != 1
                else f"one peg at {names[0]}, the one hole of its position class")
        where = self.goal.describe(shape, style) if self.goal.finish is not None else many
        return (f"a pagoda function is worth {pagoda.value(w, self.start)} on the start and "
                f"{pagoda.value(w, finishes[0])} on the finish, and no jump raises it, so the start "
                f"cannot reach {where} (pagoda functions: Berlekamp, Conway & Guy, Winning Ways, ch. 23)")


def class_proof(board: Board, goal: Goal) -> Proof | None:
    """A position-class proof that the problem is impossible (de Bruijn's 16 classes on
    square grids, Bell's 4 on triangular ones), or None if the classes allow it."""
    shape = board.shape
    if not has_classes(shape):
        return None
    if goal.finish is not None:
        ruled_out = classes_differ(shape, board.pegs_mask, goal.finish_mask())
    elif goal.pegs == 1:
        ruled_out = not class_finishes(shape, board.pegs_mask)
    else:
        ruled_out = goal.pegs > 1 and not class_allows_pegs(shape, board.pegs_mask, goal.pegs)
    return Proof(shape, board.pegs_mask, goal, True) if ruled_out else None


def _class_words(shape: Shape, goal: Goal, style: str) -> str:
    kind = "de Bruijn's 16 classes" if shape.grid == "square" else "Bell's 4 triangular classes"
    if goal.finish is not None:
        return (f"the start and the finish {goal.describe(shape, style)} are in different position classes "
                f"({kind}), and no jump changes a position's class")
    if goal.pegs == 1:
        return (f"no single hole is in the start's position class ({kind}), so no jump sequence "
                f"can leave one peg anywhere")
    return (f"no set of {goal.pegs} holes is in the start's position class ({kind}), so no jump "
            f"sequence can leave {goal.pegs} pegs")


def pagoda_proof(board: Board, goal: Goal) -> Proof | None:
    """A pagoda-function proof that the problem is impossible (one linear program per finish,
    solved by HiGHS), or None when no pagoda function rules out every finish of the goal."""
    shape = board.shape
    if goal.finish is not None:
        finishes = [goal.finish_mask()]
    elif goal.pegs == 1:
        finishes = [1 << h for h in class_finishes(shape, board.pegs_mask)]
    else:
        return None
    proofs = [pagoda.certificate(shape, board.pegs_mask, f) for f in finishes]
    if not proofs or not all(proofs):
        return None
    return Proof(shape, board.pegs_mask, goal, False, tuple(tuple(w) for w in proofs if w), tuple(finishes))


def class_obstacle(board: Board, goal: Goal, style: str = "algebraic") -> str | None:
    """Why position classes forbid the problem, in words (hole names in ``style``), or None if they allow it."""
    proof = class_proof(board, goal)
    return proof.text(style) if proof else None


def pagoda_obstacle(board: Board, goal: Goal, style: str = "algebraic") -> str | None:
    """A pagoda proof that the problem is impossible, in words (hole names in ``style``), or None."""
    proof = pagoda_proof(board, goal)
    return proof.text(style) if proof else None
