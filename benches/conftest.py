"""The auto bench's table: one row per problem (wall seconds, the member that answered),
printed after the run from the rows its benches attach to their reports."""
from pegsolver.columns import align_columns


def pytest_terminal_summary(terminalreporter):
    rows = [value for key in ("passed", "failed", "xfailed", "xpassed")
            for report in terminalreporter.stats.get(key, []) if report.when == "call"
            for name, value in getattr(report, "user_properties", []) if name == "auto"]
    if not rows:
        return
    rows.sort(key=lambda r: -r[1])
    terminalreporter.write_sep("-", f"auto: {len(rows)} problems, slowest first")
    terminalreporter.write_line(align_columns(
        ["problem", "wall s", "answer", "member", "runs", "nodes"],
        [(name, f"{sec:.3f}", reason, member or "-", str(runs), f"{nodes:,}") for name, sec, reason, member, runs, nodes
         in rows], ("left", "right", "left", "left", "right", "right")))
    slow = [r for r in rows if r[1] > 5.0 or r[2] not in ("solved", "position class", "pagoda", "exhausted")]
    terminalreporter.write_line(f"over 5 s or unsettled: {len(slow)} of {len(rows)}")
