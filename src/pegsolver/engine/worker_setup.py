"""Set-up of the Dask workers that ``--workers N`` starts on this machine (Dask's worker
preload: ``dask_setup`` runs in each worker process as it starts, restarts included).

The terminal's Ctrl-C goes to every process of the foreground group; only the main process
should act on it (it stops the workers itself), so each worker ignores it rather than print
a traceback of its own. A worker logs nothing below CRITICAL either: when the run stops, a
worker whose heartbeat reaches the scheduler just closed logged an ERROR with a traceback
(seen under load), and what a worker's task raises reaches the main process, which reports it.
"""
from __future__ import annotations

import logging
import signal
import threading
from typing import Any


def dask_setup(worker: Any) -> None:
    """Ignore SIGINT in this worker process, and log only Dask's CRITICAL lines (called by
    Dask with the Worker; no return)."""
    logging.getLogger("distributed").setLevel(logging.CRITICAL)
    if threading.current_thread() is threading.main_thread():
        signal.signal(signal.SIGINT, signal.SIG_IGN)
