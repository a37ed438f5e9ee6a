"""The compiled core against plain C programs doing the same job, timed in the same run on
the same machine, with ratios in ``extra_info`` (lower is better for the core).

The C programs are the project's reference programs in ``../shared/oracles`` (beside the
repository; their README says what each does). They are built here with the system
compiler (``cc -O3 -march=native``); the benches are skipped where the folder or a compiler
is missing. Node counts are printed by both sides and recorded; for the depth-first
searches they agree to within a few thousandths (the tables forget entries differently).

- French d2 -> one peg anywhere, depth-first search with a table of dead positions:
  ``gdfs`` (a fixed 128 MiB table) against the ``table`` and ``symmetry`` strategies, per
  node. Targets: ``table`` at or below ``gdfs``; ``symmetry`` at most 15% above ``table``.
- English -> one peg anywhere, plain depth-first search (no table), per node: the ``dfs``
  strategy against FastPegSolitaire (github.com/karlosp/FastPegSolitaire, a header-only
  C++ solver with its jump tests unrolled as constants). It is not ours and not copied
  here: set PEGSOLVER_FASTPEG to a checkout of it, which this bench builds (``c++ -O3
  -march=native``) and runs; skipped otherwise. Target: at or below its time a node.
- English, every level with its counts, one thread: ``enum4`` (tuned) and ``enum2``
  (plain) against ``analyse``. Targets: 3 and 12 times as fast. Tens of seconds: these
  run when PEGSOLVER_LONG_BENCHES=1 is set.
"""
from __future__ import annotations

import os
import re
import shutil
import subprocess
import time
from pathlib import Path

import pytest

import pegsolver
from pegsolver import Goal, solve
from pegsolver.analysis import analyse
from replay import assert_solves

ORACLES = Path(__file__).resolve().parents[2] / "shared" / "oracles"
LONG = pytest.mark.skipif(os.environ.get("PEGSOLVER_LONG_BENCHES") != "1", reason="tens of seconds: set "
                          "PEGSOLVER_LONG_BENCHES=1")


@pytest.fixture(scope="module")
def built(tmp_path_factory):
    """A function: the path of a reference program, built on first use."""
    cc = shutil.which("cc") or shutil.which("gcc")
    if not ORACLES.is_dir() or cc is None:
        pytest.skip("the reference C programs (../shared/oracles) or a C compiler are missing")
    out = tmp_path_factory.mktemp("oracles")

    def build(name: str) -> Path:
        exe = out / name
        if not exe.exists():
            subprocess.run([cc, "-O3", "-march=native", "-o", str(exe), str(ORACLES / f"{name}.c")], check=True,
                           capture_output=True)
        return exe
    return build


def run_c(exe: Path, *args: str) -> str:
    return subprocess.run([str(exe), *args], check=True, capture_output=True, text=True, timeout=600).stdout


def french_d2():
    french = pegsolver.find_variant("french")
    return french.board().with_pegs(french.shape().full_mask).with_vacant("d2")


@pytest.fixture(scope="module")
def gdfs_french_d2(built):
    out = run_c(built("gdfs"), str(ORACLES / "french_d2.txt"), "any")
    m = re.search(r"solved=1 nodes=(\d+) .* time=([\d.]+)s", out)
    assert m, out
    return int(m[1]), float(m[2])


PER_NODE: dict[str, float] = {}   # nanoseconds a node, by strategy, in this run


