"""Errors raised by pegsolver, narrowed by cause.

All of them derive from :class:`PegsolverError` (itself a :class:`ValueError`), so a
caller can catch one family; the CLI turns them into a message and exit code 2.
"""
from __future__ import annotations


class PegsolverError(ValueError):
    """Base class: the input names something pegsolver cannot use."""


class BoardTextError(PegsolverError):
    """Board text is malformed (unknown character, no holes, mixed formats, ...).

    ``line`` and ``column`` (1-based, or None) locate the fault in the text and
    ``reason`` says what it is, so a file reader can report its own line numbers.
    """

    def __init__(self, message: str, line: int | None = None, column: int | None = None,
                 reason: str | None = None):
        super().__init__(message)
        self.line, self.column, self.reason = line, column, reason or message

    def __reduce__(self) -> tuple[type[BoardTextError], tuple[str, int | None, int | None, str]]:
        return type(self), (str(self), self.line, self.column, self.reason)   # pickled with its place


def text_error(line: int, column: int | None, reason: str) -> BoardTextError:
    """A BoardTextError whose message starts with its place: ``line 2, column 3: ...``."""
    where = f"line {line}" + (f", column {column}" if column else "")
    return BoardTextError(f"{where}: {reason}", line=line, column=column, reason=reason)


class BoardTooLargeError(PegsolverError):
    """The board has more holes than the compiled core supports."""


class UnknownVariantError(PegsolverError):
    """No board variant has the given name."""


class UnknownHoleError(PegsolverError):
    """A hole name or index does not exist on the board."""


class InvalidJumpError(PegsolverError):
    """A jump or move could not be read (syntax)."""


class IllegalJumpError(PegsolverError):
    """A jump is well formed but the rules forbid it in the current position."""


class NothingToUndoError(PegsolverError, IndexError):
    """``Board.pop()`` with no jump played (an IndexError too, as popping an empty list is)."""


class GoalError(PegsolverError):
    """A goal cannot apply to the start (more pegs than the start, holes off the board)."""


class OutputFileError(PegsolverError):
    """An output file (an SVG picture) cannot be written where it was asked for."""


class BenchError(PegsolverError):
    """A benchmark input cannot be used: a malformed problem set file, a problem or strategy
    name not in the set, or per-run limits that would let a run go on for ever."""


class CoreMissingError(ImportError):
    """The compiled core is not built; the message says how to build it."""


class Terminated(KeyboardInterrupt):
    """SIGTERM during a count (``kill``, or a batch system's time limit): it stops the run
    as Ctrl-C does, keeping the levels finished."""


class FileChangedError(PegsolverError):
    """A file of a run's own (a spill directory's partition or run of children) could not
    be read back: deleted or changed while the run used it (a trial deleted the spill
    directory mid-run)."""

    @classmethod
    def reading(cls, path: object, e: OSError) -> FileChangedError:
        """The error for ``path``, whose read raised ``e``."""
        return cls(f"cannot read {str(path)!r}: {e.strerror or e} (was it changed during the run?)")
