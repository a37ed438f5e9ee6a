"""Issue 14: the same figures in every place a count runs: in memory, out of core (partitions
on disk, a budget small enough to force many), and on a Dask LocalCluster of 2 workers;
checkpoints resumed to the same totals; clear errors for spill directories and clusters."""
from __future__ import annotations

import errno
import json
import os
import re
import shutil
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import numpy as np
import pytest

import interrupting
from pegsolver import Board, PegsolverError
from pegsolver.analysis import analyse
from pegsolver.apps.cli import main
from pegsolver.engine import spill as spill_module
from pegsolver.engine.cluster import ClusterError
from pegsolver.engine.levels import LevelStop
from pegsolver.engine.outcome import Reason
from pegsolver.engine.spill import SpillError
from pegsolver.errors import FileChangedError

# Published English figures (Bell's English pages; OEIS A112737 for the positions): from the
# centre, 23,475,688 positions (symmetry classes), 1,679,072 winning, and
# 40,861,647,040,079,968 solutions back to the centre.
ENGLISH = dict(total=23_475_688, winning=1_679_072, solutions=40_861_647_040_079_968)
MIB = 1 << 20


def figures(a):
    return ([(lv.positions, lv.dead_ends, lv.sequences, lv.winning) for lv in a.levels],
            a.games, a.finishes, a.solutions, a.winning)


@pytest.fixture(scope="module")
def triangle6_in_memory():
    return analyse("triangle6")


@pytest.fixture(scope="module")
def english_in_memory():
    a = analyse("english", finish="d4")
    assert (a.total, a.winning, a.solutions) == tuple(ENGLISH.values())
    return a


def test_english_out_of_core_matches_in_memory_with_many_partitions(english_in_memory, tmp_path):
    a = analyse("english", finish="d4", spill=tmp_path, memory_bytes=64 * MIB, threads=2)
    assert not a.stopped, a.message
    assert figures(a) == figures(english_in_memory)
    assert max(s["parts"] for s in a.level_stats) >= 20     # the budget forced many partitions
    for k in (8, 16, 24):   # 2 windows of complements at the largest levels
        assert np.array_equal(a.winning_positions(k), english_in_memory.winning_positions(k))


@pytest.mark.parametrize("windows", [1, 3, 40])
def test_stored_levels_meet_in_windows_of_complements(windows, monkeypatch, tmp_path):
    # the winning pass of stored levels holds the backward level's complements a window at
    # a time, within the budget (it once held both levels and their counts whole: 3-4x it)
    from pegsolver import find_variant
    from pegsolver.engine.partitioned import PartitionedRun
    board = find_variant("triangle6").board()
    board = board.with_pegs(board.shape.full_mask).with_vacant("4")
    ref = analyse(board, finish="9")
    monkeypatch.setattr(PartitionedRun, "window_count", lambda self, back: windows)
    a = analyse(board, finish="9", spill=tmp_path, memory_bytes=16 * MIB)
    assert figures(a) == figures(ref) and a.winning == 175_185
    for k in range(len(ref.levels)):
        assert np.array_equal(a.winning_positions(k), ref.winning_positions(k))
    assert a.disk_bytes > 0 and "stored levels" in a.to_text()


@pytest.mark.parametrize("board,vacant", [("triangle5", "4"), ("triangle6", "5")])
def test_triangles_out_of_core_and_on_two_workers(board, vacant, tmp_path):
    from pegsolver.model.variants import find_variant
    b = find_variant(board).board()
    if vacant:
        b = b.with_vacant(vacant)
    ref = analyse(b)
    disk = analyse(b, spill=tmp_path / "disk", memory_bytes=16 * MIB, threads=2)
    assert figures(disk) == figures(ref)
    if board == "triangle6":
        steps: dict[tuple[int, str], tuple[int, int]] = {}
        dask = analyse(b, workers=2, memory_bytes=64 * MIB,
                       on_step=lambda k, step, done, total, _: steps.__setitem__((k, step), (done, total)))
        assert figures(dask) == figures(ref)
        assert {k for k, _ in steps} == set(range(1, len(ref.levels)))   # both steps of every level
        assert all(done == total for done, total in steps.values())


def test_english_on_a_dask_local_cluster_of_two_workers(english_in_memory):
    # forward: every level's figures and the solutions to each hole (the winning positions,
    # which take the backward pass too, are checked on the cluster below, on triangle 6)
    a = analyse("english", workers=2, memory_bytes=1024 * MIB, keep_positions=False)
    assert not a.stopped, a.message
    assert a.total == ENGLISH["total"] and a.finishes == english_in_memory.finishes
    assert ([(lv.positions, lv.dead_ends, lv.sequences) for lv in a.levels] ==
            [(lv.positions, lv.dead_ends, lv.sequences) for lv in english_in_memory.levels])
    assert a.games == english_in_memory.games
    assert a.workers == 2 and "2 Dask workers" in a.to_text() and "partitions held in memory" in a.to_text()


def test_the_winning_positions_on_a_dask_local_cluster_of_two_workers():
    # triangle 6, 4 -> 9: a forward and a backward pass, both on the workers
    from pegsolver import find_variant
    board = find_variant("triangle6").board()
    board = board.with_pegs(board.shape.full_mask).with_vacant("4")
    a = analyse(board, finish="9", workers=2, memory_bytes=64 * MIB)
    assert not a.stopped and figures(a) == figures(analyse(board, finish="9")) and a.winning == 175_185


