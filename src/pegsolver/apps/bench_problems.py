"""The bench's problem set: a versioned TOML file shipped in the package
(``problems.toml``), read and checked entry by entry into :class:`ProblemSet`.
"""
from __future__ import annotations

import tomllib
from dataclasses import dataclass
from importlib import resources
from pathlib import Path

from ..errors import BenchError, PegsolverError
from ..model.board import Board
from ..model.goal import Goal
from ..model.variants import find_variant

EXPECTS = ("solved", "impossible")
PROBLEM_KEYS = {"name", "board", "vacant", "finish", "expect", "small", "source"}


@dataclass(frozen=True)
class BenchProblem:
    """One problem of the set: a variant's board, a start and a goal.

    ``vacant`` lists hole names empty at the start (None: the variant's start);
    ``finish`` is None for one peg anywhere, else the hole names left with pegs;
    ``expect`` is ``"solved"`` or ``"impossible"``; ``small`` marks problems the
    pure-Python reference runs; ``source`` says where the problem comes from.
    """

    name: str
    board: str
    vacant: tuple[str, ...] | None
    finish: tuple[str, ...] | None
    expect: str
    small: bool
    source: str

    def start(self) -> Board:
        """The start position.

        :raises UnknownVariantError: the board names no variant.
        :raises UnknownHoleError: a vacant hole is not on the board.
        """
        board = find_variant(self.board).board()
        if self.vacant is None:
            return board
        shape = board.shape
        empty = 0
        for h in self.vacant:
            empty |= 1 << board.hole(h)
        return board.with_pegs(shape.full_mask & ~empty)

    def goal(self) -> Goal:
        """One peg anywhere, one peg on a hole, or exactly a pattern of holes."""
        if self.finish is None:
            return Goal.anywhere()
        return Goal.at(self.finish[0]) if len(self.finish) == 1 else Goal.pattern(self.finish)

    def describe(self) -> str:
        """``english: d4 vacant -> d4`` style summary."""
        vacant = " ".join(self.vacant) if self.vacant else "standard start"
        finish = " ".join(self.finish) if self.finish else "one peg anywhere"
        return f"{self.board}: {vacant} vacant -> {finish}"


@dataclass(frozen=True)
class ProblemSet:
    """The versioned problem set: ``version`` (an int, bumped on any change) and problems."""

    version: int
    problems: tuple[BenchProblem, ...]
    path: str = ""

    def names(self) -> list[str]:
        return [p.name for p in self.problems]


def default_problems_path() -> Path:
    """Where the packaged problem set lives."""
    return Path(str(resources.files(__package__) / "problems.toml"))


def load_problems(path: str | Path | None = None) -> ProblemSet:
    """Read a problem set (default: the one in the package) and check every entry.

    :param path: a TOML file in the format of ``pegsolver/problems.toml``.
    :raises BenchError: the file cannot be read or parsed, or an entry is malformed
        (missing or unknown key, bad value, unknown board or hole, duplicate name);
        the message names the file and the problem.
    """
    path = Path(path) if path is not None else default_problems_path()
    try:
        with open(path, "rb") as f:
            data = tomllib.load(f)
    except OSError as e:
        raise BenchError(f"cannot read the problem set {str(path)!r}: {e.strerror or e}") from None
    except tomllib.TOMLDecodeError as e:
        raise BenchError(f"problem set {str(path)!r} is not valid TOML: {e}") from None
    version = data.get("version")
    if not isinstance(version, int) or isinstance(version, bool) or version < 1:
        raise BenchError(f"problem set {str(path)!r} needs a whole-number `version` of at least 1, not {version!r}")
    entries = data.get("problems")
    if not isinstance(entries, list) or not entries:
        raise BenchError(f"problem set {str(path)!r} has no [[problems]] entries")
    problems: list[BenchProblem] = []
    for k, entry in enumerate(entries, 1):
        problem = _read_problem(entry, f"problem set {str(path)!r}, problem {k}")
        if problem.name in (p.name for p in problems):
            raise BenchError(f"problem set {str(path)!r} lists the problem name {problem.name!r} twice")
        problems.append(problem)
    return ProblemSet(version, tuple(problems), str(path))


def _read_problem(entry: object, where: str) -> BenchProblem:
    if not isinstance(entry, dict):
        raise BenchError(f"{where}: expected a table of keys")
    if isinstance(entry.get("name"), str):
        where = f"{where} ({entry['name']!r})"
    unknown = set(entry) - PROBLEM_KEYS
    if unknown:
        raise BenchError(f"{where}: unknown key {sorted(unknown)[0]!r}; expected {', '.join(sorted(PROBLEM_KEYS))}")
    for key in ("name", "board", "finish", "expect", "source"):
        if key not in entry:
            raise BenchError(f"{where}: missing key {key!r}")
    for key in ("name", "board", "expect", "source"):
        if not isinstance(entry[key], str) or not entry[key].strip():
            raise BenchError(f"{where}: {key!r} must be a non-empty string, not {entry[key]!r}")
    if entry["expect"] not in EXPECTS:
        raise BenchError(f"{where}: expect must be one of {', '.join(EXPECTS)}, not {entry['expect']!r}")
    small = entry.get("small", False)
    if not isinstance(small, bool):
        raise BenchError(f"{where}: small must be true or false, not {small!r}")
    vacant = _holes(entry.get("vacant"), "vacant", where, allow_none=True)
    finish = entry["finish"]
    finish = None if finish == "any" else _holes(finish, "finish", where, allow_none=False)
    problem = BenchProblem(entry["name"], entry["board"], vacant, finish, entry["expect"], small,
                           " ".join(entry["source"].split()))
    try:  # board, holes and goal must all exist, so a bad entry fails on loading, not mid-run
        start = problem.start()
        problem.goal().check(start.shape, start.pegs_mask)
    except PegsolverError as e:
        raise BenchError(f"{where}: {e}") from None
    return problem


def _holes(value: object, key: str, where: str, allow_none: bool) -> tuple[str, ...] | None:
    if value is None and allow_none:
        return None
    if isinstance(value, str):
        value = [value]
    if not isinstance(value, list) or not value or not all(isinstance(h, str) for h in value):
        raise BenchError(f"{where}: {key!r} must be a hole name or a list of hole names, not {value!r}")
    return tuple(value)

