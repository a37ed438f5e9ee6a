"""The core is the one source of its codes and sizes: what engine.core reads from the
builds agrees with what the Python layer assumes, and every build declares the same.
Off Linux the build refuses and a missing core says why."""
import importlib
import subprocess
import sys
from pathlib import Path

import pytest

from pegsolver import analysis, solve
from pegsolver.engine import compile as comp
from pegsolver.engine import level_memory, levels, reference
from pegsolver.engine.core import core64, core128, core_for, enum_build_times, enum_core, enum_sizes, search_codes
from pegsolver.engine.outcome import CORE_STOPS, STOP_MEANINGS, Reason
from pegsolver.errors import CoreMissingError
from pegsolver.model.geometry import MAX_SHAPE_HOLES


def enum_builds():
    out = [importlib.import_module("pegcore._enum64")]
    for name in ("pegcore._enum64_v2", "pegcore._enum64_bmi2"):
        try:
            out.append(importlib.import_module(name))
        except ImportError:  # not x86-64
            pass
    return out


def test_search_codes_are_read_from_the_core():
    codes = search_codes()
    assert codes is search_codes()  # read once
    assert codes.stops == ("none", "nodes", "seconds", "interrupt", "memory", "beam", "cancel")
    assert codes.strategies == ("seed", "dfs", "guided", "beam", "moves")
    assert [getattr(codes, f"stop_{name}") for name in codes.stops] == list(range(len(codes.stops)))
    assert [getattr(codes, f"strategy_{name}") for name in codes.strategies] == list(range(len(codes.strategies)))
    for core in (core64(), core128()):
        assert core.STOP_CODES == {name: i for i, name in enumerate(codes.stops)}
        assert core.STRATEGY_CODES == {name: i for i, name in enumerate(codes.strategies)}
        assert core.MAX_BEAM_WIDTH == codes.max_beam_width == 2**32 - 1


def test_every_stop_the_core_names_has_a_meaning():
    codes = search_codes()
    assert set(STOP_MEANINGS) == set(codes.stops)
    assert STOP_MEANINGS["none"] is Reason.EXHAUSTED and STOP_MEANINGS["interrupt"] is Reason.INTERRUPTED
    assert set(CORE_STOPS) == set(STOP_MEANINGS.values())


def test_strategies_run_searches_the_core_declares():
    codes = search_codes()
    # every search but the beam by moves (engine.core_moves runs it) backs a strategy
    assert {spec.search for spec in comp.STRATEGY_SPECS.values()} == set(codes.strategies) - {"moves"}
    assert comp.STRATEGIES["seed"][0] == codes.strategy_seed
    assert {comp.STRATEGIES[n][0] for n in ("dfs", "table", "symmetry", "ordered")} == {codes.strategy_dfs}
    assert comp.STRATEGIES["guided"][0] == codes.strategy_guided
    assert comp.STRATEGIES["beam"][0] == codes.strategy_beam
    assert comp.MAX_BEAM_WIDTH == codes.max_beam_width
    assert [tuple(spec[1:]) for spec in comp.STRATEGIES.values()] == [
        tuple(spec[1:]) for spec in comp.STRATEGY_SPECS.values()]


def test_the_reference_names_its_stops_as_the_core_does():
    codes = search_codes()
    assert {reference.STOP_NONE, reference.STOP_NODES, reference.STOP_SECONDS, reference.STOP_INTERRUPT,
            reference.STOP_BEAM, reference.STOP_CANCEL} <= set(codes.stops)
    assert reference.STOP_NONE == codes.stops[codes.stop_none]
    assert reference.STOP_BEAM == codes.stops[codes.stop_beam]


def test_hole_limits():
    assert core64().MAX_HOLES == 64
    assert core128().MAX_HOLES == search_codes().max_holes == MAX_SHAPE_HOLES
    assert core_for(64) is core64() and core_for(65) is core128()


def test_the_enumeration_sizes_are_the_cores():
    sizes = enum_sizes()
    assert sizes is enum_sizes()
    assert (sizes.slot_bytes, sizes.wide_slot_bytes, sizes.key_bytes) == (16, 24, 8)
    assert sizes.wide_entry_bytes == 8 * sizes.wide_entry_words
    assert level_memory.MIN_STAGE >= sizes.min_stage_bytes  # the Python side's choice, within the core's
    for name in ("SLOT_BYTES", "WIDE_SLOT_BYTES", "KEY_BYTES", "REGION_BYTES", "MAX_ENUM_HOLES", "MAX_THREADS"):
        assert not hasattr(level_memory, name) and not hasattr(analysis, name)  # no copies left
    assert (sizes.key_entry_words, sizes.count_entry_words, sizes.wide_entry_words) == (1, 2, 3)
    assert 1 << (sizes.max_threads.bit_length() - 1) == sizes.max_threads <= sizes.max_buckets