def test_a_run_stopped_after_a_level_resumes_to_the_same_totals(tmp_path, triangle6_in_memory):
    ref = triangle6_in_memory

    def stop_at_12(k, n):
        if k == 12:
            raise KeyboardInterrupt  # what Ctrl-C does, after level 12 is stored
    # 4 MiB: levels 8 to 14 are cut in partitions (up to 8), so the resume reads several
    first = analyse("triangle6", spill=tmp_path, memory_bytes=4 * MIB, threads=2, progress=stop_at_12)
    assert first.stopped == "interrupted" and len(first.levels) == 13  # levels 0..12
    assert first.level_stats[12]["parts"] > 1
    resumed = analyse("triangle6", spill=tmp_path, resume=True, memory_bytes=4 * MIB, threads=2)
    assert not resumed.stopped and figures(resumed) == figures(ref)
    # a finished run resumed: its figures again, with the peaks it reached
    again = analyse("triangle6", spill=tmp_path, resume=True, memory_bytes=4 * MIB, threads=2)
    assert figures(again) == figures(ref) and again.peak_bytes > 0
    assert again.disk_bytes == resumed.disk_bytes > 0 and "spill directory at most" in again.to_text()


def test_a_corrupt_stored_partition_is_named_when_resumed(tmp_path):
    def stop_at_5(k, n):
        if k == 5:
            raise KeyboardInterrupt
    analyse("triangle6", spill=tmp_path, memory_bytes=64 * MIB, threads=1, progress=stop_at_5)
    part = sorted(tmp_path.rglob("part_*.pegp"))[-1]      # level 5, where the resume starts
    data = bytearray(part.read_bytes())
    data[-3] ^= 0xFF                            # inside the last compressed section
    part.write_bytes(bytes(data))
    with pytest.raises(PegsolverError, match=f"{part.name}'?: a stored partition is corrupt"):
        analyse("triangle6", spill=tmp_path, resume=True, memory_bytes=64 * MIB, threads=1)


def test_a_resumed_run_partitions_its_levels_as_the_first_run_would(tmp_path):
    # the growth, positions a child and children a parent the last level showed are kept in
    # the record, so the level made after a resume is cut as it would have been (one thread:
    # which partitions share a stage, and so what is staged, is then fixed)
    whole = analyse("triangle6", spill=tmp_path / "whole", memory_bytes=4 * MIB, threads=1)

    def stop_at_9(k, n):   # before the levels cut in several partitions
        if k == 9:
            raise KeyboardInterrupt
    analyse("triangle6", spill=tmp_path / "cut", memory_bytes=4 * MIB, threads=1, progress=stop_at_9)
    resumed = analyse("triangle6", spill=tmp_path / "cut", resume=True, memory_bytes=4 * MIB, threads=1)
    assert [s["parts"] for s in resumed.level_stats] == [s["parts"] for s in whole.level_stats]
    assert max(s["parts"] for s in whole.level_stats) > 1


def test_each_step_of_a_level_tells_its_partitions_as_they_finish(tmp_path):
    steps = []
    a = analyse("triangle6", spill=tmp_path, memory_bytes=4 * MIB, threads=2,
                on_step=lambda k, step, done, total, seconds: steps.append((k, step, done, total, seconds)))
    assert not a.stopped, a.message
    assert max(s["parts"] for s in a.level_stats) > 1
    for stats in a.level_stats[1:]:
        k = stats["k"]
        merging = [(done, total) for kk, step, done, total, _ in steps if (kk, step) == (k, "merging")]
        expanding = [done for kk, step, done, _, _ in steps if (kk, step) == (k, "expanding")]
        assert merging == [(d, stats["parts"]) for d in range(1, stats["parts"] + 1)]
        assert expanding == list(range(1, a.level_stats[k - 1]["parts"] + 1))
    assert all(seconds >= 0 for *_, seconds in steps)


def test_a_finished_run_with_a_backward_pass_resumes_to_the_same_winning_positions(tmp_path):
    # triangle 6, 4 -> 9: the finish's complement is not the start, so the spill directory
    # holds a forward and a backward enumeration, each with its own record of levels
    from pegsolver import find_variant
    board = find_variant("triangle6").board()
    board = board.with_pegs(board.shape.full_mask).with_vacant("4")
    ref = analyse(board, finish="9")
    first = analyse(board, finish="9", spill=tmp_path, memory_bytes=64 * MIB, threads=2)
    again = analyse(board, finish="9", spill=tmp_path, resume=True, memory_bytes=64 * MIB, threads=2)
    assert figures(first) == figures(again) == figures(ref) and ref.winning == 175_185
    assert [s["k"] for s in again.level_stats] == list(range(len(ref.levels)))   # the forward levels, once


def test_a_run_stopped_in_its_winning_pass_resumes_with_the_levels_not_yet_met(tmp_path, monkeypatch):
    # a resume redid the whole winning pass: a trial's run stopped more often than that never ended
    from pegsolver import find_variant
    from pegsolver.engine.partitioned import PartitionedRun
    board = find_variant("triangle6").board()
    board = board.with_pegs(board.shape.full_mask).with_vacant("4")
    ref = analyse(board, finish="9")
    real, met = PartitionedRun._meet_stored, []

    def meeting(self, forward, back, stop_at=None):
        if len(met) == stop_at:
            raise LevelStop(Reason.TIME_LIMIT, "stopped by the time limit")
        met.append(forward.k)
        return real(self, forward, back)
    monkeypatch.setattr(PartitionedRun, "_meet_stored", lambda *a: meeting(*a, stop_at=5))
    first = analyse(board, finish="9", spill=tmp_path, memory_bytes=16 * MIB)
    assert first.stopped is Reason.TIME_LIMIT and "in the winning pass" in first.message and len(met) == 5
    monkeypatch.setattr(PartitionedRun, "_meet_stored", meeting)
    again = analyse(board, finish="9", spill=tmp_path, resume=True, memory_bytes=16 * MIB)
    assert figures(again) == figures(ref) and again.winning == 175_185
    assert met[5:] == [k for k in range(len(ref.levels)) if k not in met[:5]] and len(met) > 6   # each level met once
    for k in range(len(ref.levels)):
        assert np.array_equal(again.winning_positions(k), ref.winning_positions(k))
    met.clear()   # a finished run's resume meets no level again
    assert figures(analyse(board, finish="9", spill=tmp_path, resume=True)) == figures(ref) and met == []
    kept = sorted(tmp_path.glob("forward_*/winning/level_*.pegp"))
    assert len(kept) == len(ref.levels)
    kept[3].write_bytes(b"")   # a corrupt one is met again (a trial emptied one: the resume was an error)
    kept[5].write_bytes(kept[4].read_bytes())   # another level's is too (a trial's copy counted it)
    forged = bytearray(kept[6].read_bytes())     # even with its level in the header changed
    forged[4] = int(kept[7].stem.split("_")[1])
    kept[7].write_bytes(forged)
    again = analyse(board, finish="9", spill=tmp_path, resume=True)
    assert figures(again) == figures(ref) and met == [int(kept[i].stem.split("_")[1]) for i in (3, 5, 7)]
    assert np.array_equal(again.winning_positions(met[0]), ref.winning_positions(met[0]))


