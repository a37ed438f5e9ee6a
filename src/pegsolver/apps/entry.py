"""The pegsolver program: SIGTERM ends it as Ctrl-C does while the command line's modules
load (half a second) and its arguments are read, before a command's guard is set (it was
killed by the signal then, with no word and no JSON)."""
from __future__ import annotations

import signal
import sys

from ..errors import Terminated


def _terminated(signum: int, frame: object) -> None:
    raise Terminated


def run() -> None:
    """Run ``pegsolver`` with ``sys.argv`` and exit with its code."""
    if signal.getsignal(signal.SIGTERM) == signal.SIG_DFL:   # one a parent ignores stays ignored
        signal.signal(signal.SIGTERM, _terminated)   # until the command's guard takes over
    from .cli import main  # a signal while it loads: it prints that it stopped, exit 130
    from .cli_args import EXIT_INTERRUPTED
    try:
        code = main()   # it answers a signal itself, also before its command runs
    except KeyboardInterrupt:   # one that came as it returned
        code = EXIT_INTERRUPTED
    sys.exit(code)
