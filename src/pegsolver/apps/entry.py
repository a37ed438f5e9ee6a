"""The pegsolver program: SIGTERM ends it as Ctrl-C does while the command line's modules
load (half a second) and its arguments are read, before a command's guard is set (it was
killed by the signal then, with no word and no JSON); and a signal in that time is kept,
so that one whose exception something caught as it loaded still ends the program.
The signals are taken as soon as ``signal`` has loaded, before this module's own imports
(a Ctrl-C 50 ms after the start came out as a traceback from them)."""
from __future__ import annotations

import atexit
import os
import signal
import sys

TYPE_CHECKING = False   # typing.TYPE_CHECKING without importing typing before the signals are taken
if TYPE_CHECKING:
    from typing import Any, NoReturn

_first: list[int] = []   # the signals that came as this module's own imports loaded


def _stop_early(signum: int, frame: object) -> None:
    _first.append(signum)
    raise KeyboardInterrupt


def _take(handler: Any) -> dict[int, Any]:
    # the signals the program may take (one a parent ignores stays ignored), and their old handlers
    old: dict[int, Any] = {}
    for sig in (signal.SIGINT, signal.SIGTERM):
        if signal.getsignal(sig) in (signal.SIG_DFL, signal.default_int_handler):
            old[sig] = signal.signal(sig, handler)
    return old


def stopped_while_loading(stop: KeyboardInterrupt | int) -> NoReturn:
    """Say that a signal (its exception, or its number) stopped the program before its
    command began, and exit 130."""
    # a number before errors.Terminated has loaded (this module's own imports); an exception after
    term = stop == signal.SIGTERM if isinstance(stop, int) else isinstance(stop, Terminated)
    what = f"stopped by {'SIGTERM' if term else 'Ctrl-C'} before the command began: nothing was done"
    if "--json" in sys.argv[1:]:   # scripts reading stdout get an answer even this early
        print(f'{{"reason": "interrupted", "error": "{what}"}}')
    print(f"pegsolver: {what}", file=sys.stderr)   # the same words: a trial read "interrupted" as a crash
    sys.exit(130)   # EXIT_INTERRUPTED, whose module may not have loaded


_before = _take(_stop_early)
try:
    from ..engine import stopping
    from ..errors import Terminated
except KeyboardInterrupt:
    stopped_while_loading(_first[0] if _first else signal.SIGINT)
for _sig, _handler in _before.items():   # importing this module leaves the signals as they were
    signal.signal(_sig, _handler)
if _first:   # one whose exception was caught on the way
    stopped_while_loading(_first[0])


def _signalled(signum: int, frame: object) -> None:
    stop = Terminated() if signum == signal.SIGTERM else KeyboardInterrupt()
    stopping.early_signals.append(stop)   # kept: a library's except clause may catch it
    raise stop


def run() -> None:
    """Run ``pegsolver`` with ``sys.argv`` and exit with its code."""
    _take(_signalled)   # until the command's guard takes over
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
    except KeyboardInterrupt as e:   # one that came as it returned: its answer was written whole
        print(f"pegsolver: stopped by {'SIGTERM' if isinstance(e, Terminated) else 'Ctrl-C'} as the command "
              "returned; its answer above is complete", file=sys.stderr)
        code = EXIT_INTERRUPTED
    _take_after_answer(code)
    sys.exit(code)


def _take_after_answer(code: int) -> None:
    # The answer is complete: a signal as the interpreter shuts down (its threads and exit
    # hooks: Dask's, numpy's) ends it at once with the answer's code, with no traceback.
    def done(signum: int, frame: object) -> None:
        for stream in (sys.stdout, sys.stderr):
            try:
                stream.flush()
            except (OSError, ValueError):   # a reader gone, or a stream closed: nothing to save
                pass
        os._exit(code)
    _after_answer.append(done)
    for sig in (signal.SIGINT, signal.SIGTERM):
        if signal.getsignal(sig) is _signalled:   # one a parent ignores stays ignored
            signal.signal(sig, done)


_after_answer: list[object] = []   # the handler set once the answer is complete


def _ignore_late_signals() -> None:
    # The last exit hook (registered as this module loads, so it runs after Dask's and the
    # others): past it the interpreter puts back the default action of the handlers it set,
    # and a signal then killed a process whose answer was complete (a trial's exit 143 after
    # a whole answer). Ignored from here, the process ends with the answer's code.
    for sig in (signal.SIGINT, signal.SIGTERM):
        if signal.getsignal(sig) in _after_answer:
            signal.signal(sig, signal.SIG_IGN)


atexit.register(_ignore_late_signals)