def test_a_full_disk_in_the_winning_pass_is_a_disk_full_stop(tmp_path, monkeypatch):
    def full(self, k, keys):
        raise spill_module.SpillFull(f"the spill directory {str(self.root.parent)!r} is full")
    monkeypatch.setattr(spill_module.DirStore, "put_winning", full)
    a = analyse("triangle5", finish="1", spill=tmp_path, memory_bytes=16 * MIB)
    assert a.stopped is Reason.DISK_FULL and a.forward_complete and a.total == analyse("triangle5").total
    assert re.fullmatch(r"stopped: the spill directory '.*' is full in the winning pass, after all 14 forward "
                        r"levels \(.*\)", a.message)


@pytest.mark.parametrize("edit,fault", [
    # a well-formed edit: a trial's level of 1 position more was counted in the total
    (lambda r: r["levels"][2].update(positions=r["levels"][2]["positions"] + 1),
     r"it was changed after pegsolver wrote it \(its check does not match\)"),
    # the shape, checked also in a record without a check (an earlier version's)
    (lambda r: r.pop("check") and r.pop("levels"), "it lists no finished level"),
    (lambda r: r.pop("check") and r["levels"][2].update(positions="12"),
     "its level entry 2 has no whole number for positions"),
    (lambda r: r.pop("check") and r["levels"][1].update(total=-1, games=None),
     "its level entry 1 has no whole number for total, games"),
    (lambda r: r.pop("check") and r["levels"][1].update(seconds="x"), "its level entry 1 has no number of seconds"),
    (lambda r: r.pop("check") and r["levels"].pop(1), "its level entry 1 is for level 2"),
    (lambda r: r.pop("check") and r.update(peak_bytes=True), "its peak_bytes is not a whole number"),
    (lambda r: r.pop("check") and r.update(identity=[]), r"it names no run \(no identity\)"),
])
def test_a_run_record_edited_by_hand_is_refused_naming_its_fault(tmp_path, edit, fault):
    # a trial's edited run.json gave a KeyError or a TypeError traceback on resume
    analyse("triangle5", spill=tmp_path, memory_bytes=16 * MIB)
    manifest = next(tmp_path.glob("forward_*/run.json"))
    record = json.loads(manifest.read_text())
    edit(record)
    manifest.write_text(json.dumps(record))
    with pytest.raises(SpillError, match=f"run.json' is not a readable run record: {fault}$"):
        analyse("triangle5", spill=tmp_path, resume=True)


def test_a_run_record_without_a_check_resumes(tmp_path):
    # an earlier version wrote none: its shape is checked, and the run goes on
    first = analyse("triangle5", spill=tmp_path, memory_bytes=16 * MIB)
    manifest = next(tmp_path.glob("forward_*/run.json"))
    record = json.loads(manifest.read_text())
    assert len(record.pop("check")) == 32
    manifest.write_text(json.dumps(record))
    assert figures(analyse("triangle5", spill=tmp_path, resume=True)) == figures(first)


def test_a_start_without_a_jump_counts_out_of_core_as_in_memory(tmp_path, capsys):
    assert main(["count", "triangle2", "--spill", str(tmp_path)]) == 0
    assert "total positions: 1" in capsys.readouterr().out


def test_a_killed_run_resumes_from_its_last_stored_level(tmp_path, triangle6_in_memory):
    # kill -9 in the middle of a level: the levels stored before it stand, the rest is redone.
    # Triangle 6 in 16 MiB (2 partitions a level, spilled); the child waits after each of its
    # first 11 levels, so that the kill lands in a level from the 13th on, well before its end
    code = ("from pegsolver.analysis import analyse\nimport time\n"
            f"analyse('triangle6', spill={str(tmp_path)!r}, memory_bytes=16 << 20, threads=2,"
            " progress=lambda k, n: (print(k, flush=True), k < 12 and time.sleep(0.05)))\n")
    proc = subprocess.Popen([sys.executable, "-c", code], stdout=subprocess.PIPE, text=True)
    assert proc.stdout is not None
    for line in proc.stdout:
        if int(line) >= 12:
            proc.send_signal(signal.SIGKILL)
            break
    assert proc.wait() == -signal.SIGKILL    # killed before it ended
    stored = {f: f.stat().st_mtime_ns for f in tmp_path.glob("forward_*/level_00[0-9]/*")}
    resumed = analyse("triangle6", spill=tmp_path, resume=True, memory_bytes=16 * MIB)
    assert figures(resumed) == figures(triangle6_in_memory)
    assert len(stored) >= 10 and all(f.stat().st_mtime_ns == t for f, t in stored.items())   # not made again


