"""Board files: a board, its rules and an optional goal in TOML.

Example (every key but ``board`` or ``variant`` is optional)::

    name = "english"
    rules = "orthogonal"   # orthogonal (4 directions), diagonal (8) or triangular (6)
    board = \'\'\'
        o o o
        o o o
    o o o o o o o
    o o o . o o o
    o o o o o o o
        o o o
        o o o
    \'\'\'
    [goal]
    finish = "d4"          # a hole; a list of holes (exact final pattern); or "any"
    pegs = 1               # with finish = "any": pegs to leave (default 1)

Instead of ``board``, ``variant = "french"`` starts from a named variant; ``vacant =
["c1"]`` (or one hole, ``vacant = "c1"``) then empties just those holes, of the variant or
of a drawing with every hole filled. The board is drawn as in
:mod:`pegsolver.textboard`; a literal multi-line string (``\'\'\'``) keeps backslashes
and quotes as drawn. Errors name the file line.
"""
from __future__ import annotations

import json
import os
import re
import stat
import tomllib
from collections.abc import Callable
from pathlib import Path

from ..errors import BoardTextError, BoardTooLargeError, GoalError, PegsolverError
from .board import Board
from .geometry import RULES, grid_for
from .goal import Goal, plural
from .notation import hole_name, parse_hole
from .textboard import parse_board_text

KEYS = {"name", "rules", "board", "variant", "vacant", "goal"}
MAX_FILE_BYTES = 1 << 20
GOAL_KEYS = {"finish", "pegs"}

Fail = Callable[[str, str], BoardTextError]  # (key, reason) -> the error, naming the key's line


def _line_of(raw: str, pattern: str) -> int | None:
    m = re.search(pattern, raw, flags=re.MULTILINE)
    return raw.count("\n", 0, m.start()) + 1 if m else None


def loads(raw: str, source: str = "board file") -> tuple[Board, Goal | None]:
    """Read a board file's text.

    :returns: ``(board, goal)``; goal is None when the file gives none.
    :raises BoardTextError: not a str, invalid TOML, unknown keys, a malformed board drawing, bad
        rules or goal; the message names ``source`` and the line.
    """
    board, goal, _ = _read(raw, source)
    return board, goal


def load_with_start(path: str | Path, grid: str | None = None,
                    rules: str | None = None) -> tuple[Board, Goal | None, bool]:
    """As :func:`load`, and whether the file names its start: a ``vacant`` key, or a drawing
    with vacant holes (a variant without ``vacant`` takes the variant's standard start).

    :raises BoardTextError: as :func:`load`.
    """
    text = read_file(path)
    if Path(path).suffix.lower() == ".toml":
        if grid is not None or rules is not None:
            raise BoardTextError(f"board file {str(path)!r}: a .toml file names its own rules (rules = \"...\" "
                                 f"in the file); grid and rules are for a board drawn as text")
        return _read(text, str(path))
    try:
        board = Board.from_text(text, grid=grid, name=name_from_file(path), rules=rules)
    except (BoardTextError, BoardTooLargeError) as e:
        # TOML saved under another suffix was read as a drawing: its message spoke of cells
        hint = " (it reads as a TOML board file: name it .toml)" if _looks_like_toml(text) else ""
        raise type(e)(f"board file {str(path)!r}, {e}{hint}") from None
    return board, None, bool(board.vacancies())


def name_from_file(path: str | Path) -> str:
    """A board's name taken from its file's name: the stem, with every character that is not
    printable (a control character, or a byte that is not UTF-8) shown as ``?``, since the
    name goes into text, JSON and SVG answers; ``custom`` when nothing is left."""
    # a byte that is not UTF-8 came in as a lone surrogate, which is not printable either
    return "".join(ch if ch.isprintable() else "?" for ch in Path(path).stem) or "custom"


def _looks_like_toml(text: str) -> bool:
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError:
        return False
    return bool(set(data) & KEYS)


