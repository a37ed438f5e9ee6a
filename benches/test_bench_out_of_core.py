"""Issue 14: one enumeration in three places (in memory, out of core on disk, on a Dask
LocalCluster), timed side by side in one run; the ratios are in extra_info. The French runs
take minutes and need PEGSOLVER_LONG_BENCHES=1; the smoke pass runs the English ones on
triangle 5 (smoke.py)."""
from __future__ import annotations

import contextlib
import os
from pathlib import Path

import pytest
import smoke

from pegsolver import find_variant
from pegsolver.analysis import analyse

LONG = pytest.mark.skipif(os.environ.get("PEGSOLVER_LONG_BENCHES") != "1",
                          reason="minutes: set PEGSOLVER_LONG_BENCHES=1")
ENGLISH_TOTAL = 23_475_688
FRENCH_TOTAL = 374_349_517
MEDIANS: dict[str, float] = {}   # seconds, by place, for the ratios to the in-memory run


def _place(where: str, budget: int, spill: Path) -> dict[str, object]:
    if where == "disk":
        return {"spill": spill, "memory_bytes": budget}
    if where.startswith("workers"):
        return {"workers": int(where[-1]), "memory_bytes": budget}
    return {}


def _reset_peak_rss() -> None:
    # Linux: writing 5 to clear_refs resets this process's peak resident size (VmHWM)
    with contextlib.suppress(OSError), open("/proc/self/clear_refs", "w") as f:
        f.write("5")


def _peak_rss() -> int | None:
    # this process's peak resident bytes since the last reset (None off Linux)
    try:
        with open("/proc/self/status") as f:
            return next(int(line.split()[1]) * 1024 for line in f if line.startswith("VmHWM:"))
    except (OSError, StopIteration):
        return None


def _record(benchmark, where: str, a) -> None:
    # the smoke pass (benchmarks disabled) runs once and keeps no statistics: use the run's own time
    median = benchmark.stats.stats.median if benchmark.stats else a.seconds
    MEDIANS[where] = median
    info = dict(place=where, positions=a.total, seconds=a.seconds, peak_bytes=a.peak_bytes,
                disk_bytes=a.disk_bytes, max_rss_bytes=_peak_rss())   # this process: Dask workers are others
    if a.level_stats:
        big = max(a.level_stats, key=lambda s: s["positions"])
        info.update(partitions=big["parts"], key_bits=8 * big["key_bytes"] / big["positions"],
                    count_bits=8 * big["count_bytes"] / big["positions"])
    if "memory" in MEDIANS and where != "memory":
        info["time_over_in_memory"] = median / MEDIANS["memory"]
    if "workers1" in MEDIANS and where == "workers2":
        info["speedup_2_over_1_worker"] = MEDIANS["workers1"] / median
    benchmark.extra_info.update(info)


@pytest.mark.benchmark(group="out of core english")
@pytest.mark.parametrize("where", ["memory", "disk", "workers2"])
def test_english_in_each_place(benchmark, where, tmp_path):
    # 2 GiB: a Dask worker spills what it holds past 70% of its share, which this budget avoids
    _reset_peak_rss()
    board = smoke.board_name(benchmark)
    a = benchmark.pedantic(lambda: analyse(board, keep_positions=False, **_place(where, 2 << 30, tmp_path)),
                           rounds=1, iterations=1)
    assert a.stopped is None
    if board == "english":
        assert a.total == ENGLISH_TOTAL
    else:
        assert sum(a.finishes.values()) == smoke.SOLUTIONS
    _record(benchmark, where, a)


@LONG
@pytest.mark.benchmark(group="out of core french")
@pytest.mark.parametrize("where", ["memory", "disk", "workers1", "workers2"])
def test_french_centre_in_each_place(benchmark, where, tmp_path):
    # in memory with the default budget; on disk with 1 GiB; on 1 and 2 Dask workers with the
    # same 16 GiB between them (a worker holds a level's children until they are merged)
    board = find_variant("french").board().with_vacant("d4")
    budget = 16 << 30 if where.startswith("workers") else 1 << 30
    _reset_peak_rss()
    a = benchmark.pedantic(lambda: analyse(board, keep_positions=False, **_place(where, budget, tmp_path)),
                           rounds=1, iterations=1)
    assert a.stopped is None and a.total == FRENCH_TOTAL and a.levels[-1].pegs == 2
    _record(benchmark, where, a)
