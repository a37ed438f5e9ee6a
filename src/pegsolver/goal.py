"""Goals: what the final position of a solution must look like."""
from __future__ import annotations

from dataclasses import dataclass

from .errors import GoalError
from .geometry import Hole, Shape
from .notation import hole_name


@dataclass(frozen=True)
class Goal:
    """A finish: ``pegs`` pegs anywhere, or exactly the holes in ``finish``.

    Build with :meth:`anywhere`, :meth:`at` or :meth:`pattern`.
    """

    pegs: int = 1
    finish: frozenset[Hole] | None = None

    @classmethod
    def anywhere(cls, pegs: int = 1) -> Goal:
        """``pegs`` pegs left, on any holes."""
        return cls(pegs=pegs)

    @classmethod
    def at(cls, hole: Hole) -> Goal:
        """One peg left, on ``hole``."""
        return cls(pegs=1, finish=frozenset([hole]))

    @classmethod
    def pattern(cls, holes) -> Goal:
        """Exactly the pegs on ``holes`` left."""
        holes = frozenset(holes)
        return cls(pegs=len(holes), finish=holes)

    def finish_mask(self) -> int:
        """Bitboard of the final pattern, 0 for a goal on any holes."""
        return sum(1 << h for h in self.finish) if self.finish else 0

    def check(self, shape: Shape, start_mask: int) -> None:
        """Check the goal can apply to a start on this shape.

        :raises GoalError: fewer than one peg, holes off the board, or more pegs than
            the start has.
        """
        if self.pegs < 1:
            raise GoalError(f"a goal must leave at least one peg, not {self.pegs}")
        if self.finish is not None:
            bad = [h for h in self.finish if not 0 <= h < shape.size]
            if bad:
                raise GoalError(f"goal holes {bad} are not on board {shape.name!r}")
        start = start_mask.bit_count()
        if self.pegs > start:
            raise GoalError(f"the goal leaves {self.pegs} pegs but the start has only {start}")

    def reached(self, pegs_mask: int) -> bool:
        if self.finish is not None:
            return pegs_mask == self.finish_mask()
        return pegs_mask.bit_count() == self.pegs

    def describe(self, shape: Shape) -> str:
        """The goal in words, e.g. ``one peg at d4``."""
        count = "one peg" if self.pegs == 1 else f"{self.pegs} pegs"
        if self.finish is None:
            return f"{count} anywhere"
        names = " ".join(hole_name(shape, h) for h in sorted(self.finish))
        return f"{count} at {names}"

    def to_json(self, shape: Shape) -> dict:
        return {"pegs": self.pegs,
                "finish": None if self.finish is None else [hole_name(shape, h) for h in sorted(self.finish)],
                "text": self.describe(shape)}
