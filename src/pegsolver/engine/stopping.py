"""Stopping a run by signal: Ctrl-C raises KeyboardInterrupt, SIGTERM (``kill``, a batch
system's time limit) raises Terminated, so that a run stops as it does on Ctrl-C."""
from __future__ import annotations

import signal
import threading
from typing import Literal

from ..errors import Terminated

_last = ["Ctrl-C"]   # the signal that stopped the run last, as the answers name it


def interrupt_name() -> str:
    """The signal that stopped the run, as answers name it: "Ctrl-C" (SIGINT, or a
    KeyboardInterrupt outside a guard) or "SIGTERM" (in an :class:`interrupt_guard`)."""
    return _last[0]


class interrupt_guard:
    """Make sure Ctrl-C raises KeyboardInterrupt, and SIGTERM Terminated, in the main thread
    during the run; a signal the caller ignores stays ignored. ``terminated``: a SIGTERM came."""

    terminated = False

    def _terminate(self, signum: int, frame: object) -> None:
        self.terminated = True
        _last[0] = "SIGTERM"
        raise Terminated

    def __enter__(self) -> interrupt_guard:
        _last[0] = "Ctrl-C"
        main = threading.current_thread() is threading.main_thread()
        self.old = {sig: signal.getsignal(sig) for sig in (signal.SIGINT, signal.SIGTERM)} if main else {}
        for sig, ours in ((signal.SIGINT, signal.default_int_handler), (signal.SIGTERM, self._terminate)):
            if main and self.old[sig] not in (ours, signal.SIG_IGN):
                signal.signal(sig, ours)
        return self

    def __exit__(self, *exc: object) -> Literal[False]:
        _last[0] = "Ctrl-C"   # outside a guard, only KeyboardInterrupt stops a run
        for sig, old in self.old.items():
            if old is not None and signal.getsignal(sig) is not old:
                signal.signal(sig, old)
        return False
