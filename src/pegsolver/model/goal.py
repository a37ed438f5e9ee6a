"""Goals: what the final position of a solution must look like."""
from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from ..errors import GoalError
from .geometry import MAX_SHAPE_HOLES, Hole, Shape
from .notation import hole_name, parse_hole
from .numbers import as_whole


def _whole(x: object, what: str) -> int:
    """``x`` as an int (numpy integers too), bools refused."""
    if (n := as_whole(x)) is None:
        raise GoalError(f"{what} must be a whole number, not {x!r}")
    return n


def _hole(hole: object) -> Hole | str:
    """A goal hole as a name (str) or a 0-based index (int; numpy integers too)."""
    if isinstance(hole, str):
        return hole
    try:
        return _whole(hole, "a goal hole")
    except GoalError:
        raise GoalError(f"a goal hole is a name like 'd4' or a 0-based index, not {hole!r}") from None


def require_pegs(shape: Shape, mask: int) -> None:
    """:raises GoalError: a start with no peg (every hole of ``shape`` vacant)."""
    if mask == 0:
        raise GoalError(f"the start has no pegs: every hole of board {shape.name!r} is vacant")


def plural(n: int, word: str) -> str:
    """``1 peg``, ``2 pegs``, ``3 searches``, ``1,000 nodes``."""
    ending = "es" if word.endswith(("s", "sh", "ch", "x")) else "s"
    return f"{n:,} {word}{ending * (n != 1)}"