@pytest.mark.parametrize("E", enum_builds(), ids=lambda E: E.__name__)
def test_every_enumeration_build_declares_the_same_sizes(E):
    sizes = enum_sizes()
    assert E.MAX_HOLES == sizes.max_holes and E.MAX_THREADS == sizes.max_threads
    assert E.MAX_BUCKETS == sizes.max_buckets and E.BLOCK_BYTES == sizes.block_bytes
    assert E.MIN_SLOTS == sizes.min_slots and E.SLOT_BYTES == sizes.slot_bytes
    assert E.WIDE_ENTRY_BYTES == sizes.wide_entry_bytes and E.REGION_BYTES == sizes.region_bytes
    # the smallest stage the core takes, and one block short of it
    E.Stage(sizes.min_stage_bytes)
    with pytest.raises(ValueError, match="under"):
        E.Stage(sizes.min_stage_bytes - sizes.block_bytes)
    # a table starts at min_slots slots of slot_bytes
    t = E.Level(True, 1 << 20)
    assert t.slots_used == sizes.min_slots and t.nbytes == sizes.min_slots * sizes.slot_bytes


def test_the_level_engine_loads_its_build_through_engine_core(monkeypatch):
    monkeypatch.delenv("PEGSOLVER_PORTABLE", raising=False)
    assert enum_core() is levels.enum_core()
    fast = enum_core()
    assert fast.FAST_JUMPS == fast.__name__.endswith("_bmi2")
    times = enum_build_times()
    assert fast.__name__ == min(times, key=times.__getitem__)   # the build the probe timed fastest here
    monkeypatch.setenv("PEGSOLVER_PORTABLE", "1")
    assert enum_core().__name__ == "pegcore._enum64" and enum_core() is levels.enum_core()
    assert enum_core(portable=False) is fast
    assert enum_core(portable=True).__name__ == "pegcore._enum64"


@pytest.mark.parametrize("fastest", ["pegcore._enum64", "pegcore._enum64_v2", "pegcore._enum64_bmi2"])
def test_the_build_is_chosen_by_its_time_not_by_the_processors_flags(monkeypatch, fastest):
    # a processor with BMI2 where pext is slow (AMD Zen 1 and 2) times the BMI2 build
    # slower, and gets another
    import pegsolver.engine.core as C
    builds = {m.__name__ for m in enum_builds()}
    if fastest not in builds:
        pytest.skip(f"{fastest} is not built here")
    monkeypatch.delenv("PEGSOLVER_PORTABLE", raising=False)
    monkeypatch.setattr(C, "enum_build_times", lambda: {name: 1.0 if name == fastest else 2.0 for name in builds})
    assert enum_core().__name__ == fastest
    assert enum_core(portable=True).__name__ == "pegcore._enum64"


def test_a_missing_enumeration_says_how_to_build_it(monkeypatch):
    monkeypatch.setitem(sys.modules, "pegcore._enum64", None)
    with pytest.raises(CoreMissingError, match="pip install"):
        enum_core()


def test_a_missing_core_off_linux_names_the_platform(monkeypatch):
    monkeypatch.setitem(sys.modules, "pegcore._search64", None)
    monkeypatch.setattr(sys, "platform", "darwin")
    with pytest.raises(CoreMissingError, match=r"only on Linux.*'darwin'"):
        core64()


def test_setup_refuses_to_build_off_linux():
    setup_py = Path(__file__).resolve().parents[1] / "setup.py"
    if not setup_py.exists():
        pytest.skip("not run from the source tree")
    code = ("import sys; sys.platform = 'darwin'; sys.argv = ['setup.py', '--version']; "
            f"exec(open({str(setup_py)!r}).read())")
    run = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=setup_py.parent)
    assert run.returncode != 0 and "builds only on Linux" in run.stderr and "'darwin'" in run.stderr


def test_the_reference_backend_runs_without_the_core():
    # The Python side names the core's searches and stops; codes are read only at the
    # core's door, so the pure-Python oracle needs no build.
    code = ("import sys\n"
            "for m in ('_search64', '_search128', '_enum64', '_enum64_v2', '_enum64_bmi2'):\n"
            "    sys.modules['pegcore.' + m] = None\n"
            "import pegsolver\n"
            "s = pegsolver.solve('triangle5', strategy='symmetry', backend='reference')\n"
            "print(s.solved, s.stats.nodes)\n")
    run = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    core = solve("triangle5", strategy="symmetry")  # the same search, in this process, by the core
    assert run.returncode == 0 and run.stdout.split() == ["True", str(core.stats.nodes)], run.stderr
