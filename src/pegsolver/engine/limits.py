"""One :class:`Limit` for every long-running call, and the checks of its parts, written once
and used by the API and the command line alike (each names the argument it checks)."""
from __future__ import annotations

import math
import threading
import warnings
from dataclasses import dataclass
from typing import Any, SupportsFloat, TypedDict, Unpack, cast

import numpy as np

from ..errors import PegsolverError
from ..model.numbers import as_whole

MAX_COUNT = 1 << 63              # the core counts nodes in 64-bit words
KIB, MIB, GIB, TIB, PIB = (1 << 10), (1 << 20), (1 << 30), (1 << 40), (1 << 50)
DEFAULT_SEARCH_BYTES = 256 << 20  # a search's table of dead positions, when no budget is given
MAX_SEARCH_BYTES = 1 << 40        # 1 TiB: more than any machine here; the kernel would refuse sooner
UNITS = ((PIB, "PiB"), (TIB, "TiB"), (GIB, "GiB"), (MIB, "MiB"), (KIB, "KiB"))


def as_seconds(x: object) -> float | None:
    """``x`` as positive, finite seconds (ints, floats, numpy numbers); None otherwise."""
    if isinstance(x, (bool, str, bytes)):
        return None
    try:
        s = float(cast(SupportsFloat, x))  # a TypeError or ValueError for anything else
    except (TypeError, ValueError, OverflowError):   # an int past a float's range too
        return None
    return s if 0 < s < math.inf else None


def shown(x: object) -> str:
    """``repr(x)`` for an error message, cut short past 40 characters (an int of 400 digits)."""
    text = repr(x)
    return text if len(text) <= 40 else f"{text[:20]}... ({len(text)} characters)"


def size_text(nbytes: float) -> str:
    """``nbytes`` in the largest binary unit it fills (``"256 MiB"``)."""
    for unit, name in UNITS:
        if nbytes >= unit:
            return f"{nbytes / unit:.4g} {name}"
    return f"{nbytes:g} bytes"


def check_nodes(x: object, name: str = "the node limit", zero_is_none: bool = False) -> int | None:
    """A node limit: a whole number from 1 to 2**63 - 1 (0 means none when ``zero_is_none``).

    :raises PegsolverError: anything else; the message names ``name`` and the value.
    """
    n = as_whole(x)
    if n is None:
        raise PegsolverError(f"{name} must be a whole number of positions, not {shown(x)}")
    if zero_is_none and n == 0:
        return None
    if n < 1:
        lowest = "0 (no limit) or a positive number of positions" if zero_is_none else "at least 1"
        raise PegsolverError(f"{name} must be {lowest}, not {shown(x)}")
    if n >= MAX_COUNT:
        raise PegsolverError(f"{name} must be at most {MAX_COUNT - 1:,}: a node limit must be a count the "
                             f"core's 64-bit counters hold, not {shown(x)}")
    return n


def check_seconds(x: object, name: str = "the time limit", zero_is_none: bool = False) -> float | None:
    """A time limit in seconds: positive and finite (0 means none when ``zero_is_none``).

    :raises PegsolverError: anything else; the message names ``name`` and the value.
    """
    if zero_is_none and not isinstance(x, bool) and x == 0:
        return None
    s = as_seconds(x)
    if s is None:
        what = "0 (no limit) or a positive, finite number" if zero_is_none else \
            "a positive, finite number of seconds"
        raise PegsolverError(f"{name} must be {what}, not {shown(x)}")
    return s


def check_memory(x: object, name: str = "the memory budget", low: int = KIB, high: int = PIB, unit: int = 1) -> int:
    """A memory budget of ``x`` units (bytes by default; ``unit=MIB`` for a ``--table-mb``),
    as whole bytes from ``low`` to ``high``.

    :raises PegsolverError: a value out of range, not finite, or not a number.
    """
    whole = as_whole(x)
    if unit == 1 and whole is not None and low <= whole <= high:
        return whole
    if unit != 1 and whole is None and not isinstance(x, bool):
        try:
            nbytes = float(cast(SupportsFloat, x)) * unit
        except (TypeError, ValueError):
            nbytes = math.nan
        if low <= nbytes <= high:
            return int(nbytes)
    kind = "a whole number of bytes" if unit == 1 else f"a number of {size_text(unit).split()[1]}"
    raise PegsolverError(f"{name} must be {kind} from {size_text(low)} to {size_text(high)}, not {shown(x)}")


def check_threads(x: object, name: str = "threads") -> int:
    """A thread count: a power of two from 1 to 64.

    :raises PegsolverError: anything else.
    """
    from .core import enum_sizes  # the core's partitions of a level bound the threads

    most = enum_sizes().max_threads
    n = as_whole(x)
    if n is None or not 1 <= n <= most or n & (n - 1):
        raise PegsolverError(f"{name} must be a power of two from 1 to {most}, not {shown(x)}")
    return n


