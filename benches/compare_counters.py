"""Compare the work counters of two pytest-benchmark JSON runs (``--benchmark-json``).

    python benches/compare_counters.py BEFORE.json AFTER.json

Counters are the whole-number ``extra_info`` entries (tests, nodes, positions, runs...);
times, rates, memory peaks and the build's name are left out. A bench that a time limit
stopped in either run is listed apart: there the counters measure speed, not work.
Exit code 0 when every other bench's counters are identical, 1 otherwise.
"""
from __future__ import annotations

import json
import sys

NOT_COUNTERS = ("seconds", "_ms", "median", "speed", "rate", "ratio", "peak", "rss", "overhead", "nodes_per",
                "build")


def load(path: str) -> dict[str, dict]:
    with open(path) as f:
        benches = json.load(f)["benchmarks"]
    return {b["fullname"]: b["extra_info"] for b in benches}


def counters(info: dict) -> dict:
    return {k: v for k, v in info.items()
            if not any(word in k for word in NOT_COUNTERS) and not isinstance(v, float)}


def main(before_path: str, after_path: str) -> int:
    before, after = load(before_path), load(after_path)
    same, timed, differ = [], [], []
    for name in sorted(set(before) & set(after)):
        if counters(before[name]) == counters(after[name]):
            same.append(name)
        elif "time limit" in (before[name].get("reason"), after[name].get("reason")):
            timed.append(name)
        else:
            differ.append(name)
    for name in differ:
        a, b = counters(before[name]), counters(after[name])
        print("DIFFERENT", name, {k: (a.get(k), b.get(k)) for k in sorted(set(a) | set(b)) if a.get(k) != b.get(k)})
    for name in sorted(set(before) ^ set(after)):
        print("ONLY IN", "before" if name in before else "after", name)
    print(f"{len(same)} benches with identical counters; {len(timed)} stopped by a time limit "
          f"(counters measure speed there); {len(differ)} different")
    return 1 if differ else 0


if __name__ == "__main__":
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    sys.exit(main(sys.argv[1], sys.argv[2]))
