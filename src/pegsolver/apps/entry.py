"""The pegsolver program: SIGTERM ends it as Ctrl-C does while the command line's modules
load (half a second) and its arguments are read, before a command's guard is set (it was
killed by the signal then, with no word and no JSON); and a signal in that time is kept,
so that one whose exception something caught as it loaded still ends the program."""
from __future__ import annotations

import signal
import sys
from typing import NoReturn

from ..engine import stopping
from ..errors import Terminated


def _signalled(signum: int, frame: object) -> None:
    stop = Terminated() if signum == signal.SIGTERM else KeyboardInterrupt()
    stopping.early_signals.append(stop)   # kept: a library's except clause may catch it
    raise stop


def run() -> None:
    """Run ``pegsolver`` with ``sys.argv`` and exit with its code."""
    for sig in (signal.SIGINT, signal.SIGTERM):   # one a parent ignores stays ignored
        if signal.getsignal(sig) in (signal.SIG_DFL, signal.default_int_handler):
            signal.signal(sig, _signalled)   # until the command's guard takes over
    try:
        from .cli import main
        from .cli_args import EXIT_INTERRUPTED
    except KeyboardInterrupt as e:   # Ctrl-C or SIGTERM while the modules load
        stopped_while_loading(e)
    except Exception:
        if stopping.early_signals:   # the signal's exception became another on the way up (a
            stopped_while_loading(stopping.early_signals[0])   # RuntimeError from a class numpy made)
        raise
    if stopping.early_signals:   # one whose exception was caught on the way
        stopped_while_loading(stopping.early_signals[0])
    try:
        code = main()   # it answers a signal itself, also one that came as it read its arguments
    except KeyboardInterrupt:   # one that came as it returned
        code = EXIT_INTERRUPTED
    sys.exit(code)


def stopped_while_loading(e: KeyboardInterrupt) -> NoReturn:
    """Say that a signal stopped the program before its command began, and exit 130."""
    if "--json" in sys.argv[1:]:   # scripts reading stdout get an answer even this early
        print('{"reason": "interrupted", "error": "interrupted before the command began"}')
    print(f"pegsolver: {'stopped by SIGTERM' if isinstance(e, Terminated) else 'interrupted'}", file=sys.stderr)
    sys.exit(130)   # EXIT_INTERRUPTED, whose module may not have loaded