def check_callables(**callbacks: object) -> None:
    """Each keyword's value None or a function (``progress``, ``on_step``).

    :raises PegsolverError: one that is neither, by its name.
    """
    for name, f in callbacks.items():
        if f is not None and not callable(f):
            raise PegsolverError(f"{name} must be a function or None, not {type(f).__name__}")


def check_flags(**flags: object) -> None:
    """Each keyword's value True or False (``reduced``, ``keep_positions``).

    :raises PegsolverError: one that is neither, by its name.
    """
    for name, flag in flags.items():
        if not isinstance(flag, bool):   # a numpy bool too: "must be True or False, not np.False_" read oddly
            kind = type(flag)
            raise PegsolverError(f"{name} must be True or False (a Python bool), not {flag!r} "
                                 f"(a {kind.__module__}.{kind.__qualname__}): pass bool(...)"
                                 if kind.__module__ == "numpy" else f"{name} must be True or False, not {flag!r}")


class Cancel:
    """A flag that stops a run from another thread: pass it as ``Limit(cancel=...)``, then
    :meth:`set` it from any thread. The run stops at its next look at the clock (the search
    core looks every 1,024 positions; a search by moves every 32,768 parents and inside a
    parent's chains) with ``Reason.CANCELLED``, and says what it finished, as at a time limit.
    Ctrl-C reaches only the main thread; this is how a game or a server stops a search
    running in a worker thread. Honoured by ``solve`` (every strategy and ``minimize="moves"``),
    ``count_moves``, ``analyse`` and ``solution_counts``; a flag once set stays set."""

    __slots__ = ("flag", "_linked", "_lock")

    def __init__(self) -> None:
        self.flag = np.zeros(1, dtype=np.uint8)   # (1,) uint8: the core reads flag[0] without the GIL
        self._linked: list[np.ndarray] = []        # a run's own halt flags, set with this one
        self._lock = threading.Lock()

    def __copy__(self) -> Cancel:
        return self   # a handle: a copied Limit must still stop when the caller's Cancel is set

    def __deepcopy__(self, memo: dict[int, Any]) -> Cancel:
        return self

    def __reduce__(self) -> Any:
        # the core reads the flag in this process's memory: a copy elsewhere would stop nothing
        raise TypeError("a Cancel stops runs in the process that made it and cannot be pickled or sent to "
                        "another process (a worker of a pool, say): make one there")

    def set(self) -> None:
        """Ask the run to stop (safe from any thread)."""
        with self._lock:
            self.flag[0] = 1
            for f in self._linked:
                f[0] = 1

    def link(self, flag: np.ndarray) -> None:
        """Set ``flag[0]`` too when this is set (now, if it is already): a run's own halt
        flag, which its threads also set for each other, and which must not set this one.

        :raises PegsolverError: ``flag`` is not a writable numpy uint8 array of at least 1 item
            (set() would fail on it later, in whichever thread called it).
        """
        if not (isinstance(flag, np.ndarray) and flag.dtype == np.uint8 and flag.size >= 1
                and flag.flags.writeable):
            raise PegsolverError(f"a cancel links to a writable numpy uint8 array of 1 item, not {flag!r}")
        with self._lock:
            self._linked.append(flag)
            if self.flag[0]:
                flag[0] = 1

    def unlink(self, flag: np.ndarray) -> None:
        """Undo :meth:`link`."""
        with self._lock:
            self._linked = [f for f in self._linked if f is not flag]

    def is_set(self) -> bool:
        """True once :meth:`set` was called."""
        return bool(self.flag[0])

    def __repr__(self) -> str:
        return f"Cancel(set={self.is_set()})"


class LimitFields(TypedDict, total=False):
    """The fields of a :class:`Limit`, as :meth:`Limit.replace` takes them."""

    nodes: int | None
    seconds: float | None
    memory_bytes: int | None
    threads: int | None
    cancel: Cancel | None