def test_resume_refuses_another_boards_run_and_an_empty_directory(tmp_path):
    analyse("triangle5", spill=tmp_path / "t5", memory_bytes=16 * MIB)
    with pytest.raises(SpillError, match="holds a run with board 'triangle5', not 'triangle6'"):
        analyse("triangle6", spill=tmp_path / "t5", resume=True)
    with pytest.raises(SpillError, match=r"by symmetry class \(2 symmetries\), not every position counted \(--unre"):
        analyse("triangle5", spill=tmp_path / "t5", resume=True, reduced=False)
    analyse("triangle5", finish="1", spill=tmp_path / "f1", memory_bytes=16 * MIB)
    with pytest.raises(SpillError, match="finish on hole 1, not finish on hole 13: it cannot be resumed by this run$"):
        analyse("triangle5", finish="13", spill=tmp_path / "f1", resume=True)
    with pytest.raises(SpillError, match="nothing to resume"):
        analyse("triangle5", spill=tmp_path / "empty", resume=True)
    with pytest.raises(SpillError, match="holds a run already: resume it"):
        analyse("triangle5", spill=tmp_path / "t5")
    # another problem's run is not to be resumed either: a trial told "resume it" was then refused
    with pytest.raises(SpillError, match=r"holds a run with finish on hole 1, not no finish: give an empty directory "
                                         r"\(this run cannot resume it\)$"):
        analyse("triangle5", spill=tmp_path / "f1")


def test_an_unwritable_spill_directory_is_refused(tmp_path):
    afile = tmp_path / "a-file"
    afile.write_text("x")
    with pytest.raises(SpillError, match="cannot be made in .*a-file.: Not a directory"):
        analyse("triangle5", spill=afile / "spill")


def test_a_full_spill_directory_stops_the_run_with_the_levels_finished(tmp_path, monkeypatch):
    real = spill_module.DirStore._write
    calls = []

    def filling(self, path, data):
        calls.append(path)
        if len(calls) > 40:
            raise spill_module.SpillFull(f"the spill directory {str(self.root.parent)!r} is full") \
                from OSError(errno.ENOSPC, "")
        real(self, path, data)
    monkeypatch.setattr(spill_module.DirStore, "_write", filling)
    a = analyse("triangle7", spill=tmp_path, memory_bytes=32 * MIB, threads=1)
    assert a.stopped == "disk full" and "is full" in a.message and 3 < len(a.levels) < 26


def test_a_run_file_that_goes_missing_as_it_is_merged_is_an_error_naming_it(tmp_path, monkeypatch, capsys):
    # a trial deleted the spill directory during a run: the merge's read of a run file was
    # an OSError, which the command line reported as "cannot write the output", with no JSON
    from pegsolver.engine import shards
    real = shards.RunFile.read

    def vanishing(self, offset, size):
        Path(self.path).unlink(missing_ok=True)
        return real(self, offset, size)
    monkeypatch.setattr(shards.RunFile, "read", vanishing)
    gone = r"cannot read '[^']*\.pegr': No such file or directory \(was it changed during the run\?\)$"
    with pytest.raises(PegsolverError, match=gone):
        analyse("triangle7", spill=tmp_path / "a", memory_bytes=32 * MIB, threads=1)
    assert main(["count", "triangle7", "--spill", str(tmp_path / "b"), "--memory-gb", "0.03125", "--json"]) == 2
    out, err = capsys.readouterr()
    assert "changed during the run" in json.loads(out)["error"] and "cannot write the output" not in err


def test_a_partition_or_run_file_that_cannot_be_read_is_an_error_naming_it(tmp_path, monkeypatch):
    from pegsolver.engine import shards
    with pytest.raises(FileChangedError, match=r"cannot read '[^']*gone\.pegr': No such file or directory"):
        shards.RunFile(tmp_path / "gone.pegr")   # the header's read
    with pytest.raises(FileChangedError, match="Is a directory"):
        shards.RunFile(tmp_path)
    real = spill_module.DirStore.get_part

    def vanishing(self, k, i):
        self._part_path(k, i).unlink()
        return real(self, k, i)
    monkeypatch.setattr(spill_module.DirStore, "get_part", vanishing)
    with pytest.raises(FileChangedError, match=r"cannot read '[^']*part_\d+\.pegp': No such file or directory"):
        analyse("triangle7", spill=tmp_path / "a", memory_bytes=32 * MIB, threads=1)


def test_a_budget_too_small_for_one_partition_stops_cleanly(tmp_path):
    a = analyse("english", spill=tmp_path / "1", memory_bytes=2 * MIB, threads=1, seconds=60)
    assert a.stopped == "memory limit" and a.message.endswith("too small to expand one partition of level 11 into "
                                                              "level 12; give more memory")
    # each thread has its share: fewer have more (a trial's 2 threads stopped where 1 finished)
    a = analyse("english", spill=tmp_path / "2", memory_bytes=4 * MIB, threads=2, seconds=60)
    assert a.stopped == "memory limit" and a.message.endswith("; give more memory, or fewer threads (each has "
                                                              "1/2 of it)")


def test_a_cluster_that_does_not_answer_is_a_clear_error(monkeypatch):
    from pegsolver.engine import cluster
    monkeypatch.setattr(cluster, "CONNECT_SECONDS", 2)   # the waits below are the same, shorter
    t0 = time.monotonic()
    with pytest.raises(ClusterError, match="no Dask scheduler answers at 'tcp://127.0.0.1:9'"):
        analyse("triangle5", cluster="tcp://127.0.0.1:9")
    assert time.monotonic() - t0 < 10
    with pytest.raises(ClusterError, match="'http://x:1' is not a Dask scheduler address"):
        analyse("triangle5", cluster="http://x:1")
    with pytest.raises(ClusterError, match="port 99999 is not 1 to 65535"):
        analyse("triangle5", cluster="tcp://127.0.0.1:99999")


def test_a_server_that_never_speaks_dask_is_a_clear_error_not_a_hang(monkeypatch):
    import socket

    from pegsolver.engine import cluster
    monkeypatch.setattr(cluster, "CONNECT_SECONDS", 2)
    with socket.socket() as server:   # takes connections (the kernel's backlog) and says nothing
        server.bind(("127.0.0.1", 0))
        server.listen()
        t0 = time.monotonic()
        with pytest.raises(ClusterError, match="but not as a Dask scheduler"):
            analyse("triangle5", cluster=f"tcp://127.0.0.1:{server.getsockname()[1]}")
        assert time.monotonic() - t0 < 15


