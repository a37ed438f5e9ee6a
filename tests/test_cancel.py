"""Stopping a run from another thread: ``Limit(cancel=Cancel())``.

Ctrl-C reaches only the main thread, so a game or a server that searches in a worker
thread stops it with a Cancel. Each test here would run for a minute or more (or finish
with an answer) if the core ignored the flag; the bounds on the wall time are ten times
what a stop takes, and only say that the run stopped early.
"""
import asyncio
import threading
import time

import pytest

import pegsolver
from pegsolver import Cancel, Goal, Limit, PegsolverError, Reason, solve
from pegsolver.apps import play
from pegsolver.apps.hint import find_hint
from pegsolver.apps.play import PlayApp
from pegsolver.moves import count_moves

LONG = 120.0   # seconds each run is allowed: a run that ignores the cancel takes far longer than the bounds


def diamond_e1():
    """Diamond 41 with the hole e1 vacant: its hint searches for seconds."""
    board = pegsolver.find_variant("diamond").board()
    return board.with_pegs(board.shape.full_mask & ~(1 << board.hole("e1")))


def cancelled_after(delay, run):
    """``run(cancel)`` in a worker thread, the cancel set from this thread after ``delay``
    seconds: (its result, wall seconds from the cancel to its end)."""
    cancel, out = Cancel(), []
    worker = threading.Thread(target=lambda: out.append(run(cancel)))
    worker.start()
    time.sleep(delay)
    t0 = time.monotonic()
    cancel.set()
    worker.join(LONG)
    assert not worker.is_alive(), "the run went on after the cancel"
    return out[0], time.monotonic() - t0


def test_a_limit_checks_and_keeps_its_cancel():
    cancel = Cancel()
    assert not cancel.is_set() and "set=False" in repr(cancel)
    limit = Limit(seconds=5, cancel=cancel)
    assert limit.replace(nodes=10).cancel is cancel
    assert limit.after(1, 1.0).cancel is cancel
    cancel.set()
    assert limit.cancelled and limit.halt[0] == 1
    with pytest.raises(PegsolverError, match="cancel must be a pegsolver.Cancel or None, not Event"):
        Limit(cancel=threading.Event())


def test_a_cancel_sets_the_flags_linked_to_it_and_no_flag_sets_the_cancel():
    import numpy as np
    late, gone = (np.zeros(1, dtype=np.uint8) for _ in range(2))
    cancel = Cancel()
    cancel.link(late)
    cancel.link(gone)
    cancel.unlink(gone)
    late.fill(1)   # a run's own halt, set by one of its threads: the caller's cancel stays clear
    assert not cancel.is_set()
    late.fill(0)
    cancel.set()
    assert late[0] == 1 and gone[0] == 0
    fresh = np.zeros(1, dtype=np.uint8)
    cancel.link(fresh)   # linked after the cancel: set at once
    assert fresh[0] == 1


@pytest.mark.parametrize("strategy", [*pegsolver.STRATEGIES, "auto"])
def test_a_cancel_set_before_the_search_stops_it_at_once(strategy):
    cancel = Cancel()
    cancel.set()
    sol = solve("english", strategy=strategy, limit=Limit(seconds=LONG, cancel=cancel))
    assert sol.reason is Reason.CANCELLED and not sol.solved
    assert sol.stats.nodes <= 1
    assert "cancel" in sol.explanation or "cancel" in sol.to_text()


def test_a_cancelled_strategy_is_not_told_to_try_auto_but_a_limited_one_is():
    cancel = Cancel()
    cancel.set()
    stopped = solve("english", strategy="dfs", limit=Limit(seconds=LONG, cancel=cancel)).unsolved_text()
    assert stopped.startswith("not solved: stopped by a cancel") and "auto" not in stopped
    limited = solve("french", strategy="dfs", limit=Limit(nodes=1000)).unsolved_text()
    assert "stopped by the node limit" in limited and "the default strategy, auto" in limited


def test_the_reference_backend_honours_a_cancel():
    cancel = Cancel()
    cancel.set()
    sol = solve("english", strategy="dfs", backend="reference", limit=Limit(cancel=cancel))
    assert sol.reason is Reason.CANCELLED and sol.stats.nodes <= 1


def test_a_long_search_stops_when_another_thread_cancels_it():
    # French from a2 to the complement: dfs proves it in tens of millions of nodes
    board = pegsolver.find_variant("french").board()
    sol, took = cancelled_after(0.3, lambda c: solve(board, strategy="dfs", proofs=False,
                                                     limit=Limit(seconds=LONG, cancel=c)))
    assert sol.reason is Reason.CANCELLED and sol.stats.nodes > 0
    assert took < 5.0


def test_a_search_by_fewest_moves_stops_when_cancelled():
    # French by moves takes minutes; the answer still says what the regions prove
    sol, took = cancelled_after(0.5, lambda c: solve("french", minimize="moves",
                                                     limit=Limit(seconds=LONG, cancel=c)))
    assert sol.reason is Reason.CANCELLED and not sol.optimal and sol.lower_bound > 0
    assert took < 5.0


