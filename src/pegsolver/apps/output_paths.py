"""Output files and directories checked before long work, not after it: a file is made
there and removed, since permission bits do not say it all (root passes them; /proc takes
no new files)."""
from __future__ import annotations

import os
import tempfile
from pathlib import Path

from ..errors import OutputFileError


def check_output_file(path: str | os.PathLike[str], kind: str, suffixes: tuple[str, ...] = ()) -> Path:
    """The path of a file to write, once it is known that it can be written.

    :param kind: what the file is, for the messages (``"CSV file"``).
    :param suffixes: the endings its name may have (any when empty).
    :raises OutputFileError: a name without one of ``suffixes``, a directory given as the
        file, a missing directory, or a file or directory that cannot be written.
    """
    if not str(path):
        raise OutputFileError(f"cannot write the {kind}: its path is empty")
    p = Path(path)
    try:
        return _checked_file(p, kind, suffixes)
    except OSError as e:   # a name too long for the file system, say
        raise OutputFileError(f"cannot write the {kind} {str(p)!r}: {e.strerror or e}") from None


def _checked_file(p: Path, kind: str, suffixes: tuple[str, ...]) -> Path:
    # check_output_file's checks; OSError for what the system refuses
    if p.is_dir():
        raise OutputFileError(f"cannot write the {kind} {str(p)!r}: it is a directory")
    if suffixes and p.suffix.lower() not in suffixes:   # '.svg' alone is a name with no suffix
        raise OutputFileError(f"cannot write the {kind} {str(p)!r}: its name must end in {', '.join(suffixes)}"
                              + (", after a name (pictures.svg)" if p.name.lower() in suffixes else ""))
    folder = p.parent if str(p.parent) else Path(".")
    if not folder.is_dir():
        raise OutputFileError(f"cannot write the {kind} {str(p)!r}: {_not_a_directory(folder)}")
    if p.exists() and not p.is_file():   # opening a named pipe to check it waits for a reader
        raise OutputFileError(f"cannot write the {kind} {str(p)!r}: not a regular file")
    if p.exists():
        with open(p, "ab"):   # opened to add nothing: the file stays as it is
            pass
    else:
        _try_a_file_in(folder)
    return p


def check_output_dir(path: str | os.PathLike[str], kind: str) -> Path:
    """A directory to write files in, made if missing: its parent must exist, so that a
    mistyped path is not made up.

    :param kind: what goes in it, for the messages (``"pictures"``).
    :raises OutputFileError: a file in the way, a missing parent, or a directory that
        cannot be made or written in.
    """
    if not str(path):
        raise OutputFileError(f"cannot write {kind}: the directory's path is empty")
    p = Path(path)
    if p.exists() and not p.is_dir():
        raise OutputFileError(f"cannot write {kind} in {str(p)!r}: it is a file, not a directory")
    if not p.parent.is_dir():
        raise OutputFileError(f"cannot create the directory {str(p)!r}: {_not_a_directory(p.parent)}")
    try:
        p.mkdir(exist_ok=True)
    except OSError as e:
        raise OutputFileError(f"cannot create the directory {str(p)!r}: {e.strerror or e}") from None
    try:
        _try_a_file_in(p)
    except OSError as e:
        raise OutputFileError(f"cannot write {kind} in the directory {str(p)!r}: {e.strerror or e}") from None
    return p


def _try_a_file_in(folder: Path) -> None:
    # make a file in folder and remove it; OSError when none can be made
    with tempfile.NamedTemporaryFile(dir=folder, prefix=".pegsolver-"):
        pass


def _not_a_directory(folder: Path) -> str:
    # why folder cannot hold a file: missing, or something else is there
    return f"{str(folder)!r} is not a directory" if folder.exists() else f"no directory {str(folder)!r}"