def test_a_stored_levels_positions_read_as_in_memory(tmp_path):
    ref = analyse("triangle6")
    a = analyse("triangle6", spill=tmp_path, memory_bytes=16 * MIB)
    for k in (0, 5, len(ref.levels) - 1):
        assert np.array_equal(a.positions(k), ref.positions(k))


def test_resume_takes_true_or_false_not_a_directory(tmp_path):
    with pytest.raises(PegsolverError, match="give the directory as spill=DIR, resume=True"):
        analyse("triangle5", resume=str(tmp_path))


@pytest.mark.parametrize("argv,match", [
    (["--workers", "0"], "--workers must be a whole number from 1 to 256, not 0"),
    (["--workers", "2", "--cluster", "tcp://x:1"], "give one of them"),
    (["--workers", "2", "--threads", "2"], "--threads applies"),
    (["--spill", "a", "--resume", "b"], "two directories"),
    (["--table", "--spill", "a"], "--table runs in memory"),
    (["--spill", ""], "--spill needs a directory, not an empty name"),
    (["--resume", "no-such-directory"], "'no-such-directory' does not exist"),
])
def test_bad_cli_combinations(argv, match, capsys):
    assert main(["count", "triangle5", *argv]) == 2
    assert match in capsys.readouterr().err


def test_more_workers_than_the_cpus_can_start_are_refused(monkeypatch, capsys):
    # a trial's --workers 100 on 2 CPUs took 133 s to start, then failed with an empty message
    from pegsolver.engine import level_memory
    monkeypatch.setattr(level_memory, "usable_cpus", lambda: 2)
    assert main(["count", "triangle5", "--workers", "9"]) == 2
    assert ("--workers 9 is more than 4 worker processes a CPU, and this process may use 2 CPUs "
            "(at most 8 workers)") in capsys.readouterr().err
    monkeypatch.setattr(level_memory, "usable_cpus", lambda: 1)
    assert main(["count", "triangle5", "--workers", "5"]) == 2
    assert "may use 1 CPU (at most 4 workers)" in capsys.readouterr().err
    with pytest.raises(PegsolverError, match="workers 9 is more than 4"):
        analyse("triangle5", workers=9)


def test_a_local_cluster_whose_start_times_out_is_a_clear_error(tmp_path):
    from pegsolver.engine import cluster

    class SlowDask:
        def LocalCluster(self, **kwargs):   # as distributed raises it when its workers are late
            raise TimeoutError()
    with pytest.raises(ClusterError, match=r"could not start a Dask LocalCluster of 100 worker\(s\): its start-up "
                                           r"timed out \(start fewer workers\)"):
        cluster._start_local(SlowDask(), 100, 0)


def test_a_partition_past_the_budget_says_when_one_key_range_holds_most_of_the_level():
    # square8 from its centre: 77% of level 10's children in one of 512 key ranges (a trial
    # saw --spill stop at 0.5 GiB with no hint that a smaller partition could not be cut)
    from pegsolver.engine.partitioned import _skewed
    stop = LevelStop(Reason.MEMORY_LIMIT, "stopped: too small for one partition; give more memory")
    sizes = np.array([10, 770, 220])
    told = _skewed(stop, sizes, 500, 10)
    assert told.reason is Reason.MEMORY_LIMIT and told.message.startswith(stop.message)
    assert "The children that make level 10 fall unevenly into the 3 key ranges" in told.message
    assert "one range alone holds 770 of the 1,000 (77%)" in told.message
    assert _skewed(stop, sizes, 800, 10) is stop                # every range fits: nothing to add
    other = LevelStop(Reason.TIME_LIMIT, "stopped: time")
    assert _skewed(other, sizes, 500, 10) is other


def test_a_small_board_spilled_allocates_a_stage_for_its_children_not_for_the_budget(tmp_path):
    # triangle5 on 2 Dask workers reported a peak of 256 MiB for 1,544 positions: stages of
    # a quarter of the machine's share each, for a few hundred children
    a = analyse("triangle5", spill=tmp_path, threads=2)
    assert a.total == 1_544 and a.peak_bytes < 8 * MIB


def test_cli_spill_prints_the_stored_sizes(tmp_path, capsys):
    assert main(["count", "triangle6", "--spill", str(tmp_path), "--memory-gb", "0.03"]) == 0
    out = capsys.readouterr().out
    assert "stored levels" in out and "bits a position for keys" in out


def test_cli_json_gives_each_stored_level(tmp_path, capsys):
    import json
    assert main(["count", "triangle6", "--json", "--spill", str(tmp_path)]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["total"] == sum(s["positions"] for s in out["stored_levels"])
    assert out["disk_bytes"] > 0 and all(s["parts"] >= 1 for s in out["stored_levels"])


@pytest.mark.parametrize("where", [{}, {"spill": "DIR", "memory_bytes": 4 * MIB}])
def test_positions_only_gives_the_same_levels_without_counts(where, tmp_path, capsys):
    where = {k: (tmp_path if v == "DIR" else v) for k, v in where.items()}
    full = analyse("triangle6")
    bare = analyse("triangle6", positions_only=True, **where)
    assert [(lv.positions, lv.dead_ends) for lv in bare.levels] == [(lv.positions, lv.dead_ends) for lv in full.levels]
    assert all(lv.sequences is None for lv in bare.levels) and bare.games is None and bare.finishes == {}
    if where:
        assert all(s["count_bytes"] == 0 for s in bare.level_stats)
    with pytest.raises(Exception, match="positions-only run counts no solutions: give a finish or positions_only"):
        analyse("triangle6", positions_only=True, finish=0)
    assert main(["count", "triangle6", "--positions-only", "--finish", "1"]) == 2
    assert "--positions-only counts no solutions, which --finish asks for" in capsys.readouterr().err


def test_a_lost_dask_worker_changes_nothing():
    # Kill one of two workers once level 8 is made: the partitions it held are lost, and
    # Dask computes them again from their lineage; the totals must not change.
    distributed = pytest.importorskip("distributed")
    cluster = distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None,
                                       silence_logs=50)
    client = distributed.Client(cluster)
    try:
        victim = min(client.run(os.getpid).values())

        def kill_at_8(k, n):
            if k == 8:
                os.kill(victim, signal.SIGKILL)
        a = analyse("triangle6", cluster=cluster.scheduler_address, memory_bytes=8 * MIB, progress=kill_at_8)
        assert not a.stopped, a.message
        assert figures(a) == figures(analyse("triangle6"))
        assert len(client.run(os.getpid)) == 2 and victim not in client.run(os.getpid).values()  # restarted
    finally:
        client.close()
        cluster.close()