@dataclass(frozen=True, init=False)
class Limit:
    """Limits on one long-running call (``solve``, ``analyse``, the survey of single
    vacancies, ``bench``); None in a field means the call's default.

    :param nodes: positions visited before stopping, 1 to 2**63 - 1 (None: no limit).
    :param seconds: wall-clock seconds before stopping, positive and finite (None: none).
    :param memory_bytes: memory budget in bytes (1 KiB to 1 PiB; each call narrows the
        range). A search spends it on its table of dead positions, which starts small and
        doubles while the old and new tables fit in it together, then replaces entries
        (None: 256 MiB), or on the beam's levels; an enumeration on its levels (None: 3/4
        of the memory available).
    :param threads: threads, a power of two up to 64 (None: the CPUs available, rounded
        down to one). Searches run on one thread and refuse any other count.
    :raises PegsolverError: a value out of range or of the wrong type; the message names it.

    ``table_bytes=`` is the old name of ``memory_bytes`` (deprecated).
    """

    nodes: int | None
    seconds: float | None
    memory_bytes: int | None
    threads: int | None
    cancel: Cancel | None

    def __init__(self, nodes: int | None = None, seconds: float | None = None, memory_bytes: int | None = None,
                 threads: int | None = None, *, cancel: Cancel | None = None,
                 table_bytes: int | None = None) -> None:
        if table_bytes is not None:
            warnings.warn("Limit(table_bytes=...) is now Limit(memory_bytes=...)", DeprecationWarning, stacklevel=2)
            if memory_bytes is not None:
                raise PegsolverError("give memory_bytes or its old name table_bytes, not both")
            memory_bytes = table_bytes
        object.__setattr__(self, "nodes", None if nodes is None else check_nodes(nodes))
        object.__setattr__(self, "seconds", None if seconds is None else check_seconds(seconds))
        object.__setattr__(self, "memory_bytes", None if memory_bytes is None else check_memory(memory_bytes))
        object.__setattr__(self, "threads", None if threads is None else check_threads(threads))
        if cancel is not None and not isinstance(cancel, Cancel):
            raise PegsolverError(f"cancel must be a pegsolver.Cancel or None, not {type(cancel).__name__}")
        object.__setattr__(self, "cancel", cancel)

    @staticmethod
    def check(value: object, name: str = "limit") -> Limit | None:
        """``value`` when it is a Limit or None.

        :raises PegsolverError: anything else; the message names ``name`` and the type.
        """
        if value is not None and not isinstance(value, Limit):
            raise PegsolverError(f"{name} must be a pegsolver.Limit or None, not {type(value).__name__}")
        return value

    def memory_or(self, default: int) -> int:
        """The memory budget in bytes, or ``default`` when none was given."""
        return default if self.memory_bytes is None else self.memory_bytes

    @property
    def table_bytes(self) -> int:
        """The search's memory budget in bytes (the old name; 256 MiB when none was given)."""
        return self.memory_or(DEFAULT_SEARCH_BYTES)

    def after(self, nodes: int, seconds: float) -> Limit | None:
        """What is left of this limit once ``nodes`` positions and ``seconds`` have been
        spent; None when the node or the time limit has run out.

        :raises PegsolverError: ``nodes`` not a whole number or ``seconds`` not a number.
        """
        if as_whole(nodes) is None or isinstance(seconds, bool) or not isinstance(seconds, (int, float)) \
                or nodes < 0 or not seconds >= 0:   # a negative spend raised the limit
            raise PegsolverError(f"after() takes the nodes spent (a whole number, 0 or more) and the seconds "
                                 f"(a number, 0 or more), not {nodes!r} and {seconds!r}")
        left_nodes = None if self.nodes is None else self.nodes - nodes
        left_seconds = None if self.seconds is None else self.seconds - seconds
        if (left_nodes is not None and left_nodes <= 0) or (left_seconds is not None and left_seconds <= 0):
            return None
        if (left_nodes, left_seconds) == (self.nodes, self.seconds):
            return self
        return self.replace(nodes=left_nodes, seconds=left_seconds)

    def replace(self, **changes: Unpack[LimitFields]) -> Limit:
        """A copy with some fields changed (checked again).

        :raises PegsolverError: a field a Limit does not have, or a value out of range."""
        unknown = sorted(set(changes) - {"nodes", "seconds", "memory_bytes", "threads", "cancel"})
        if unknown:
            raise PegsolverError(f"a Limit has no field {unknown[0]!r}; it has nodes, seconds, memory_bytes, "
                                 "threads and cancel")
        fields: LimitFields = dict(nodes=self.nodes, seconds=self.seconds, memory_bytes=self.memory_bytes,
                                   threads=self.threads, cancel=self.cancel)
        return Limit(**(fields | changes))

    @property
    def cancelled(self) -> bool:
        """True once the :class:`Cancel` of this limit was set."""
        return self.cancel is not None and self.cancel.is_set()

    @property
    def halt(self) -> np.ndarray | None:
        """The cancel flag as the core reads it: (1,) uint8, or None."""
        return None if self.cancel is None else self.cancel.flag


def check_one_thread(limit: Limit | None, what: str = "a search") -> None:
    """:raises PegsolverError: a limit of more than one thread: ``what`` runs on one (a search
    by moves took Limit(threads=2) without a word)."""
    if limit is not None and limit.threads not in (None, 1):
        raise PegsolverError(f"{what} runs on one thread, not {limit.threads} (threads are for analyse)")