def _read(raw: str, source: str) -> tuple[Board, Goal | None, bool]:
    if not isinstance(raw, str):
        raise BoardTextError(f"{source}: a board file's text is a str, not {type(raw).__name__}")
    try:
        data = tomllib.loads(raw)
    except tomllib.TOMLDecodeError as e:
        raise BoardTextError(f"{source}: not valid TOML: {e}") from None

    def fail(key: str, reason: str) -> BoardTextError:
        # a key or a table, dotted or not (goal.extra = 1, [goal.extra], extra.x = 1 in [goal])
        key = rf"(goal\s*\.\s*)?{re.escape(key)}"
        line = _line_of(raw, rf"^\s*({key}\s*[=.]|\[\s*{key}\s*[].])")
        where = f", line {line}" if line else ""
        return BoardTextError(f"{source}{where}: {reason}")

    unknown = [k for k in data if k not in KEYS]   # in the file's order, the first one's line named
    if unknown:
        # the goal's unknown keys too: a trial fixed the top ones, then was told of [goal]'s
        goal = data.get("goal")
        in_goal = [k for k in goal if k not in GOAL_KEYS] if isinstance(goal, dict) else []
        also = f"; and in [goal], {_unknown('key', in_goal)} (expected finish or pegs)" if in_goal else ""
        raise fail(unknown[0], f"{_unknown('key', unknown)}; expected {', '.join(sorted(KEYS))}{also}")
    name = data.get("name", name_from_file(source) if source != "board file" else "custom")
    if not isinstance(name, str) or not name.strip():
        raise fail("name", f"'name' must be a non-empty string, not {_shown(name)}")
    if not name.isprintable():   # a newline in it broke the answer's header across lines
        raise fail("name", f"'name' must be one line of printable characters, not {_shown(name)}")
    rules = data.get("rules")
    if rules is not None and rules not in RULES:
        raise fail("rules", f"unknown rules {rules!r}; expected one of {', '.join(RULES)}")
    if ("board" in data) == ("variant" in data):
        raise BoardTextError(f"{source}: give exactly one of 'board' (a drawing) or 'variant' (a name)")
    if "variant" in data:
        from .variants import find_variant  # variants import this module's siblings only
        given = data["variant"]
        if isinstance(given, bool) or not isinstance(given, (str, int)):   # 33 and 37 name boards too
            raise fail("variant", f"'variant' must be a variant's name, such as \"french\", not {_shown(given)}")
        try:
            variant = find_variant(str(given))
        except PegsolverError as e:
            raise fail("variant", str(e)) from None
        if "name" in data:  # a catalogued board keeps its own name
            raise fail("name", "'name' names a drawn board; a variant keeps its own name: leave 'name' out")
        if rules and rules != variant.rules:
            if rules != "diagonal":
                raise fail("rules", f"rules {rules!r} do not apply to variant {data['variant']!r}")
            variant = find_variant(variant.name + "-diagonal")
        board = variant.board()
    else:
        if not isinstance(data["board"], str):
            raise fail("board", "'board' must be a string drawing the board")
        board = _parse_drawing(raw, data["board"], source, name, rules)
    if "vacant" in data:
        holes = data["vacant"] if isinstance(data["vacant"], list) else [data["vacant"]]
        if not holes:
            raise fail("vacant", "'vacant' lists no hole; leave it out for the board's own start")
        if any(isinstance(h, bool) or not isinstance(h, (str, int)) for h in holes):
            raise fail("vacant", f"'vacant' must be a hole or a list of holes (names or numbers), "
                                 f"not {_shown(data['vacant'])}")
        drawn = board.vacancies()
        if "board" in data and drawn:  # two starts: which one was meant cannot be told
            raise fail("vacant", "the drawing already has vacant holes "
                                 f"({', '.join(hole_name(board.shape, h) for h in drawn)}); "
                                 "give the start by the drawing or by 'vacant', not both")
        try:
            empty = [parse_hole(board.shape, str(h)) for h in holes]
        except PegsolverError as e:
            raise fail("vacant", str(e)) from None
        if len(set(empty)) != len(empty):
            twice = next(str(h) for h, index in zip(holes, empty) if empty.count(index) > 1)
            raise fail("vacant", f"'vacant' lists hole {twice} twice")
        board = board.with_pegs(board.shape.full_mask & ~sum(1 << h for h in empty))
        if not board.pegs_mask:
            raise fail("vacant", "'vacant' leaves no peg on the board")
    goal = _goal(data.get("goal"), board, fail)
    return board, goal, "vacant" in data or ("board" in data and bool(board.vacancies()))