def _count_then_signal(args, delay, sig, group):
    # the signal goes to the whole group (a terminal's Ctrl-C, a batch system's SIGTERM) or
    # to pegsolver alone (`kill`)
    proc = interrupting.start(["count", *args], new_group=True)
    if delay is None:   # as soon as the run starts its first other process: inside the cluster's start
        for _ in range(600):
            if _others_in_group(proc.pid):
                break
            time.sleep(0.01)
    else:
        time.sleep(delay)
    if group:
        os.killpg(proc.pid, sig)
    else:
        proc.send_signal(sig)
    out, err = interrupting.finish(proc, 60)
    for _ in range(50):   # every process of the group (workers, resource tracker) ends too
        try:
            os.killpg(proc.pid, 0)
        except ProcessLookupError:
            break
        time.sleep(0.2)
    else:
        os.killpg(proc.pid, signal.SIGKILL)
        pytest.fail(f"processes left behind after {sig!r}")
    return proc.returncode, out, err


def _others_in_group(pid):
    found = []
    for entry in os.listdir("/proc"):
        if entry.isdigit() and int(entry) != pid:
            try:
                if os.getpgid(int(entry)) == pid:
                    found.append(int(entry))
            except (ProcessLookupError, PermissionError):
                pass
    return found


@pytest.mark.parametrize("sig, delay", [(signal.SIGINT, 1.0), (signal.SIGINT, 4.0), (signal.SIGTERM, None),
                                        (signal.SIGTERM, 4.0)])
def test_a_signal_to_two_workers_stops_them_all_without_a_traceback(sig, delay):
    # 1 s, or the first other process: while the workers start; 4 s: while they count
    pytest.importorskip("distributed")
    rc, out, err = _count_then_signal(["french", "--vacant", "d4", "--workers", "2"], delay, sig, group=True)
    assert rc == 130 and "Traceback" not in err, err
    assert ("stopped by Ctrl-C" if sig == signal.SIGINT else "stopped by SIGTERM") in out + err


def test_sigterm_stops_a_spill_run_cleanly_keeping_its_levels(tmp_path):
    rc, out, err = _count_then_signal(["french", "--vacant", "d4", "--memory-gb", "1", "--spill", str(tmp_path)],
                                      6.0, signal.SIGTERM, group=False)
    assert rc == 130 and "stopped by SIGTERM" in out and "Traceback" not in err, out + err
    assert list(tmp_path.glob("forward_*/level_*")), "the levels finished are kept"


def test_a_spill_directory_in_use_is_refused_and_the_run_in_it_survives(tmp_path, english_in_memory):
    # two runs in one directory would delete each other's levels: the second is refused
    proc = interrupting.start(["count", "english", "--spill", str(tmp_path), "--memory-gb", "0.0625"])
    try:
        for _ in range(300):
            if list(tmp_path.glob("forward_*/run.json")) or proc.poll() is not None:
                break
            time.sleep(0.1)
        with pytest.raises(SpillError, match=r"in use by another pegsolver run \(process \d+\)"):
            analyse("english", spill=tmp_path, resume=True, memory_bytes=64 * MIB)
    finally:
        proc.send_signal(signal.SIGINT)
        interrupting.finish(proc, 60)
    # its lock went with it: a resume goes on from its levels (for 3 s: a whole resume takes
    # a minute, and test_a_killed_run_resumes_from_its_last_stored_level checks one to the end)
    stored = len(list(tmp_path.glob("forward_*/level_*")))
    resumed = analyse("english", spill=tmp_path, resume=True, memory_bytes=1024 * MIB, seconds=3)
    assert resumed.stopped is Reason.TIME_LIMIT and len(resumed.levels) > stored
    made = [lv.positions for lv in resumed.levels]
    assert made == [lv.positions for lv in english_in_memory.levels][:len(made)]
    with pytest.raises(SpillError, match="is not a directory"):
        analyse("english", spill=tmp_path / ".pegsolver.lock")


def test_resume_refusals_speak_the_command_lines_words(tmp_path, capsys):
    analyse("triangle5", spill=tmp_path, memory_bytes=16 * MIB)
    with pytest.raises(SpillError, match=r"counts kept, not positions only \(--positions-only\)"):
        analyse("triangle5", spill=tmp_path, resume=True, positions_only=True)
    with pytest.raises(SpillError, match="no finish, not finish on hole 13"):
        analyse("triangle5", spill=tmp_path, resume=True, finish=12)
    assert main(["count", "triangle5", "--table", "--positions-only"]) == 2
    assert "--positions-only does not keep" in capsys.readouterr().err
    # holes by their names on the board, as the user gave them
    analyse(Board.from_text("o o o o\no . o o\no o o o"), spill=tmp_path / "sq", memory_bytes=16 * MIB)
    with pytest.raises(SpillError, match="the start with hole b2 vacant, not the start with hole c2 vacant"):
        analyse(Board.from_text("o o o o\no o . o\no o o o"), spill=tmp_path / "sq", resume=True)


def test_a_spill_directory_whose_parent_is_missing_is_refused(tmp_path, capsys):
    # a mistyped path (an unmounted disk, say) must not be made, filling another disk
    assert main(["count", "triangle5", "--spill", str(tmp_path / "typo" / "run")]) == 2
    assert "does not exist (make it first" in capsys.readouterr().err and not (tmp_path / "typo").exists()
    assert main(["count", "triangle5", "--spill", str(tmp_path / "new")]) == 0   # one level is made