def test_the_beams_by_moves_over_64_holes_stop_when_cancelled():
    cancel = Cancel()
    cancel.set()
    sol = solve("rect11x11", minimize="moves", limit=Limit(seconds=LONG, cancel=cancel))
    assert sol.reason is Reason.CANCELLED and "cancel" in sol.explanation


def test_counting_by_moves_stops_when_cancelled():
    count, took = cancelled_after(0.3, lambda c: count_moves("french", limit=Limit(seconds=LONG, cancel=c)))
    assert count.stopped is Reason.CANCELLED and "stopped: cancelled" in count.to_text()
    assert took < 5.0


def test_a_hint_stops_when_cancelled():
    board = diamond_e1()
    hint, took = cancelled_after(0.5, lambda c: find_hint(board, Goal.anywhere(1), LONG, cancel=c))
    assert hint.reason is Reason.CANCELLED and hint.jump is None
    assert took < 5.0


def test_the_game_quits_at_once_while_a_hint_is_searched_for(monkeypatch):
    # Textual waits for a hint's thread on exit: the game stops the hint's search first
    ended = threading.Event()

    def hint_then_note(*args, **kwargs):
        try:
            return find_hint(*args, **kwargs)
        finally:
            ended.set()
    monkeypatch.setattr(play, "find_hint", hint_then_note)

    async def scenario():
        app = PlayApp(diamond_e1(), Goal.anywhere(1), hint_seconds=LONG)
        async with app.run_test(size=(110, 36)) as pilot:
            await pilot.press("h")
            await asyncio.sleep(0.5)
            assert app.thinking is not None and not ended.is_set()
            t0 = time.monotonic()
            await pilot.press("q")
            assert await asyncio.to_thread(ended.wait, LONG)
            return time.monotonic() - t0
    assert asyncio.run(scenario()) < 5.0


@pytest.mark.parametrize("place", ["memory", "disk", "dask"])
def test_a_whole_board_enumeration_stops_when_another_thread_cancels_it(place, tmp_path):
    # French forward takes minutes in every engine; each keeps the levels it finished
    where = {"memory": {}, "disk": {"spill": tmp_path / "spill", "threads": 2},
             "dask": {"workers": 1}}[place]
    a, after = cancelled_after(3.0 if place == "dask" else 1.0, lambda cancel: pegsolver.analysis.analyse(
        "french", keep_positions=False, memory_bytes=2 << 30, limit=Limit(seconds=LONG, cancel=cancel), **where))
    assert a.stopped is Reason.CANCELLED and a.message == "stopped by a cancel"
    assert after < 10.0
    assert a.levels and a.levels[0].positions == 1 and a.games is None


@pytest.mark.parametrize("place", ["memory", "disk", "dask"])
def test_a_cancel_set_before_a_whole_board_enumeration_stops_it_before_the_start(place, tmp_path, monkeypatch):
    # nothing runs: no cluster is started for it (that took a second, then stopped after level 0)
    import pegsolver.engine.cluster as cluster

    def no_cluster(*args, **kwargs):
        raise AssertionError("a cluster was started for a run cancelled already")
    monkeypatch.setattr(cluster, "connect", no_cluster)
    cancel = Cancel()
    cancel.set()
    where = {"memory": {}, "disk": {"spill": tmp_path / "spill"}, "dask": {"workers": 1}}[place]
    a = pegsolver.analysis.analyse("english", finish="d4", limit=Limit(cancel=cancel), **where)
    assert a.stopped is Reason.CANCELLED and not a.levels and a.message == "stopped by a cancel before the start"
    assert a.games is None and a.solutions is None and not a.finishes
    assert not (tmp_path / "spill").exists()


def test_a_cancel_after_the_last_forward_level_stops_the_winning_pass():
    # English d4 -> d4: the backward levels are the forward ones, so what is left after
    # level 31 is the winning pass alone; it ran to the end and said "complete"
    cancel = Cancel()
    a = pegsolver.analysis.analyse("english", finish="d4", limit=Limit(cancel=cancel),
                                   progress=lambda k, n: cancel.set() if k == 31 else None)
    assert a.stopped is Reason.CANCELLED and a.message.startswith("stopped by a cancel in the winning pass")
    assert len(a.levels) == 32 and a.winning is None
    with pytest.raises(PegsolverError, match="not kept|winning"):
        a.winning_positions(31)
    # the forward levels were all made: their totals stand, and say so
    assert a.forward_complete and "forward levels" in a.message and "winning positions are not" in a.message
    assert a.solutions == 40_861_647_040_079_968 and a.finishes[16] == a.solutions
    assert a.games == 577_116_156_815_309_849_672 and a.to_json()["forward_complete"]


