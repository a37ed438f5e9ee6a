"""Where the partitions of an out-of-core run live: in memory, or in a spill directory that
is also the run's checkpoint.

A spill directory holds one folder per enumeration of the run (the forward levels, and
the backward levels of a finish), each with ``run.json``: what the enumeration is (board,
start, symmetries, counted or not, this format's version) and the levels finished, with
their figures. A level's partitions are files ``level_K/part_I.pegp`` (engine.partition's
stored form); the children of the level being built are ``runs_K/*.pegr`` until merged.
Only the last finished level is kept (every level, when a run keeps its levels to find the
winning positions of a finish); a run resumed from the directory starts at the last.
The winning positions found are kept as they are found, in the forward folder's
``winning/level_K.pegp``: a resume goes on with the levels not yet met.
One process at a time uses a spill directory: it holds the lock on ``DIR/.pegsolver.lock``
(``flock``, released by the kernel when the process ends, even by kill -9).
"""
from __future__ import annotations

import errno
import fcntl
import json
import os
import shutil
import struct
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ..errors import FileChangedError, PegsolverError
from .partition import decode, encode
from .run_record import differs, record_fault, sealed
from .shards import RunFile

if TYPE_CHECKING:
    from .partition import Words

FORMAT = 1
_WINNING = struct.Struct("<4sI")   # a winning-positions file's mark and level, before the positions
_WINNING_MARK = b"pegw"


class SpillError(PegsolverError):
    """A spill directory that cannot be used: unwritable, full, or holding another run."""


class SpillFull(SpillError):
    """The spill directory is full: the run stops, with what it finished kept for a resume."""


class MemoryStore:
    """Partitions and runs held in this process's memory (encoded), for runs without a
    spill directory."""

    def __init__(self) -> None:
        self.parts: dict[tuple[int, int], bytes] = {}
        self.runs: dict[int, list[bytes]] = {}

    def release(self) -> None:
        """Let go of what the store holds outside this process (nothing here)."""

    def put_part(self, k: int, i: int, data: bytes) -> None:
        self.parts[k, i] = data

    def get_part(self, k: int, i: int) -> bytes:
        return self.parts[k, i]

    def where(self, k: int, i: int) -> str:
        """Where partition ``i`` of level ``k`` is kept, for errors."""
        return f"partition {i} of level {k} (in memory)"

    def load_part(self, k: int, i: int) -> tuple[Words, Words | None, Words | None]:
        """Partition ``i`` of level ``k`` decoded: keys, low and high count words.

        :raises PegsolverError: a partition that cannot be read or is corrupt, named by where it is.
        """
        data = self.get_part(k, i)
        try:
            return decode(data)
        except PegsolverError as e:
            raise PegsolverError(f"{self.where(k, i)}: {e}") from None

    def put_run(self, k: int, name: str, data: bytes) -> None:
        self.runs.setdefault(k, []).append(data)

    def run_list(self, k: int) -> list[Any]:
        return list(self.runs.get(k, []))

    def drop_level(self, k: int) -> None:
        for key in [key for key in self.parts if key[0] == k]:
            del self.parts[key]

    def drop_runs(self, k: int) -> None:
        self.runs.pop(k, None)

    def put_winning(self, k: int, keys: Words) -> None:
        """Keep level ``k``'s winning positions (sorted) for a resume: none kept in memory."""

    def get_winning(self, k: int, pegs: int) -> Words | None:
        """Level ``k``'s winning positions (of ``pegs`` pegs each) kept by :meth:`put_winning`, or None."""
        return None

    def disk_bytes(self) -> int:
        return 0

    def memory_bytes(self) -> int:
        return sum(len(d) for d in self.parts.values()) + sum(len(r) for rs in self.runs.values() for r in rs)

    def finished(self) -> dict[str, Any] | None:
        return None

    def finish_level(self, record: dict[str, Any]) -> None:
        pass