def test_a_stopped_level_leaves_no_runs_behind(tmp_path, monkeypatch):
    # Ctrl-C while a level merges, its runs written: they go, the finished levels stay
    from pegsolver.engine import partitioned
    real, calls = partitioned.merge_runs, []

    def interrupted(*args, **kwargs):
        calls.append(1)
        if len(calls) == 40:
            assert list(tmp_path.glob("*/runs_*"))   # the level's runs are there now
            raise KeyboardInterrupt
        return real(*args, **kwargs)
    monkeypatch.setattr(partitioned, "merge_runs", interrupted)
    a = analyse("triangle7", spill=tmp_path, memory_bytes=16 * MIB, threads=1)
    assert a.stopped == "interrupted" and len(a.levels) > 5
    assert not list(tmp_path.glob("*/runs_*")) and a.disk_bytes > 0


def test_a_stop_during_a_step_stops_the_partitions_still_running(tmp_path, monkeypatch):
    # Ctrl-C once one partition of a step has finished: the others stop at their next poll,
    # rather than running to their end (minutes on the large boards)
    from pegsolver.engine import partitioned
    real, lock = partitioned.expand_partition, threading.Lock()
    state = {"armed": False, "calls": 0, "halted": 0}

    def expand(spec, piece, counted, shard_bits, stage, emit, poll):
        with lock:
            first = state["calls"] == 0
            state["calls"] += state["armed"]
        if state["armed"] and not first:
            t_end = time.monotonic() + 30
            while time.monotonic() < t_end:   # held until the stop reaches it
                try:
                    poll()
                except LevelStop:
                    state["halted"] += 1
                    raise
                time.sleep(0.01)
        return real(spec, piece, counted, shard_bits, stage, emit, poll)

    def on_step(k, step, done, total, seconds):
        if step == "merging" and done == total >= 2 and not state["armed"]:
            state["armed"] = True        # the next step expands 2 partitions or more
        elif step == "expanding" and state["armed"]:
            raise KeyboardInterrupt

    monkeypatch.setattr(partitioned, "expand_partition", expand)
    a = analyse("english", spill=tmp_path, memory_bytes=64 * MIB, threads=2, on_step=on_step)
    assert a.stopped == "interrupted" and state["halted"] >= 1


def test_a_script_that_starts_workers_unguarded_is_told_how_to_guard_it(tmp_path):
    # each worker process imports the script's main module: without the guard, every worker
    # starts a cluster of its own; Dask alone said "Nanny failed to start"
    script = tmp_path / "unguarded.py"
    script.write_text('from pegsolver.analysis import analyse\nanalyse("triangle5", workers=1)\n')
    run = subprocess.run([sys.executable, str(script)], capture_output=True, text=True, timeout=120, cwd=tmp_path)
    assert run.returncode != 0
    assert "a Dask worker process is starting a cluster itself" in run.stderr
    assert "could not start a Dask LocalCluster of 1 worker(s)" in run.stderr
    assert run.stderr.count('must do so under `if __name__ == "__main__":`') == 2


def test_a_guarded_script_read_from_stdin_is_told_to_run_from_a_file(tmp_path):
    # python - < script.py: each worker process looks for the main module in a file named
    # <stdin>; the script is guarded, so the advice to guard it was wrong
    text = ('from pegsolver.analysis import analyse\nif __name__ == "__main__":\n'
            '    analyse("triangle5", workers=1)\n')
    run = subprocess.run([sys.executable, "-"], input=text, capture_output=True, text=True, timeout=120,
                         cwd=tmp_path)
    assert run.returncode != 0 and "could not start a Dask LocalCluster of 1 worker(s)" in run.stderr
    assert "a script read from <stdin> cannot start worker processes" in run.stderr
    assert "if __name__" not in run.stderr


def test_a_server_speaking_another_protocol_is_named_so_not_out_of_memory(monkeypatch):
    # Dask reads an HTTP answer's bytes as a frame length and raises MemoryError: the
    # message said "(MemoryError)", as if this machine were out of memory
    import socket
    import threading

    from pegsolver.engine import cluster
    monkeypatch.setattr(cluster, "CONNECT_SECONDS", 3)
    server = socket.socket()
    server.bind(("127.0.0.1", 0))
    server.listen()

    def answer() -> None:
        while True:
            try:
                conn, _ = server.accept()
            except OSError:
                return
            conn.sendall(b"HTTP/1.0 200 OK\r\nContent-Type: text/html\r\n\r\n<html>hello</html>\r\n" * 4)
    threading.Thread(target=answer, daemon=True).start()
    try:
        with pytest.raises(ClusterError) as err:
            analyse("triangle5", cluster=f"tcp://127.0.0.1:{server.getsockname()[1]}")
    finally:
        server.close()
    assert "but not as a Dask scheduler" in str(err.value) and "MemoryError" not in str(err.value)


def test_a_cluster_at_an_address_takes_its_workers_memory_as_the_budget():
    # the budget was this machine's 3/4 of memory, whatever the workers could hold
    distributed = pytest.importorskip("distributed")
    cluster = distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None,
                                       silence_logs=50, memory_limit="300MiB")
    try:
        a = analyse("triangle5", cluster=cluster.scheduler_address)
        assert not a.stopped and a.budget_bytes == 2 * (300 - 150) * MIB * 3 // 4   # past a worker's own
        assert figures(a) == figures(analyse("triangle5"))
        given = analyse("triangle5", cluster=cluster.scheduler_address, memory_bytes=64 * MIB)
        assert given.budget_bytes == 64 * MIB
    finally:
        cluster.close()