def _shown(value: object) -> str:
    """A value read from TOML, spelled as TOML spells it (true, not Python's True)."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, str):
        return _quote(value)
    if isinstance(value, list):
        return "[" + ", ".join(_shown(v) for v in value) + "]"
    if isinstance(value, dict):
        return "{" + ", ".join(f"{k} = {_shown(v)}" for k, v in value.items()) + "}"
    if hasattr(value, "isoformat"):  # TOML's dates and times
        return str(value.isoformat())
    return repr(value)  # numbers: TOML spells inf and nan as Python does


def _parse_drawing(raw: str, text: str, source: str, name: str, rules: str | None) -> Board:
    try:
        shape, pegs = parse_board_text(text, grid=grid_for(None, rules), name=name, rules=rules)
    except BoardTextError as e:
        start = _line_of(raw, r"^\s*board\s*=")
        if e.line is None or start is None:
            raise BoardTextError(f"{source}: {e}") from None
        # A multi-line string that opens at the end of its line starts on the next one.
        opener = raw.splitlines()[start - 1]
        first = start + 1 if re.search(r"=\s*('''|\"\"\")\s*$", opener) else start
        col = f", column {e.column}" if e.column else ""
        raise BoardTextError(f"{source}, line {first + e.line - 1}{col}: {e.reason}") from None
    except BoardTooLargeError as e:   # named by the file, as a drawn .txt board's is
        raise BoardTooLargeError(f"{source}: {e}") from None
    return Board(shape, pegs)


def _unknown(what: str, keys: list[str]) -> str:
    # every unknown key at once: a file with two stopped at the first, then at the second
    return f"unknown {what} {keys[0]!r}" if len(keys) == 1 else \
        f"unknown {what}s {', '.join(repr(k) for k in keys)}"


def _goal(table: object, board: Board, fail: Fail) -> Goal | None:
    if table is None:
        return None
    if not isinstance(table, dict):
        raise fail("goal", "'goal' must be a table: [goal] with finish and/or pegs")
    unknown = [k for k in table if k not in GOAL_KEYS]
    if unknown:
        raise fail(unknown[0], f"{_unknown('goal key', unknown)}; expected finish or pegs")
    if not table:   # it read as one peg anywhere, dropping a variant's own goal without a word
        raise fail("goal", "the [goal] table is empty: give its finish and/or pegs, or leave [goal] out "
                           "for the board's own goal")
    finish = table.get("finish", "any")
    pegs = table.get("pegs", 1)
    if not isinstance(pegs, int) or isinstance(pegs, bool) or pegs < 1:
        raise fail("pegs", f"goal pegs must be a whole number of at least 1, not {_shown(pegs)}")
    if pegs > board.pegs_mask.bit_count():  # said here, where the file and line are known
        raise fail("pegs", f"goal pegs = {pegs} but the start has only {board.pegs_mask.bit_count()}")
    try:
        if isinstance(finish, str) and finish.lower() in ("any", "anywhere"):
            return Goal.anywhere(pegs)
        if isinstance(finish, str) and finish.lower() == "fewest":   # as solve --finish fewest
            if "pegs" in table:
                raise fail("pegs", "goal finish = \"fewest\" asks for the fewest pegs possible: leave pegs out")
            return Goal.fewest()
        # A lone hole may be a number (finish = 13 on a triangle), as in 'vacant'.
        holes = finish if isinstance(finish, list) else [finish]
        if not holes or any(isinstance(h, bool) or not isinstance(h, (str, int)) for h in holes):
            raise fail("finish", "goal finish must be a hole, a list of holes, 'any' or 'fewest', "
                                 f"not {_shown(finish)}")
        indices = [parse_hole(board.shape, str(h)) for h in holes]
    except PegsolverError as e:
        if isinstance(e, BoardTextError):
            raise
        raise fail("finish", str(e)) from None
    if len(set(indices)) != len(indices):   # named, as 'vacant' and --vacant name theirs
        twice = next(str(h) for h, i in zip(holes, indices) if indices.count(i) > 1)
        raise fail("finish", f"goal finish lists hole {twice} twice")
    if "pegs" in table and pegs != len(indices):
        raise fail("pegs", f"goal pegs = {pegs} but finish lists {plural(len(indices), 'hole')}")
    if len(indices) > board.pegs_mask.bit_count():
        raise fail("finish", f"goal finish lists {plural(len(indices), 'hole')} but the start has only "
                             f"{plural(board.pegs_mask.bit_count(), 'peg')}")
    return Goal.pattern(indices)


def read_file(path: str | Path) -> str:
    """A board file's text: UTF-8, a byte-order mark allowed, at most ``MAX_FILE_BYTES``.

    :raises BoardTextError: not a path, not a regular file (a FIFO, a device such as
        /dev/zero), unreadable, not UTF-8, or too large for a board.
    """
    if not isinstance(path, (str, os.PathLike)):
        raise BoardTextError(f"a board file is given by its path (a string or Path), not {path!r}")
    try:
        # Only regular files: opening a FIFO (or a terminal) would wait for a writer.
        if not stat.S_ISREG(os.stat(path).st_mode):
            raise BoardTextError(f"cannot read board file {str(path)!r}: not a regular file")
        with open(path, "rb") as f:
            raw = f.read(MAX_FILE_BYTES + 1)
    except OSError as e:
        raise BoardTextError(f"cannot read board file {str(path)!r}: {e.strerror or e}") from None
    if len(raw) > MAX_FILE_BYTES:
        raise BoardTextError(f"board file {str(path)!r} is larger than {MAX_FILE_BYTES} bytes: not a board")
    try:
        return raw.decode("utf-8-sig")
    except UnicodeDecodeError as e:
        raise BoardTextError(f"board file {str(path)!r} is not UTF-8 text ({e.reason} at byte {e.start})") from None


def load(path: str | Path, grid: str | None = None, rules: str | None = None) -> tuple[Board, Goal | None]:
    """Read a board file (see the module docstring); a path not ending in ``.toml`` is read
    as a board drawn as text (:meth:`Board.from_text` with ``grid`` and ``rules``, named by
    the file's stem; no goal), as the command line reads it with ``--grid`` and ``--rules``.

    :raises BoardTextError: unreadable file, any fault :func:`loads` reports, a malformed
        drawing (the message names the file), or ``grid`` or ``rules`` for a .toml file.
    """
    board, goal, _ = load_with_start(path, grid, rules)
    return board, goal


def dumps(board: Board, goal: Goal | None = None) -> str:
    """A board file for this board and goal (default: a variant board's standard goal);
    :func:`loads` reads it back equal.

    :raises BoardTextError: ``board`` is not a Board.
    :raises GoalError, UnknownHoleError: a goal that does not fit the board, or not a Goal.
    """
    if not isinstance(board, Board):
        raise BoardTextError(f"dumps needs a Board to write, not {board!r}")
    if goal is not None and not isinstance(goal, Goal):
        raise GoalError(f"dumps takes a Goal or None as the goal, not {goal!r}")
    shape = board.shape
    if goal is None:  # keep the goal a variant board implies
        goal = board.default_goal
    if goal is not None and not goal.fewest_pegs:
        goal = goal.resolve(shape)
    lines = [f"name = {_quote(shape.name)}", f"rules = {_quote(shape.rules)}",
             "board = '''", board.to_text(), "'''"]
    if goal is not None:
        lines.append("\n[goal]")
        if goal.fewest_pegs:   # as loads reads it (it was refused here, so a loaded file could not be saved)
            lines.append('finish = "fewest"')
        elif goal.finish is None:
            lines += ['finish = "any"', f"pegs = {goal.pegs}"]
        else:
            names = [hole_name(shape, h) for h in goal.finish_holes()]
            lines.append(f"finish = {_quote(names[0])}" if len(names) == 1
                         else "finish = [" + ", ".join(map(_quote, names)) + "]")
    return "\n".join(lines) + "\n"


def _quote(s: str) -> str:
    return json.dumps(s, ensure_ascii=False)  # a JSON string is a valid TOML basic string


__all__ = ["load", "loads", "dumps", "read_file"]