class DirStore(MemoryStore):
    """Partitions and runs as files of ``root`` (see the module's doc)."""

    def __init__(self, root: Path, identity: dict[str, Any], resume: bool, names: Sequence[str] = ()) -> None:
        super().__init__()
        self.root, self.identity, self.names = root, identity, names
        self.locked: Path | None = None   # the spill directory whose lock this store holds
        self.manifest = root / "run.json"
        try:
            root.mkdir(parents=True, exist_ok=True)
            probe = root / ".write-test"
            probe.write_bytes(b"ok")
            probe.unlink()
        except OSError as e:
            # named as the user gave it (root is its run's folder inside it)
            raise SpillError(f"the spill directory {str(root.parent)!r} is not writable: {e.strerror or e}") from None
        self.record: dict[str, Any] | None = None
        if self.manifest.exists():
            self.record = self._read(resume)
        else:
            self._forget()

    def _read(self, resume: bool) -> dict[str, Any]:
        try:
            record: dict[str, Any] = json.loads(self.manifest.read_text())
        except (OSError, ValueError) as e:
            raise SpillError(f"{str(self.manifest)!r} is not a readable run record: {e}") from None
        fault = record_fault(record)
        if fault is not None:   # a trial's record edited by hand gave a traceback on resume
            raise SpillError(f"{str(self.manifest)!r} is not a readable run record: {fault}")
        theirs = record.get("identity", {})
        # what the user gave (board, start, finish, counts) first: the symmetries follow from them
        difference = next((differs(key, theirs.get(key), ours, self.names) for key, ours
                           in sorted(self.identity.items(), key=lambda kv: kv[0] == "symmetries")
                           if theirs.get(key) != ours), None)
        where = f"the spill directory {str(self.root.parent)!r} holds a run"
        # another problem's run is not to be resumed (a trial was told "resume it", and was refused)
        if difference is not None and resume:
            raise SpillError(f"{where} with {difference}: it cannot be resumed by this run")
        if difference is not None:
            raise SpillError(f"{where} with {difference}: give an empty directory (this run cannot resume it)")
        if not resume:
            raise SpillError(f"{where} already: resume it (--resume, or resume=True in Python), or give an "
                             f"empty directory")
        return record

    def _forget(self) -> None:
        # a fresh enumeration: no levels or runs of an earlier one
        for child in self.root.iterdir():
            if child.is_dir() and child.name.startswith(("level_", "runs_", "winning")):
                shutil.rmtree(child)

    def _write(self, path: Path, data: bytes) -> None:
        path.parent.mkdir(exist_ok=True)
        tmp = path.with_suffix(".tmp")
        try:
            with open(tmp, "wb") as f:
                f.write(data)
            os.replace(tmp, path)
        except OSError as e:
            tmp.unlink(missing_ok=True)
            if e.errno in (errno.ENOSPC, errno.EDQUOT):
                raise SpillFull(f"the spill directory {str(self.root.parent)!r} is full") from None
            raise SpillError(f"cannot write {str(path)!r}: {e.strerror or e}") from None

    def release(self) -> None:
        """Let go of the spill directory's lock (once)."""
        if self.locked is not None:
            unlock_spill(self.locked)
            self.locked = None

    def put_part(self, k: int, i: int, data: bytes) -> None:
        self._write(self._part_path(k, i), data)

    def where(self, k: int, i: int) -> str:
        return repr(str(self._part_path(k, i)))

    def _part_path(self, k: int, i: int) -> Path:
        return self.root / f"level_{k:03d}" / f"part_{i:05d}.pegp"

    def get_part(self, k: int, i: int) -> bytes:
        path = self._part_path(k, i)
        try:
            return path.read_bytes()
        except OSError as e:
            raise FileChangedError.reading(path, e) from None

    def put_run(self, k: int, name: str, data: bytes) -> None:
        self._write(self.root / f"runs_{k:03d}" / f"{name}.pegr", data)

    def _winning_path(self, k: int) -> Path:
        return self.root / "winning" / f"level_{k:03d}.pegp"

    def put_winning(self, k: int, keys: Words) -> None:
        # the winning pass's checkpoint: a resume redid the whole pass, so a trial's run
        # stopped more often than the pass takes never ended
        self._write(self._winning_path(k), _WINNING.pack(_WINNING_MARK, k) + encode(keys).data)

    def get_winning(self, k: int, pegs: int) -> Words | None:
        """Level ``k``'s winning positions kept, or None: none kept, or a corrupt file or
        another level's, by its header or by its positions' pegs (they are met again and
        kept anew: unlike a level's partitions, they can be made again).

        :raises FileChangedError: a file kept that cannot be read."""
        path = self._winning_path(k)
        if not path.exists():
            return None
        try:
            data = path.read_bytes()
        except OSError as e:
            raise FileChangedError.reading(path, e) from None
        if data[:_WINNING.size] != _WINNING.pack(_WINNING_MARK, k):   # a trial's copy of level 13's as 14's
            return None
        try:
            keys = decode(data[_WINNING.size:])[0]
        except PegsolverError:
            return None
        # sorted keys of one level: the ends' pegs stand for all (a trial's copy had its header's level edited)
        ends = {int(keys[0]).bit_count(), int(keys[-1]).bit_count()} if len(keys) else {pegs}
        return keys if ends == {pegs} else None

    def run_list(self, k: int) -> list[Any]:
        folder = self.root / f"runs_{k:03d}"
        files = sorted(folder.glob("*.pegr")) if folder.exists() else []
        return [RunFile(f) for f in files if _size(f)]

    def drop_level(self, k: int) -> None:
        shutil.rmtree(self.root / f"level_{k:03d}", ignore_errors=True)

    def drop_runs(self, k: int) -> None:
        shutil.rmtree(self.root / f"runs_{k:03d}", ignore_errors=True)

    def disk_bytes(self) -> int:
        return tree_bytes(self.root)

    def memory_bytes(self) -> int:
        return 0

    def finished(self) -> dict[str, Any] | None:
        return self.record

    def finish_level(self, record: dict[str, Any]) -> None:
        """Record a finished level (its files are written): the checkpoint a resumed run
        starts from."""
        self.record = sealed({"format": FORMAT, "identity": self.identity, **record})
        self._write(self.manifest, json.dumps(self.record, indent=1).encode())


