"""A board: a shape and the pegs on it, with legal jumps, apply/undo and text I/O."""
from __future__ import annotations

import warnings
from collections.abc import Callable
from typing import TYPE_CHECKING

import numpy as np

from ..errors import (
    BoardTextError,
    BoardTooLargeError,
    GoalError,
    IllegalJumpError,
    InvalidJumpError,
    NothingToUndoError,
    PegsolverError,
    UnknownHoleError,
)
from .geometry import MAX_SHAPE_HOLES, SQUARE, Hole, Jump, Shape, grid_for
from .goal import Goal
from .notation import NUMERIC_STYLES, hole_name, is_hole_number, parse_hole, parse_move
from .numbers import as_whole
from .textboard import format_board, parse_board_text

if TYPE_CHECKING:
    from collections.abc import Sequence

    import numpy.typing as npt

    from .variants import Variant

Bitboard = int


class Board:
    """Pegs on a :class:`~pegsolver.model.geometry.Shape`.

    ``pegs_mask`` is the bitboard (bit i = hole i); :meth:`pegs` lists the holes.
    :meth:`push` and :meth:`pop` apply and undo jumps, keeping a history.

    :raises BoardTextError: pegs outside the shape, a mask that is not a Python or numpy
        integer, or a shape that is not a Shape.
    :raises GoalError: a ``default_goal`` that is not a Goal or None.
    """

    def __init__(self, shape: Shape, pegs_mask: Bitboard, default_goal: Goal | None = None) -> None:
        if not isinstance(shape, Shape):
            raise BoardTextError(f"a board needs a Shape (e.g. find_variant('english').shape), not {shape!r}")
        if (mask := as_whole(pegs_mask)) is None:   # numpy integers too
            raise BoardTextError(f"pegs are given as an int bitboard (bit h: a peg on hole h), not {pegs_mask!r}")
        pegs_mask = mask
        if default_goal is not None and not isinstance(default_goal, Goal):   # solve() failed on it later
            raise GoalError(f"a board's default goal is a Goal or None, not {default_goal!r}")
        if pegs_mask < 0:   # a trial's -1 was said to have "pegs outside" the board
            raise BoardTextError(f"pegs mask {pegs_mask} is negative; bit h of a bitboard is a peg on hole h")
        if pegs_mask & ~shape.full_mask:
            raise BoardTextError(f"pegs mask {pegs_mask:#x} has pegs outside board {shape.name!r}")
        self.shape = shape
        self.pegs_mask = pegs_mask
        self.default_goal = default_goal  # a variant's standard finish; None: a bare board
        self.history: list[Jump] = []

    @property
    def variant(self) -> Variant | None:
        """The catalogue variant this board came from (deprecated: boards carry their
        ``default_goal`` instead); None for a bare board."""
        warnings.warn("Board.variant is deprecated: use Board.default_goal", DeprecationWarning, stacklevel=2)
        if self.default_goal is None:
            return None
        from .variants import find_variant
        return find_variant(self.shape.name)

    # ---- construction and text -------------------------------------------
    @classmethod
    def from_text(cls, text: str, grid: str | None = None, name: str = "custom",
                  rules: str | None = None) -> Board:
        """Read a board drawn as text (formats in :mod:`pegsolver.textboard`).

        :param grid: ``"square"`` or ``"triangle"``; None: from ``rules``, else square.
        :param rules: ``"orthogonal"``, ``"diagonal"`` or ``"triangular"``; None: the grid's usual.
        :raises BoardTextError: malformed text (the message names the line), or a name that
            is not one line of text.
        """
        if not isinstance(name, str) or "\n" in name:
            raise BoardTextError(f"a board's name is one line of text, not {name!r}")
        shape, pegs = parse_board_text(text, grid=grid, name=name, rules=rules)
        return cls(shape, pegs)

    def to_text(self, style: str = "common") -> str:
        """The board as text: ``o`` peg, ``.`` empty, spaces off the board (or seed style)."""
        return format_board(self.shape, self.pegs_mask, style)

    def __str__(self) -> str:
        return self.to_text()

    def __repr__(self) -> str:
        # the name too (a variant's board came back as 'custom'); the default goal is not kept
        name = "" if self.shape.name == "custom" else f", name={self.shape.name!r}"
        return f"Board.from_text({self.to_text()!r}{name}, rules={self.shape.rules!r})"

    def __eq__(self, other: object) -> bool:
        return (isinstance(other, Board) and self.pegs_mask == other.pegs_mask
                and self.shape.rules == other.shape.rules and self.shape.coords == other.shape.coords)

    __hash__ = None  # type: ignore[assignment]  # mutable, so unhashable (as a list is); typeshed wants a method

    def copy(self) -> Board:
        b = Board(self.shape, self.pegs_mask, self.default_goal)
        b.history = list(self.history)
        return b

    def with_pegs(self, pegs_mask: Bitboard) -> Board:
        """A new board on the same shape with other pegs and no history.

        :raises BoardTextError: ``pegs_mask`` is not an int bitboard of this shape's holes.
        """
        return Board(self.shape, pegs_mask, self.default_goal)

    def with_vacant(self, *holes: Hole | str | Sequence[Hole | str]) -> Board:
        """A new board with every hole filled but ``holes`` (names like ``"c1"``, or 0-based
        indices; or one list, tuple, set, array or other iterable of them):
        ``find_variant("french").board().with_vacant("c1")`` is the c1 start.

        :raises UnknownHoleError: a name or index that is no hole of this board.
        :raises PegsolverError: no hole given, a hole given twice, or every hole vacant.
        """
        # with_vacant(["c1", "e1"]) too, and any other collection of holes (a set, an array, a
        # generator: each was named as one unknown hole)
        if len(holes) == 1 and not isinstance(holes[0], (str, bytes)) and hasattr(holes[0], "__iter__"):
            holes = tuple(holes[0])
        if not holes:
            raise PegsolverError("with_vacant needs at least one hole to leave empty")
        index = [self.hole(h) if isinstance(h, str) else self.hole_index(h) for h in holes]
        if len(set(index)) != len(index):
            raise PegsolverError(f"a vacant hole is given twice: {list(holes)!r}")
        if len(index) == self.shape.size:
            raise PegsolverError(f"leaving every hole of board {self.shape.name!r} empty leaves no peg")
        return self.with_pegs(self.shape.full_mask & ~sum(1 << h for h in index))

    # ---- queries -------------------------------------------------------------
    def pegs(self) -> list[Hole]:
        """Holes holding a peg, ascending."""
        return [h for h in range(self.shape.size) if self.pegs_mask >> h & 1]

    def vacancies(self) -> list[Hole]:
        """Empty holes, ascending."""
        return [h for h in range(self.shape.size) if not self.pegs_mask >> h & 1]

    @property
    def peg_count(self) -> int:
        return self.pegs_mask.bit_count()

    @property
    def name(self) -> str:
        """The board's name (its shape's: a variant's, or the one given to from_text)."""
        return self.shape.name

    def hole(self, name: str) -> Hole:
        """Hole index from its name (see :mod:`pegsolver.model.notation`).

        :raises UnknownHoleError: not a name of a hole of this board.
        """
        if not isinstance(name, str):
            raise UnknownHoleError(f"a hole name is a string like 'd4', not {name!r}")
        return parse_hole(self.shape, name)

    def hole_name(self, hole: Hole) -> str:
        """Name of hole index ``hole`` (a Python or numpy integer).

        :raises UnknownHoleError: not an index 0..size-1.
        """
        return hole_name(self.shape, self.hole_index(hole))

    def hole_index(self, hole: object) -> Hole:
        """``hole`` as a hole index of this board (a Python int), from a Python or numpy integer.

        :raises UnknownHoleError: not an index 0..size-1 (bools, floats and names included:
            :meth:`hole` reads names).
        """
        if isinstance(hole, str):   # the message offered names like 'c1', then refused 'c1'
            raise UnknownHoleError(f"hole {hole!r} is a name where an index 0..{self.shape.size - 1} of board "
                                   f"{self.shape.name!r} goes (board.hole({hole!r}) gives its index)")
        index = as_whole(hole)
        if index is None or not 0 <= index < self.shape.size:
            raise UnknownHoleError(f"no hole {hole!r} on board {self.shape.name!r} (names like "
                                   f"{hole_name(self.shape, 0)!r}, or indices 0..{self.shape.size - 1})")
        return index

    def _jump(self, jump: Jump | str) -> Jump:
        # a Jump (its holes as Python ints: numpy integers too), or one jump written as text ("d2-d4")
        if isinstance(jump, Jump):
            return Jump(*(self.hole_index(h) for h in jump))
        if not isinstance(jump, str):
            raise InvalidJumpError(f"expected a Jump or a jump like 'd2-d4', not {jump!r}")
        jumps = parse_move(self.shape, jump)
        if len(jumps) != 1:
            raise InvalidJumpError(f"{jump!r} is a move of {len(jumps)} jumps; give one jump")
        return jumps[0]

    def is_legal(self, jump: Jump | str) -> bool:
        """True when ``jump`` (a Jump, or text like ``"d2-d4"``) can be played now.

        :raises InvalidJumpError, UnknownHoleError: not a jump, or text that cannot be read.
        """
        try:
            jump = self._jump(jump)
        except IllegalJumpError:   # holes that no jump joins
            return False
        return jump in self.shape.jump_set and self._playable(jump)

    def _playable(self, jump: Jump) -> bool:
        # pegs on the from and over holes, the landing hole empty (jump: one of the board's)
        p = self.pegs_mask
        return bool(p >> jump.from_hole & 1 and p >> jump.over & 1 and not p >> jump.to_hole & 1)

    def legal_jumps(self) -> list[Jump]:
        """Jumps possible now, in the board's jump-table order."""
        return [j for j in self.shape.jumps if self._playable(j)]

    def why_illegal(self, jump: Jump | str) -> str | None:
        """None if the jump (a Jump, or text like ``"d2-d4"``) is legal now, else the reason
        in words.

        :raises InvalidJumpError, UnknownHoleError: not a jump, or text that cannot be read.
        """
        try:
            jump = self._jump(jump)
        except IllegalJumpError as e:   # holes that no jump joins
            return str(e)
        return self._why(jump, self.hole_name)

    def _why(self, jump: Jump, name: Callable[[Hole], str]) -> str | None:
        # why_illegal's reason, each hole called what ``name`` gives
        p = self.pegs_mask
        if jump not in self.shape.jump_set:
            return f"{name(jump.from_hole)}-{name(jump.to_hole)} is not a jump of this board"
        if not p >> jump.from_hole & 1:
            return f"no peg on {name(jump.from_hole)}"
        if not p >> jump.over & 1:
            return f"no peg on {name(jump.over)} to jump over"
        if p >> jump.to_hole & 1:
            return f"{name(jump.to_hole)} is not empty"
        return None

    # ---- play ----------------------------------------------------------------
    def push(self, jump: Jump | str) -> None:
        """Apply a jump (a :class:`Jump`, or text such as ``"d2-d4"``: see :meth:`push_move`).

        :raises IllegalJumpError: the jump is not legal now (the message says why).
        :raises InvalidJumpError: not a jump.
        """
        if isinstance(jump, str):
            self.push_move(jump)
            return
        if not isinstance(jump, Jump):
            raise InvalidJumpError(f"expected a Jump or a move like 'd2-d4', not {jump!r}")
        self._push(self._jump(jump), self.hole_name)

    def _push(self, jump: Jump, name: Callable[[Hole], str]) -> None:
        # push's jump, an error calling each hole what ``name`` gives
        reason = self._why(jump, name)
        if reason:
            raise IllegalJumpError(f"illegal jump {name(jump.from_hole)}-{name(jump.to_hole)}: {reason}")
        self.pegs_mask ^= (1 << jump.from_hole) | (1 << jump.over) | (1 << jump.to_hole)
        self.history.append(jump)

    def push_move(self, text: str, style: str | None = None) -> list[Jump]:
        """Apply a move written in notation (``d2-d4`` or ``d2-d4-f4``); all or nothing.

        :param style: how two-digit hole numbers read (see :func:`pegsolver.model.notation.parse_hole`).
        :raises InvalidJumpError, UnknownHoleError: the text cannot be read.
        :raises IllegalJumpError: no such jump on the board, or not legal now.
        """
        if not isinstance(text, str):
            raise InvalidJumpError(f"a move is text like 'd2-d4', not {text!r}")
        jumps = parse_move(self.shape, text, style)
        # an illegal jump's holes are named as the move wrote them (trials' 44-46 and D2-D4 were
        # told of d4-d6 and d2-d4); a hole jumped over, in the move's notation
        parts = [p.strip() for p in text.strip().split("-")]
        written = dict(zip([j.from_hole for j in jumps] + [jumps[-1].to_hole], parts))
        numbers = self.shape.grid == SQUARE and all(is_hole_number(p) for p in parts)
        style = style if style in NUMERIC_STYLES else "numeric" if numbers else "algebraic"

        def name(h: Hole) -> str:
            return written.get(h) or hole_name(self.shape, h, style)
        trial = self.copy()
        for j in jumps:
            trial._push(j, name)
        for j in jumps:
            self._push(j, name)
        return jumps

    def pop(self) -> Jump:
        """Undo the last jump and return it.

        :raises NothingToUndoError: no jump was played (a PegsolverError and an IndexError).
        """
        if not self.history:
            raise NothingToUndoError(f"no jump to undo: no jump has been played on board {self.shape.name!r}")
        jump = self.history.pop()
        self.pegs_mask ^= (1 << jump.from_hole) | (1 << jump.over) | (1 << jump.to_hole)
        return jump

    # ---- arrays ----------------------------------------------------------------
    def to_array(self) -> npt.NDArray[np.int8]:
        """Board as an int8 array of shape (rows, cols): 1 peg, 0 empty, -1 off board.

        Triangular boards use skew coordinates (row r, column c with c <= r on a triangle).
        """
        rows = max(r for r, _ in self.shape.coords) + 1
        cols = max(c for _, c in self.shape.coords) + 1
        out = np.full((rows, cols), -1, dtype=np.int8)
        for h, (r, c) in enumerate(self.shape.coords):
            out[r, c] = self.pegs_mask >> h & 1
        return out

    @classmethod
    def from_array(cls, array: npt.ArrayLike, grid: str | None = None, name: str = "custom",
                   rules: str | None = None) -> Board:
        """Inverse of :meth:`to_array`: ``array`` of shape (rows, cols), 1 peg, 0 empty, -1 off board.

        :param grid: the grid the array's coordinates are on. An array does not say which:
            pass the board's ``shape.grid`` (and ``rules``) to read a triangle back, as
            ``Board.from_array(b.to_array(), b.shape.grid, rules=b.shape.rules)``; None: square.
        :raises BoardTextError: not 2-D, values other than -1, 0, 1, or no holes/pegs.
        :raises BoardTooLargeError: more holes than any board pegsolver supports.
        """
        try:
            a = np.asarray(array)
        except ValueError as e:
            raise BoardTextError(f"board array is not rectangular: {e}") from None
        if a.ndim != 2 or a.dtype == object:
            raise BoardTextError(f"board array must be 2-D, not of shape {a.shape}")
        bad = ~np.isin(a, (-1, 0, 1))
        if bad.any():
            r, c = map(int, np.argwhere(bad)[0])
            raise BoardTextError(f"board array value {a[r, c].item()!r} at ({r}, {c}); expected -1, 0 or 1")
        holes = int(np.count_nonzero(a >= 0))   # counted before the list of holes is made (4 M of them took 8 s)
        if holes > MAX_SHAPE_HOLES:
            raise BoardTooLargeError(f"board array has {holes:,} holes, more than any board pegsolver supports "
                                     f"({MAX_SHAPE_HOLES})")
        coords = [(int(r), int(c)) for r, c in np.argwhere(a >= 0)]
        if not coords:
            raise BoardTextError("board array has no holes")
        shape = Shape(grid_for(grid, rules), tuple(coords), name=name, rules=rules)
        r0 = min(r for r, _ in coords)
        c0 = min(c for _, c in coords)
        pegs = 0
        for r, c in coords:
            if a[r, c] == 1:
                pegs |= 1 << shape.index[(r - r0, c - c0)]
        if not pegs:
            raise BoardTextError(f"board {name!r} has no pegs")
        return cls(shape, pegs)