@pytest.mark.benchmark(group="against C: French d2 table")
@pytest.mark.parametrize("strategy", ["table", "symmetry"])
def test_depth_first_search_with_a_table_per_node(benchmark, gdfs_french_d2, strategy):
    c_nodes, c_seconds = gdfs_french_d2
    runs = []
    benchmark.pedantic(lambda: runs.append(solve(french_d2(), Goal.anywhere(1), strategy=strategy)), rounds=3,
                       iterations=1)
    sol = runs[-1]
    assert_solves(sol)
    best = min(r.stats.seconds for r in runs)
    ours, theirs = best / sol.stats.nodes * 1e9, c_seconds / c_nodes * 1e9
    PER_NODE[strategy] = ours
    benchmark.extra_info.update(nodes=sol.stats.nodes, tests=sol.stats.tests, c_nodes=c_nodes,
                                ns_per_node=round(ours, 1), c_ns_per_node=round(theirs, 1),
                                per_node_vs_c=round(ours / theirs, 3))
    if strategy == "table":   # the same search as gdfs, give or take the entries the tables forget
        assert abs(sol.stats.nodes - c_nodes) < 0.005 * c_nodes
    elif "table" in PER_NODE:   # symmetry: 4% fewer nodes, each dearer by its canonical key
        benchmark.extra_info["per_node_vs_table"] = round(ours / PER_NODE["table"], 3)


@pytest.fixture(scope="module")
def fastpeg(tmp_path_factory):
    """FastPegSolitaire's English run: (nodes, seconds a solve), the mean of its 1000 solves."""
    source, cxx = os.environ.get("PEGSOLVER_FASTPEG"), shutil.which("c++") or shutil.which("g++")
    if not source or cxx is None:
        pytest.skip("set PEGSOLVER_FASTPEG to a checkout of github.com/karlosp/FastPegSolitaire (and have c++)")
    exe = tmp_path_factory.mktemp("fastpeg") / "fastpeg"
    subprocess.run([cxx, "-O3", "-march=native", "-std=c++20", "-I", str(Path(source) / "src"), "-o", str(exe),
                    str(Path(source) / "main.cpp")], check=True, capture_output=True)
    out = run_c(exe)
    m = re.search(r"Time: ([\d.e+-]+)ms\s+Counter:(\d+)", out)
    assert m and "Solved!" in out, out
    return int(m[2]), float(m[1]) / 1000


@pytest.mark.benchmark(group="against C: English plain depth-first search")
def test_plain_depth_first_search_per_node(benchmark, fastpeg):
    c_nodes, c_seconds = fastpeg
    board = pegsolver.find_variant("english").board()
    runs = []
    # as many solves as FastPegSolitaire's loop makes, in one process: warm, as its are
    benchmark.pedantic(lambda: runs.append(solve(board, Goal.anywhere(1), strategy="dfs", proofs=False)),
                       rounds=1000, iterations=1)
    sol = runs[-1]
    assert_solves(sol)
    best = sorted(r.stats.seconds for r in runs)[len(runs) // 2]   # the core's own time, median
    ours, theirs = best / sol.stats.nodes * 1e9, c_seconds / c_nodes * 1e9
    benchmark.extra_info.update(nodes=sol.stats.nodes, c_nodes=c_nodes, ns_per_node=round(ours, 2),
                                c_ns_per_node=round(theirs, 2), per_node_vs_c=round(ours / theirs, 3))
    assert abs(sol.stats.nodes - c_nodes) < 0.01 * c_nodes   # the same tree, give or take its jump order


@pytest.mark.benchmark(group="against C: English enumeration")
@LONG
def test_english_enumeration_on_one_thread(benchmark, built):
    enum4, enum2 = run_c(built("enum4")), None
    t4 = float(re.search(r"total classes 23475688\s+([\d.]+)s", enum4)[1])   # type: ignore[index]
    t0 = time.perf_counter()
    enum2 = run_c(built("enum2"))
    t2 = time.perf_counter() - t0   # it prints no total time: its wall time, building nothing
    assert "40861647040079968" in enum4 and "40861647040079968" in enum2
    a = benchmark.pedantic(lambda: analyse("english", keep_positions=False, threads=1), rounds=1, iterations=1)
    ours = benchmark.stats.stats.min
    assert a.total == 23_475_688
    benchmark.extra_info.update(seconds=round(ours, 3), enum4_seconds=t4, enum2_seconds=round(t2, 3),
                                faster_than_enum4=round(t4 / ours, 2), faster_than_enum2=round(t2 / ours, 2))