def _size(path: Path) -> int:
    try:
        return path.stat().st_size
    except OSError as e:
        raise FileChangedError.reading(path, e) from None


def tree_bytes(root: Path) -> int:
    """The bytes of the files under ``root``, while a run may replace or delete them
    (a file that goes meanwhile counts 0: a trial's progress line crashed on one)."""
    total = 0
    for folder, _, files in os.walk(root):   # a folder that goes meanwhile is skipped
        for name in files:
            try:
                total += os.stat(os.path.join(folder, name)).st_size
            except OSError:
                pass
    return total


LOCK_NAME = ".pegsolver.lock"
_LOCKS: dict[Path, list[int]] = {}   # spill directory -> [its lock file's descriptor, holders in this process]


def lock_spill(root: Path) -> None:
    """Hold the lock of the spill directory ``root`` for this process, one holder more (a
    forward and a backward enumeration of one run share it).

    :raises SpillError: another process holds it: two runs in one directory would delete
        each other's levels.
    """
    key = root.resolve()
    if key in _LOCKS:
        _LOCKS[key][1] += 1
        return
    try:
        fd = os.open(root / LOCK_NAME, os.O_RDWR | os.O_CREAT, 0o644)
    except OSError as e:   # the errno is the new file's: /proc said "No such file or directory"
        raise SpillError(f"the spill directory {str(root)!r} is not writable: cannot create a file in it "
                         f"({e.strerror or e})") from None
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError:
        holder = os.read(fd, 32).decode(errors="replace").strip()
        os.close(fd)
        raise SpillError(f"the spill directory {str(root)!r} is in use by another pegsolver run"
                         f"{f' (process {holder})' if holder.isdigit() else ''}: wait for it to end, or give "
                         f"another directory") from None
    try:   # the holder's process id, for the message above
        os.ftruncate(fd, 0)
        os.write(fd, f"{os.getpid()}\n".encode())
    except OSError as e:   # a full disk was told as the command line's output error
        os.close(fd)
        if e.errno in (errno.ENOSPC, errno.EDQUOT):
            raise SpillFull(f"the spill directory {str(root)!r} is full") from None
        raise SpillError(f"cannot write the lock file of the spill directory {str(root)!r}: "
                         f"{e.strerror or e}") from None
    _LOCKS[key] = [fd, 1]


def unlock_spill(root: Path) -> None:
    """One holder of this process less; the lock goes with the last."""
    key = root.resolve()
    held = _LOCKS.get(key)
    if held is None:
        return
    held[1] -= 1
    if held[1] == 0:
        del _LOCKS[key]
        os.close(held[0])


def package_version() -> str:
    """This pegsolver's version, as installed ("source" when run from a source tree)."""
    from importlib.metadata import PackageNotFoundError, version
    try:
        return version("pegsolver")
    except PackageNotFoundError:
        return "source"


def open_spill(directory: str | os.PathLike[str], name: str, identity: dict[str, Any], resume: bool,
               names: Sequence[str] = ()) -> DirStore:
    """The store of one enumeration ``name`` in the spill ``directory`` (made if missing;
    its parent must exist). ``names`` are the board's hole names, for messages.

    :raises SpillError: the directory is not writable, or its parent does not exist (a
        mistyped path would otherwise fill another disk), or it holds a run of another board
        or version, or it holds a run while ``resume`` is False.
    """
    root = Path(directory)
    identity = {**identity, "format": FORMAT}
    if resume and not root.is_dir():
        what = "is not a directory" if root.exists() else "does not exist"
        raise SpillError(f"nothing to resume: {str(root)!r} {what}")
    if not root.exists() and not root.parent.exists():
        raise SpillError(f"the spill directory {str(root)!r} cannot be made: {str(root.parent)!r} does not exist "
                         f"(make it first if the path is right)")
    if root.exists() and not root.is_dir():
        raise SpillError(f"the spill directory {str(root)!r} is not a directory")   # a file, or /dev/null
    try:
        root.mkdir(exist_ok=True)
    except OSError as e:
        raise SpillError(f"the spill directory {str(root)!r} cannot be made in {str(root.parent)!r}: "
                         f"{e.strerror or e}") from None
    lock_spill(root)
    try:
        store = _open_store(root, name, identity, resume, names)
    except BaseException:
        unlock_spill(root)
        raise
    store.locked = root   # released with the store, when the run closes
    return store


def _open_store(root: Path, name: str, identity: dict[str, Any], resume: bool, names: Sequence[str]) -> DirStore:
    if resume and not (root / name / "run.json").exists():
        # the forward levels must be there to resume; say whose run is there instead (a
        # backward pass, of a finish, is new when its forward levels are there)
        records = sorted(root.glob("*/run.json"))
        forward = [r for r in records if r.parent.name.startswith("forward_")]
        if name.startswith("forward_") or not forward:
            for other in forward or records:
                DirStore(other.parent, identity, True, names)   # raises, naming what differs
            raise SpillError(f"nothing to resume in {str(root)!r}: it holds no run record")
    return DirStore(root / name, identity, resume, names)
