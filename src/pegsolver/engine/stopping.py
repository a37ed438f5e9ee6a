"""Stopping a run by signal: Ctrl-C raises KeyboardInterrupt, SIGTERM (``kill``, a batch
system's time limit) raises Terminated, so that a run stops as it does on Ctrl-C.

Only the first signal stops the run. Another within GRACE_SECONDS is ignored, so that the
report of what finished still prints (``timeout`` and a terminal both may send a signal to
the whole process group, a few milliseconds apart); a later one ends the process at once,
for a user who does not want to wait for the clean stop."""
from __future__ import annotations

import os
import signal
import sys
import threading
import time
from typing import Literal

from ..errors import Terminated

GRACE_SECONDS = 2.0
EXIT_INTERRUPTED = 130


class _Signals:
    name = "Ctrl-C"              # the first signal of the run, as answers name it
    since: float | None = None   # when it came (time.monotonic())
    depth = 0                    # guards open: the outermost one acts


_state = _Signals()


def interrupt_name() -> str:
    """The signal that stopped the run, as answers name it: "Ctrl-C" (SIGINT, or a
    KeyboardInterrupt outside a guard) or "SIGTERM" (in an :class:`interrupt_guard`)."""
    return _state.name


def stop_requested() -> bool:
    """True once a signal has asked the run in an :class:`interrupt_guard` to stop (code
    that catches the stop inside, as solve() does, can so tell a caller's loop to end)."""
    return _state.since is not None


def raise_if_stopped() -> None:
    """Raise the stop again (KeyboardInterrupt, or Terminated for SIGTERM) when a signal came
    in an :class:`interrupt_guard` and its exception was caught on the way (an ``except``
    around an import, in a library): long loops call it between their steps."""
    if _state.since is not None:
        raise Terminated if _state.name == "SIGTERM" else KeyboardInterrupt


def note_stop(signum: int) -> None:
    """Take a signal that code with handlers of its own noted (a Dask cluster's start) as
    the run's stop, as an :class:`interrupt_guard`'s handler would have: an ending guard
    then keeps the signals ignored after it. Without this, the guard put Python's handlers
    back, and a later Ctrl-C could end the process by the signal, not with exit 130 (seen
    once in CI: exit -2 after "stopped by Ctrl-C")."""
    if _state.depth and _state.since is None:
        _state.since = time.monotonic()
        _state.name = "SIGTERM" if signum == signal.SIGTERM else "Ctrl-C"


# The signals that came before any guard was set (the program's entry point records them)
early_signals: list[KeyboardInterrupt] = []


def raise_early_signal(error: BaseException | None = None) -> None:
    """Raise the first of :data:`early_signals` when one came: its exception may have been
    caught on the way, or become another (a KeyboardInterrupt in argparse's clean-up comes
    out as an AttributeError); ``error`` is the one it became."""
    if early_signals:
        raise early_signals[0] from error


def stop_in_import(error: ImportError) -> None:
    """A compiled module's start-up turns a signal that comes while it loads into an
    ImportError: raise the stop it was (KeyboardInterrupt) when one came, else nothing.
    For where the ImportError would be caught and the stop lost; one that reaches an
    :class:`interrupt_guard` is turned back into the stop there."""
    if stop_requested():
        raise KeyboardInterrupt from error


class interrupt_guard:
    """Make sure Ctrl-C raises KeyboardInterrupt, and SIGTERM Terminated, in the main thread
    during the run (the first signal only: see the module); a signal the caller ignores
    stays ignored. ``terminated``: a SIGTERM came. ``ending``: the process ends after the
    guard (the command line), so after a stop the signals stay ignored rather than go back
    to the old handlers: a second signal that comes, or is still pending, as the report
    finishes must not kill the process by the signal instead of exit 130."""

    terminated = False

    def __init__(self, ending: bool = False) -> None:
        self.ending = ending

    def _stop(self, signum: int, frame: object) -> None:
        if _state.since is not None:
            if time.monotonic() - _state.since < GRACE_SECONDS:
                return
            print("pegsolver: a second signal: stopped at once", file=sys.stderr, flush=True)
            os._exit(EXIT_INTERRUPTED)
        _state.since = time.monotonic()
        if signum == signal.SIGTERM:
            self.terminated = True
            _state.name = "SIGTERM"
            raise Terminated
        raise KeyboardInterrupt

    def __enter__(self) -> interrupt_guard:
        main = threading.current_thread() is threading.main_thread() and _state.depth == 0
        _state.depth += 1
        if main:
            _state.name, _state.since = "Ctrl-C", None
        self.old = {sig: signal.getsignal(sig) for sig in (signal.SIGINT, signal.SIGTERM)} if main else {}
        for sig in (signal.SIGINT, signal.SIGTERM):
            if main and self.old[sig] is not signal.SIG_IGN:
                signal.signal(sig, self._stop)
        return self

    def __exit__(self, kind: object, error: BaseException | None, tb: object) -> Literal[False]:
        stopped, name = _state.since is not None, _state.name
        for sig, old in self.old.items():
            if self.ending and stopped:
                signal.signal(sig, signal.SIG_IGN)
            elif old is not None and signal.getsignal(sig) is not old:
                signal.signal(sig, old)
        _state.depth -= 1
        if self.old:   # outside a guard, only KeyboardInterrupt stops a run
            _state.name, _state.since = "Ctrl-C", None
        # after a signal, an error is the stop's (see stop_in_import: a module loaded on first use
        # makes it an ImportError; Python makes one raised in a class's __set_name__ a RuntimeError)
        if stopped and isinstance(error, Exception):
            raise (Terminated() if name == "SIGTERM" else KeyboardInterrupt()) from error
        return False