def test_workers_whose_limits_leave_no_room_are_refused():
    # A trial's worker of 200 MiB got a budget of 150 MiB by default, about what an idle
    # worker takes itself: its nanny killed it again and again, and the run ended in a traceback.
    from pegsolver.engine.cluster import workers_budget

    class Client:
        def __init__(self, *limits):
            self.limits = limits

        def scheduler_info(self):
            return {"workers": {str(i): {"memory_limit": x} for i, x in enumerate(self.limits)}}
    assert workers_budget(Client(350 * MIB, 350 * MIB)) == 2 * 150 * MIB
    assert workers_budget(Client(350 * MIB, 0)) is None and workers_budget(Client()) is None
    with pytest.raises(ClusterError, match=r"memory limits \(150 MiB, 100 MiB\) leave no room past a worker's own "
                                           r"150 MiB: start the workers with more memory"):
        workers_budget(Client(150 * MIB, 100 * MIB))


def test_a_scheduler_without_workers_and_workers_that_die_stop_the_run_cleanly(monkeypatch):
    # No worker at the address: the run waited for ever, saying "1 Dask worker". Every
    # worker gone mid-run: the same. A task whose workers all died (KilledWorker): a traceback.
    distributed = pytest.importorskip("distributed")
    from pegsolver.engine import cluster as cluster_module
    bare = distributed.LocalCluster(n_workers=0, processes=True, dashboard_address=None, silence_logs=50)
    try:
        t0 = time.monotonic()
        with pytest.raises(ClusterError, match="has no worker .waited 10 s.: start one with `dask worker"):
            analyse("triangle5", cluster=bare.scheduler_address)
        assert time.monotonic() - t0 < 30
        bare.scale(1)
        bare.wait_for_workers(1, timeout=60)
        monkeypatch.setattr(cluster_module, "WORKERLESS_SECONDS", 1)

        def retire_at_5(k, n):
            if k == 5:
                bare.scale(0)
        a = analyse("triangle6", cluster=bare.scheduler_address, memory_bytes=8 * MIB, progress=retire_at_5)
        assert a.stopped == "workers lost" and "no Dask worker has been connected to the scheduler for 1 s" in a.message
        assert 5 <= len(a.levels) < 14 and "partitions held in memory, lost with the workers" in a.to_text()
        bare.scale(1)
        bare.wait_for_workers(1, timeout=60)

        def killed(*args, **kwargs):
            from types import SimpleNamespace  # the worker's state: its address is what is shown
            raise distributed.KilledWorker("_merge_task-1", SimpleNamespace(address="tcp://127.0.0.1:1"), 3)
        monkeypatch.setattr(distributed.Client, "gather", killed)
        a = analyse("triangle5", cluster=bare.scheduler_address, memory_bytes=8 * MIB)
        assert a.stopped == "workers lost" and "Dask workers died while level 1 was" in a.message
        assert "give the workers more memory" in a.message
    finally:
        bare.close()


def test_the_bytes_on_disk_are_counted_while_files_come_and_go(tmp_path):
    # the progress line listed the spill directory as threads replaced files in it: a
    # trial's run crashed with "cannot write the output: No such file or directory"
    from pegsolver.engine.spill import tree_bytes
    stop = threading.Event()

    def churn():
        while not stop.is_set():
            folder = tmp_path / "runs_001"
            folder.mkdir(exist_ok=True)
            for i in range(20):
                (folder / f"{i}.pegr").write_bytes(b"x" * 100)
            shutil.rmtree(folder, ignore_errors=True)
    worker = threading.Thread(target=churn)
    worker.start()
    try:
        sizes = {tree_bytes(tmp_path) for _ in range(2000)}
    finally:
        stop.set()
        worker.join()
    assert sizes <= set(range(0, 2001, 100)) and tree_bytes(tmp_path) == 0


def test_a_spill_directory_on_a_full_disk_is_told_full_from_its_lock_file(tmp_path, monkeypatch, capsys):
    # the lock file's write of the process id was the first to fail: told as the output's error
    def no_space(fd, length):
        raise OSError(errno.ENOSPC, "No space left on device")
    monkeypatch.setattr(spill_module.os, "ftruncate", no_space)
    with pytest.raises(spill_module.SpillFull, match=r"the spill directory '.*' is full$"):
        analyse("triangle5", spill=tmp_path / "a")
    assert main(["count", "triangle5", "--spill", str(tmp_path / "b"), "--json"]) == 2
    out, err = capsys.readouterr()
    assert "is full" in json.loads(out)["error"] and "cannot write the output" not in err
    monkeypatch.undo()
    assert not analyse("triangle5", spill=tmp_path / "a").stopped   # the lock was let go


def test_levels_read_back_by_a_resume_get_no_rate_in_the_progress_line(tmp_path, monkeypatch, capsys):
    # a trial's resume showed its stored levels made at "494,142,179 a second"
    from contextlib import contextmanager

    from pegsolver.apps import cli_count
    lines: list[str] = []

    class Bar:
        def advance(self):
            pass

        def status(self, text):
            lines.append(text)

    @contextmanager
    def recording(*args, **kwargs):
        yield Bar()
    monkeypatch.setattr(cli_count, "progress_bar", recording)
    assert main(["count", "triangle6", "--spill", str(tmp_path)]) == 0
    lines.clear()
    assert main(["count", "triangle6", "--resume", str(tmp_path)]) == 0
    read_back = [x for x in lines if " positions after " in x]
    assert len(read_back) == 20 and not any("a second" in x for x in read_back)   # levels 0 to 19


@pytest.mark.parametrize("where", ["memory", "spill"])
def test_the_winning_pass_tells_each_level_met(tmp_path, where):
    # a trial's progress bar stood still through the pass (about 10 s on English)
    steps = []
    a = analyse("triangle6", finish="1", on_step=lambda *step: steps.append(step),
                **({"spill": tmp_path} if where == "spill" else {}))
    told = [(k, done, total) for k, step, done, total, seconds in steps if step == "winning" and seconds >= 0]
    assert not a.stopped and told == [(k, k + 1, len(a.levels)) for k in range(len(a.levels))]
