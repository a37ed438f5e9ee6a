"""Running pegsolver in a child process to stop it with a signal, for the tests."""
from __future__ import annotations

import os
import signal
import subprocess
import sys


def start(args: list[str], new_group: bool = False) -> subprocess.Popen[str]:
    """``python -m pegsolver ARGS`` with its output piped and Ctrl-C live in it, however
    this test run was started: a job that a shell puts in the background starts with
    SIGINT ignored, and its children would inherit that. ``new_group``: in a process group
    of its own, as a terminal runs a command (so that the group can be signalled)."""
    return subprocess.Popen([sys.executable, "-m", "pegsolver", *args], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True, env=dict(os.environ, PYTHONUNBUFFERED="1"),
                            start_new_session=new_group,
                            preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))


def finish(proc: subprocess.Popen[str], timeout: float) -> tuple[str, str]:
    """Its output once it ends; killed (with its group) if it does not end in ``timeout`` s."""
    try:
        return proc.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        try:
            os.killpg(proc.pid, signal.SIGKILL)
        except (ProcessLookupError, PermissionError):
            proc.kill()
        proc.communicate()
        raise
