"""Rows of text cells laid out in aligned columns, for the reports of the command line:
plain text drawn by rich, and GitHub-flavoured markdown (rich reads markdown but does not
write it).

Cells are strings, formatted by the caller (``f"{n:,}"``); they are printed as given, never
read as rich markup.
"""
from __future__ import annotations

import io
from collections.abc import Iterable, Sequence
from typing import Literal

from rich import box
from rich.console import Console
from rich.table import Table
from rich.text import Text

# Only a rule under the header, as tabulate's "simple" format had: no frame, no column lines.
_HEADER_RULE = box.Box("    \n    \n -  \n    \n    \n    \n    \n    \n", ascii=True)
_WIDE = 1 << 16  # characters: a console this wide never wraps a row
# The column alignments offered, as rich names them.
_JUSTIFY: dict[str, Literal["left", "right"]] = {"left": "left", "right": "right"}


def align_columns(headers: Sequence[str], rows: Iterable[Sequence[str]], justify: Sequence[str]) -> str:
    """Aligned plain-text columns: the header, a rule of dashes, then one line per row.

    :param justify: per column, ``"left"`` or ``"right"``.
    :returns: the lines joined by newlines, without trailing spaces or a final newline.
    :raises ValueError: for any other ``justify`` (rich would quietly align it left).
    """
    unknown = [how for how in justify if how not in _JUSTIFY]
    if unknown:
        raise ValueError(f"unsupported justify: {unknown[0]!r} (expected 'left' or 'right')")
    table = Table(box=_HEADER_RULE, show_edge=False, pad_edge=False, collapse_padding=True)
    for header, how in zip(headers, justify, strict=True):
        table.add_column(Text(header), justify=_JUSTIFY[how], no_wrap=True)
    for row in rows:
        table.add_row(*(Text(cell) for cell in row))
    out = io.StringIO()
    console = Console(file=out, width=_WIDE, color_system=None, force_terminal=False,
                      force_jupyter=False, markup=False, emoji=False, highlight=False, legacy_windows=False)
    console.print(table)
    return "\n".join(line.rstrip() for line in out.getvalue().splitlines())


def markdown_columns(headers: Sequence[str], rows: Iterable[Sequence[str]]) -> str:
    """A GitHub-flavoured markdown table, each column padded to its widest cell.

    A ``|`` inside a cell is escaped as ``\\|``.

    :returns: the lines joined by newlines, without a final newline.
    """
    cells = [[c.replace("|", "\\|") for c in headers]] + [[c.replace("|", "\\|") for c in row] for row in rows]
    widths = [max(len(row[k]) for row in cells) for k in range(len(headers))]

    def line(row: Sequence[str]) -> str:
        return "| " + " | ".join(c.ljust(w) for c, w in zip(row, widths, strict=True)) + " |"

    rule = "|" + "|".join("-" * (w + 2) for w in widths) + "|"
    return "\n".join([line(cells[0]), rule, *(line(row) for row in cells[1:])])