@dataclass(frozen=True)
class Goal:
    """A finish: ``pegs`` pegs anywhere, exactly the holes in ``finish``, or (``fewest_pegs``)
    as few pegs as the start can be reduced to.

    Build with :meth:`anywhere`, :meth:`at`, :meth:`pattern` or :meth:`fewest`. Holes are hole names
    (``"d4"``, ``"13"`` on a triangle: strings) or 0-based hole indices (ints, as
    ``board.hole("d4")`` returns); names are resolved against the board by
    :meth:`resolve`, which :func:`pegsolver.solve` calls.
    """

    pegs: int = 1
    finish: frozenset[Hole | str] | None = None
    fewest_pegs: bool = False

    def __post_init__(self) -> None:
        # Built directly: numpy integers as Python ints, one hole name as a set of one
        # (a str is iterable: 'd4' was read as the holes 'd' and '4'). Other values are
        # checked by resolve(), where solve() reports them.
        if not isinstance(self.pegs, int) and (count := as_whole(self.pegs)) is not None:
            object.__setattr__(self, "pegs", count)
        if not isinstance(self.fewest_pegs, bool):
            raise GoalError(f"fewest_pegs is True or False, not {self.fewest_pegs!r}")
        if self.fewest_pegs and (self.finish is not None or self.pegs != 1):   # solve() dropped one of them
            raise GoalError("a fewest-pegs goal names no finish and no peg count (Goal.fewest())")
        finish = self.finish
        if isinstance(finish, (bytes, bytearray)):   # iterated, they were hole numbers
            raise GoalError(f"a goal's finish is a set of holes, not {finish!r}")
        if isinstance(finish, str):
            finish = [finish]
        if finish is not None:
            try:
                object.__setattr__(self, "finish", frozenset(_hole(h) for h in finish))
            except TypeError:
                raise GoalError(f"a goal's finish is a set of holes, not {finish!r}") from None

    @classmethod
    def fewest(cls) -> Goal:
        """As few pegs as possible, anywhere: :func:`pegsolver.solve` returns a finish it
        proves minimal (every smaller count impossible), or says what it could prove."""
        return cls(pegs=1, fewest_pegs=True)

    @classmethod
    def anywhere(cls, pegs: int = 1) -> Goal:
        """``pegs`` pegs left, on any holes (an int, numpy integers too).

        :raises GoalError: ``pegs`` is not a whole number of at least 1.
        """
        count = _whole(pegs, "a goal's peg count")
        if count < 1:   # said here, not first in solve()
            raise GoalError(f"a goal must leave a whole number of pegs, at least 1, not {count}")
        return cls(pegs=count)

    @classmethod
    def at(cls, hole: Hole | str) -> Goal:
        """One peg left, on ``hole`` (a name or a 0-based index).

        :raises GoalError: ``hole`` is neither a string nor an int.
        """
        return cls(pegs=1, finish=frozenset([_hole(hole)]))

    @classmethod
    def pattern(cls, holes: Iterable[Hole | str] | Hole | str) -> Goal:
        """Exactly the pegs on ``holes`` left (names or 0-based indices).

        :raises GoalError: no hole, or a hole listed twice.
        """
        if isinstance(holes, (bytes, bytearray)):   # iterated, they were hole numbers
            raise GoalError(f"a goal pattern is holes (names or indices), not {holes!r}")
        if isinstance(holes, str) or not hasattr(holes, "__iter__"):  # one hole, not an iterable of them
            listed = [_hole(holes)]
        else:
            listed = [_hole(h) for h in holes]
        if not listed:
            raise GoalError("a goal pattern must name at least one hole")
        if len(set(listed)) != len(listed):
            raise GoalError(f"goal pattern lists a hole twice: {listed!r}")
        return cls(pegs=len(listed), finish=frozenset(listed))

    def resolve(self, shape: Shape) -> Goal:
        """The same goal with hole names turned into indices of ``shape``.

        :raises GoalError: pegs not a whole number >= 1, an empty pattern, a pattern whose
            size differs from ``pegs``, an index off the board, or ``shape`` not a Shape.
        :raises UnknownHoleError: a name that is not a hole of the board.
        """
        if not isinstance(shape, Shape):
            raise GoalError(f"a goal is resolved against a Shape (board.shape), not a {type(shape).__name__}")
        if not isinstance(self.pegs, int) or isinstance(self.pegs, bool) or self.pegs < 1:
            raise GoalError(f"a goal must leave a whole number of pegs, at least 1, not {self.pegs!r}")
        if self.finish is None:
            return self
        holes: set[Hole] = set()
        for h in self.finish:
            if isinstance(h, str):
                holes.add(parse_hole(shape, h))
            elif isinstance(h, int) and not isinstance(h, bool) and 0 <= h < shape.size:
                holes.add(h)
            else:
                raise GoalError(f"goal hole {h!r} is not a hole name or an index 0..{shape.size - 1} "
                                f"of board {shape.name!r}")
        if not holes:
            raise GoalError("a goal pattern must name at least one hole")
        if len(holes) < len(self.finish):  # one hole by name and by index, say
            raise GoalError(f"goal pattern lists a hole twice: {sorted(self.finish, key=str)!r}")
        if len(holes) != self.pegs:
            raise GoalError(f"the goal leaves {plural(self.pegs, 'peg')} but names {plural(len(holes), 'hole')}")
        return Goal(pegs=self.pegs, finish=frozenset(holes))

    def finish_mask(self) -> int:
        """Bitboard of the final pattern, 0 for a goal on any holes.

        :raises GoalError: a hole still named: :meth:`resolve` the goal first.
        """
        return sum(1 << h for h in self.finish_holes()) if self.finish else 0

    def finish_or_none(self) -> int | None:
        """Bitboard of the final pattern, or None for a goal on any holes (where the searches
        by moves take every position of the goal's peg count as a finish).

        :raises GoalError: a hole still named: :meth:`resolve` the goal first.
        """
        return self.finish_mask() if self.finish is not None else None

    def finish_holes(self) -> list[Hole]:
        """The holes of the final pattern, ascending, as indices (empty for a goal on any holes).

        :raises GoalError: a hole still named: :meth:`resolve` the goal first.
        """
        holes: list[Hole] = []
        for h in self.finish or ():
            if isinstance(h, str):
                raise GoalError(f"goal hole {h!r} is a name: resolve the goal against its board first")
            if not 0 <= h < MAX_SHAPE_HOLES:
                raise GoalError(f"goal hole {h!r} is no hole index (0 to {MAX_SHAPE_HOLES - 1})")
            holes.append(h)
        return sorted(holes)

    def check(self, shape: Shape, start_mask: int) -> None:
        """Check the goal can apply to a start on this shape.

        :raises GoalError: fewer than one peg, holes off the board, or more pegs than
            the start has.
        """
        self.resolve(shape)
        start_mask = _whole(start_mask, "a start's bitboard")
        require_pegs(shape, start_mask)
        start = start_mask.bit_count()
        if self.pegs > start:
            raise GoalError(f"the goal leaves {plural(self.pegs, 'peg')} but the start has only {start}")

    def reached(self, pegs_mask: int) -> bool:
        """Whether a position (bitboard) is a finish of this goal.

        :raises GoalError: a fewest-pegs goal, whose finish is known only once solved.
        """
        if self.fewest_pegs:
            raise GoalError("a fewest-pegs goal has no fixed finish: solve it to learn the fewest")
        pegs_mask = _whole(pegs_mask, "a position's bitboard")
        if self.finish is not None:
            return pegs_mask == self.finish_mask()
        return pegs_mask.bit_count() == self.pegs

    def describe(self, shape: Shape, style: str = "algebraic") -> str:
        """The goal in words, e.g. ``one peg at d4`` (hole names in ``style``).

        :raises GoalError, UnknownHoleError: as :meth:`resolve`, for a hole not on ``shape``.
        """
        count = "one peg" if self.pegs == 1 else f"{self.pegs} pegs"
        if self.fewest_pegs:
            return "the fewest pegs possible, anywhere"
        if self.finish is None:
            return f"{count} anywhere"
        names = " ".join(hole_name(shape, h, style) for h in self.resolve(shape).finish_holes())
        return f"{count} at {names}"

    def to_json(self, shape: Shape, style: str = "algebraic") -> dict[str, Any]:
        if self.fewest_pegs:
            return {"pegs": None, "finish": None, "fewest": True, "text": self.describe(shape, style)}
        return {"pegs": self.pegs,
                "finish": None if self.finish is None else [hole_name(shape, h, style)
                                                            for h in self.resolve(shape).finish_holes()],
                "text": self.describe(shape, style)}
