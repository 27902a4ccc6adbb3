"""Publish a site directory atomically: build beside it, swap it in only once the build succeeded.

A build that fails half way (a page that cannot be written, a full disk, an exception in a template)
must leave the published directory byte for byte as it was. So the build writes into a staging
directory next to it, on the same file system, and the two change places in one step at the very
end: with Linux's ``renameat2(RENAME_EXCHANGE)``, so that no reader ever finds the directory missing
or half written; elsewhere with two renames. A failed build only removes its staging directory.
"""

from __future__ import annotations

import contextlib
import ctypes
import errno
import os
import shutil
import tempfile
from pathlib import Path

from build_tools.atomic import lock_directory
from build_tools.wire.site_paths import STAGING_EXTRA as STAGING_EXTRA
from build_tools.wire.site_paths import STAGING_INFIX as STAGING_INFIX

_RENAME_EXCHANGE = 2
_AT_FDCWD = -100


_held: dict[Path, int] = {}
"""Each staging directory this process builds into, with an open descriptor that holds a lock on
it: a later build removes a staging directory no build holds (one a killed build left)."""


def refusal(site: Path, owned: dict[str, Path]) -> str | None:
    """Why ``site`` must not be built and swapped in, if it would replace or hold what the build
    reads: the catalog, its lock, the templates, the config (``owned`` names each)."""
    where = target(site)
    for what, path in owned.items():
        real = Path(os.path.realpath(path))
        if where == real:
            relation = "is"
        elif where in real.parents:
            relation = "contains"
        elif real in where.parents:
            relation = "lies inside"
        else:
            continue
        return (
            f"the site directory {site} {relation} {what} {path}: building there would replace "
            "or change it; choose another site directory"
        )
    return None


def target(site: Path) -> Path:
    """The directory that gets replaced: a symlinked site directory stays a symlink."""
    return Path(os.path.realpath(site))


def stage(site: Path, *, seeded: bool = False) -> Path:
    """A new directory beside ``site``, to build into; ``seeded`` starts it as a copy of ``site``
    (for a ``--dirty`` build, which rewrites only what changed)."""
    site = target(site)
    site.parent.mkdir(parents=True, exist_ok=True)
    remove_abandoned(site)
    staging = Path(tempfile.mkdtemp(prefix=f".{site.name}{STAGING_INFIX}", dir=site.parent))
    try:
        _held[staging] = lock_directory(staging)
        if site.is_dir():
            os.chmod(staging, site.stat().st_mode & 0o7777)
            if seeded:
                shutil.copytree(site, staging, symlinks=True, dirs_exist_ok=True)
        else:
            os.chmod(staging, 0o777 & ~_umask())  # mkdtemp makes it private; a site is not
    except BaseException:
        discard(staging)
        raise
    return staging


def remove_abandoned(site: Path) -> list[Path]:
    """Remove the staging directories beside ``site`` that no running build holds."""
    removed = []
    for found in site.parent.glob(f".{site.name}{STAGING_INFIX}*"):
        try:
            descriptor = lock_directory(found)
        except OSError:  # a build is writing it, or it is gone already, or not a directory
            continue
        try:
            shutil.rmtree(found, ignore_errors=True)
            removed.append(found)
        finally:
            os.close(descriptor)
    return removed


def _release(staging: Path) -> None:
    descriptor = _held.pop(staging, None)
    if descriptor is not None:
        os.close(descriptor)


def swap_in(staging: Path, site: Path) -> None:
    """Put the staged build where ``site`` is, then remove what was there."""
    site = target(site)
    try:
        _swap_in(staging, site)
    finally:
        _release(staging)


def _swap_in(staging: Path, site: Path) -> None:
    if not os.path.lexists(site):
        os.rename(staging, site)
        return
    if _exchange(staging, site):
        _remove(staging)  # it holds the previous site now
        return
    previous = Path(tempfile.mkdtemp(prefix=f".{site.name}{STAGING_INFIX}old-", dir=site.parent))
    try:
        os.rename(site, previous)  # onto the empty directory just made: allowed
    except OSError:  # a mount point or the like: replace its contents instead
        _remove(previous)
        _replace_contents(staging, site)
        return
    os.rename(staging, site)
    _remove(previous)


def discard(staging: Path) -> None:
    """Remove a staging directory, after a failed build."""
    _remove(staging)
    _release(staging)


def _exchange(first: Path, second: Path) -> bool:
    """Swap two paths in one step where the system can (Linux 3.15+, glibc 2.28+)."""
    try:
        libc = ctypes.CDLL(None, use_errno=True)
        renameat2 = libc.renameat2
    except (OSError, AttributeError):
        return False
    result = renameat2(
        _AT_FDCWD, os.fsencode(first), _AT_FDCWD, os.fsencode(second), _RENAME_EXCHANGE
    )
    if result == 0:
        return True
    if ctypes.get_errno() in (errno.EINVAL, errno.ENOSYS, errno.ENOTSUP, errno.EXDEV):
        return False  # not supported here: fall back to renames
    raise OSError(ctypes.get_errno(), os.strerror(ctypes.get_errno()), str(second))


def _replace_contents(staging: Path, site: Path) -> None:
    for entry in list(site.iterdir()):
        _remove(entry)
    for entry in staging.iterdir():
        shutil.move(str(entry), site / entry.name)
    _remove(staging)


def _remove(path: Path) -> None:
    if path.is_dir() and not path.is_symlink():
        shutil.rmtree(path, ignore_errors=True)
    else:
        with contextlib.suppress(FileNotFoundError):
            path.unlink()


def _umask() -> int:
    mask = os.umask(0o022)
    os.umask(mask)
    return mask