def test_a_cancel_during_the_forward_levels_keeps_no_totals():
    cancel = Cancel()
    a = pegsolver.analysis.analyse("english", finish="d4", keep_positions=False, limit=Limit(cancel=cancel),
                                   progress=lambda k, n: cancel.set() if k == 20 else None)
    assert a.stopped is Reason.CANCELLED and a.message == "stopped by a cancel" and not a.forward_complete
    assert a.solutions is None and a.games is None and not a.finishes


def test_a_cancel_set_before_the_solution_counts_stops_them_at_the_first_vacancy():
    cancel = Cancel()
    cancel.set()
    with pytest.raises(pegsolver.analysis.AnalysisStopped, match="stopped by a cancel") as stop:
        pegsolver.analysis.solution_counts("triangle5", limit=Limit(cancel=cancel))
    assert stop.value.reason is Reason.CANCELLED and stop.value.partial is not None and not stop.value.partial


def test_a_cancelled_search_by_moves_says_a_cancel_stopped_it():
    cancel = Cancel()
    cancel.set()
    for board in ("french", "rect11x11"):
        sol = solve(board, minimize="moves", limit=Limit(cancel=cancel))
        assert sol.reason is Reason.CANCELLED and "stopped by a cancel" in sol.explanation
        assert "Ctrl-C" not in sol.explanation


def test_a_cancel_ends_a_survey_of_single_vacancies():
    cancel = Cancel()
    cancel.set()
    found = pegsolver.survey.survey_vacancies(pegsolver.find_variant("english").board(),
                                              limit=Limit(cancel=cancel))
    assert found.interrupted and len(found) == 1 and found[0].reason is Reason.CANCELLED


def test_a_cancel_in_the_beams_limit_stops_them():
    answer, took = cancelled_after(1.5, lambda c: pegsolver.moves.shortest_over_board(
        "french", limit=Limit(seconds=0.5), beam=Limit(seconds=LONG, cancel=c)))
    assert answer.reason is Reason.CANCELLED
    assert took < 5.0


@pytest.mark.parametrize("delay", [1.0, 2.9])
def test_a_cancel_stops_the_search_while_its_table_grows_to_gigabytes(delay):
    # Copying a table into 2 GiB of fresh pages took seconds and looked at no limit: a
    # cancel (or a deadline) then waited up to 3.6 s. Near 3 s diamond e1's table grows
    # from 512 MiB to 2 GiB on the machines this was measured on.
    sol, took = cancelled_after(delay, lambda c: solve(diamond_e1(), strategy="symmetry", proofs=False,
                                                       limit=Limit(seconds=LONG, memory_bytes=4 << 30, cancel=c)))
    assert sol.reason is Reason.CANCELLED and sol.stats.table_bytes >= 128 << 20
    assert took < 0.5


def test_a_cancel_cannot_be_pickled_and_says_why():
    # a copy in another process would stop nothing: a clear error, not "cannot pickle '_thread.lock'"
    import pickle
    with pytest.raises(TypeError, match="cannot be pickled or sent to another process"):
        pickle.dumps(Limit(seconds=5, cancel=Cancel()))
    assert pickle.loads(pickle.dumps(Limit(seconds=5))) == Limit(seconds=5)


def test_a_hint_stops_on_ctrl_c_in_its_search_by_moves():
    # The search by moves (the hint's first 3/10 of its time) caught the Ctrl-C, and the hint
    # went on to solve() with the rest of its time: 20 s instead of a stop. In a child process,
    # so that a Ctrl-C that escapes cannot end this test run.
    import signal
    import subprocess
    import sys
    script = ("import os, signal, threading, time\n"
              "import pegsolver\n"
              "from pegsolver import Goal\n"
              "from pegsolver.apps.hint import find_hint\n"
              "board = pegsolver.find_variant('diamond').board().with_vacant('e1')\n"
              "threading.Timer(1.0, os.kill, (os.getpid(), signal.SIGINT)).start()\n"
              "t0 = time.perf_counter()\n"
              "hint = find_hint(board, Goal.anywhere(), seconds=20)\n"
              "print(hint.reason, round(time.perf_counter() - t0, 2))\n")
    out = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=LONG,
                         preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    assert out.returncode == 0, out.stderr
    reason, took = out.stdout.strip().rsplit(" ", 1)
    assert reason == "interrupted" and float(took) < 5.0, out.stdout + out.stderr


def test_a_cancel_in_the_backward_levels_says_so():
    # triangle 6, 4 -> 9: the backward levels are an enumeration of their own, before the
    # winning pass; a trial's stop in them was told as one in the winning pass
    board = pegsolver.find_variant("triangle6").board()
    board = board.with_pegs(board.shape.full_mask).with_vacant("4")
    cancel = Cancel()
    a = pegsolver.analysis.analyse(board, finish="9", limit=Limit(cancel=cancel),
                                   progress=lambda k, n: cancel.set() if k == 19 else None)   # the last forward one
    assert a.stopped is Reason.CANCELLED and a.forward_complete and a.winning is None
    assert a.message.startswith("stopped by a cancel in the backward levels (from the finish's complement), "
                                "after all 20 forward levels")
