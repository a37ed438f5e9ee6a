"""What a spill directory's ``run.json`` holds, checked: the record of finished levels a
resume starts from, and the identity of its run (board, start, finish, counts,
symmetries) compared with the run asking to use it, in the command line's words."""
from __future__ import annotations

import hashlib
import json
from collections.abc import Sequence
from typing import Any

# a finished level's entry in run.json (PartitionedRun._finish writes them)
_LEVEL_WHOLE = ("k", "parts", "positions", "key_bytes", "count_bytes", "dead_ends", "nodes", "children", "staged")
_LEVEL_DIGITS = ("total", "games")   # numbers past JSON's doubles, as decimal text


def _whole(x: object) -> bool:
    return isinstance(x, int) and not isinstance(x, bool) and x >= 0


def sealed(record: dict[str, Any]) -> dict[str, Any]:
    """``record`` with its check, a hash of the rest: a record edited by hand is refused,
    not trusted (a trial's edit of a level's positions changed the total printed)."""
    return {**record, "check": _digest(record)}


def _digest(record: dict[str, Any]) -> str:
    body = {key: value for key, value in record.items() if key != "check"}
    return hashlib.sha256(json.dumps(body, sort_keys=True).encode()).hexdigest()[:32]


def record_fault(record: object) -> str | None:
    """What makes a run record unusable (edited by hand, say), or None. A record without a
    check (an earlier version's) is only checked for its shape."""
    if not isinstance(record, dict):
        return "it is not an object"
    if "check" in record and record["check"] != _digest(record):
        return "it was changed after pegsolver wrote it (its check does not match)"
    if not isinstance(record.get("identity"), dict):
        return "it names no run (no identity)"
    levels = record.get("levels")
    if not isinstance(levels, list) or not levels:
        return "it lists no finished level"
    for i, entry in enumerate(levels):
        if not isinstance(entry, dict):
            return f"its level entry {i} is not an object"
        bad = [f for f in _LEVEL_WHOLE if not _whole(entry.get(f))]
        bad += [f for f in _LEVEL_DIGITS if not (isinstance(entry.get(f), str) and entry[f].isdigit())]
        if bad:
            return f"its level entry {i} has no whole number for {', '.join(bad)}"
        if not isinstance(entry.get("seconds"), (int, float)) or isinstance(entry["seconds"], bool):
            return f"its level entry {i} has no number of seconds"
        if entry["k"] != i:
            return f"its level entry {i} is for level {entry['k']}"
    bad = [f for f in ("peak_bytes", "disk_bytes") if f in record and not _whole(record[f])]
    return f"its {', '.join(bad)} {'is' if len(bad) == 1 else 'are'} not a whole number" if bad else None


def differs(key: str, theirs: Any, ours: Any, names: Sequence[str]) -> str:
    """How ``theirs`` differs from ``ours`` for identity entry ``key``: "board 'a', not 'b'",
    or, for the entries a user never types, both in the command line's words (holes by
    ``names``)."""
    if key in ("counted", "start", "finish", "symmetries"):
        return f"{_shown(key, theirs, names)}, not {_shown(key, ours, names)}"
    return f"{key} {theirs!r}, not {ours!r}"


def _shown(key: str, value: Any, names: Sequence[str]) -> str:
    # an identity entry in the command line's words, holes by their names on the board
    if key == "counted":
        return "counts kept" if value else "positions only (--positions-only)"
    if key == "symmetries":
        return "every position counted (--unreduced)" if value == 1 else \
            f"positions counted by symmetry class ({value} symmetries)"
    if not isinstance(value, int):
        return "no finish" if value is None else "?"
    if key == "start":
        vacant = [names[h] for h in range(len(names)) if not value >> h & 1]
        return f"the start with hole{'s' * (len(vacant) != 1)} {', '.join(vacant)} vacant"
    return f"finish on hole {names[value]}" if 0 <= value < len(names) else "?"
