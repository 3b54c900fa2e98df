"""Reading NumPy ``.npz`` archives: one way for every file bitflip keeps its arrays in.

Opening books, pattern weights, Q-tables, training shards, label chunks and fit caches are all
``.npz`` files. A truncated download, a file of another kind or an archive without an expected
array each fail inside NumPy or ``zipfile`` with a different exception (``BadZipFile``,
``ValueError``, ``EOFError``, ``OSError``, ``KeyError``, ``zlib.error``), sometimes only when an
array is read. :func:`read_npz` reads the arrays a reader needs whole, inside one ``try``, and
turns any of those into one ``ValueError`` (or the reader's own subclass) whose message names
the file and what is wrong, which the command line prints as one line. Pickled objects are
refused (``allow_pickle=False``): a data file never runs code. Each reader keeps its own
checks of what the arrays mean.

>>> import tempfile
>>> from pathlib import Path
>>> path = Path(tempfile.mkdtemp()) / "a.npz"
>>> np.savez(path, x=np.arange(3))
>>> read_npz(path, "test file", ("x",))["x"]
array([0, 1, 2])
>>> _ = path.write_bytes(path.read_bytes()[:40])
>>> read_npz(path, "test file", ("x",))  # doctest: +ELLIPSIS
Traceback (most recent call last):
ValueError: .../a.npz: not a test file: not an .npz file (truncated, or another kind of file)
"""

from __future__ import annotations

import os
import zipfile
import zlib
from collections.abc import Sequence

import numpy as np

READ_ERRORS = (zipfile.BadZipFile, zlib.error, ValueError, OSError, EOFError, KeyError)
"""What NumPy and ``zipfile`` raise on a damaged archive, at opening or at reading an array."""


def read_npz(
    path: str | os.PathLike[str],
    what: str,
    required: Sequence[str],
    optional: Sequence[str] = (),
    *,
    error: type[ValueError] = ValueError,
    advice: str = "",
) -> dict[str, np.ndarray]:
    """The ``required`` arrays and those of ``optional`` the archive holds, read whole.

    Args:
        path: the ``.npz`` file.
        what: the kind of file, for messages ("pattern weights file": "x.npz: not a pattern
            weights file: no raw array").
        required: the arrays the file must hold.
        optional: arrays read when present.
        error: the exception to raise, ``ValueError`` or a reader's subclass of it.
        advice: appended to the message of a damaged file ("delete it" for a cache).

    Raises:
        FileNotFoundError: no file at ``path`` ("no <what> <path>").
        ValueError: (``error``) the file is not an ``.npz`` archive, lacks a required array,
            or cannot be read; the message starts with the file's name.
    """
    name = os.fspath(path)
    tail = f"; {advice}" if advice else ""
    if not os.path.exists(name):
        raise FileNotFoundError(f"no {what} {name}")
    if not zipfile.is_zipfile(name):  # also a bare .npy, and a directory
        raise error(
            f"{name}: not a {what}: not an .npz file (truncated, or another kind of file){tail}"
        )
    try:
        with np.load(name, allow_pickle=False) as z:
            missing = [k for k in required if k not in z.files]
            wanted = [] if missing else [k for k in (*required, *optional) if k in z.files]
            arrays = {k: z[k] for k in wanted}
    except READ_ERRORS as exc:
        detail = str(exc) or type(exc).__name__
        raise error(f"{name}: not a readable {what} ({detail}){tail}") from exc
    if missing:
        noun = "array" if len(missing) == 1 else "arrays"
        raise error(f"{name}: not a {what}: no {', '.join(missing)} {noun}{tail}")
    return arrays
