"""Download the field's data sets from their official sources into the user data folder.

``bitflip data get wthor --years 2020-2023`` fetches the French Othello Federation's WTHOR files,
``ffo`` the FFO endgame test suite (as Edax ships it), ``xot`` the XOT opening lists (as
Egaroucid ships them). Each file is streamed to ``NAME.part`` (a broken download resumes from
there with an HTTP range request), checked, then renamed: FFO and XOT files against the SHA-256
that bitflip ships (``data/datasets.sha256``); WTHOR files, which the FFO refreshes now and then,
against the size their header announces, with a note when the checksum is not the known one.
The files land in :func:`bitflip.datadir.user_data_dir` unless told otherwise, where every
command and the tests find them.
"""

from __future__ import annotations

import hashlib
import struct
import urllib.error
import urllib.request
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from importlib import resources
from pathlib import Path

MAX_FILE = 64 * 1024 * 1024
"""Largest file accepted: the biggest WTHOR year is under 1 MB; a larger answer is not data."""
CHUNK = 64 * 1024
TIMEOUT = 60.0
WTHOR_YEARS = range(1977, 2026)


@dataclass(frozen=True)
class Source:
    """Where one data set comes from."""

    name: str
    root: str
    """The URL that the files' names are relative to."""
    files: tuple[str, ...]
    folder: str
    """The data folder's subfolder the files go to."""
    refreshed: bool = False
    """Upstream rewrites its files now and then: a new checksum is a note, not an error."""


def wthor_files(years: Iterable[int]) -> tuple[str, ...]:
    return ("WTHOR.JOU", "WTHOR.TRN", *(f"WTH_{y}.wtb" for y in years))


SOURCES: dict[str, Source] = {
    "wthor": Source(
        "wthor",
        "https://www.ffothello.org/wthor/base/",
        wthor_files(WTHOR_YEARS),
        "wthor",
        refreshed=True,
    ),
    "ffo": Source(
        "ffo",
        "https://raw.githubusercontent.com/abulmo/edax-reversi/master/problem/",
        ("fforum-1-19.obf", "fforum-20-39.obf", "fforum-40-59.obf"),
        "ffo",
    ),
    "xot": Source(
        "xot",
        "https://raw.githubusercontent.com/Nyanyan/Egaroucid/main/bin/resources/xot/",
        ("openingssmall.txt", "openingslarge.txt"),
        "xot",
    ),
}


class DownloadError(OSError):
    """A file that could not be fetched or failed its check; the message names it."""


Progress = Callable[[str, int, int | None], None]
"""Told ``(file name, bytes so far, total bytes or None)`` as a download goes."""


def known_checksums() -> dict[str, str]:
    """SHA-256 of the data files as bitflip knows them, by ``folder/name``."""
    text = resources.files("bitflip").joinpath("data/datasets.sha256").read_text()
    out = {}
    for line in text.splitlines():
        digest, _, name = line.partition("  ")
        if digest and name:
            out[name.strip()] = digest
    return out


def parse_years(text: str) -> list[int]:
    """``2020-2023`` or ``2021,2023`` (or a mix) as a list of WTHOR years."""
    years: list[int] = []
    for part in text.split(","):
        lo, dash, hi = part.strip().partition("-")
        try:
            first, last = int(lo), int(hi) if dash else int(lo)
        except ValueError:
            raise ValueError(
                f"--years: {part.strip()!r} is not a year or a range such as 2020-2023"
            ) from None
        if not (WTHOR_YEARS.start <= first <= last < WTHOR_YEARS.stop):
            raise ValueError(
                f"--years: WTHOR has the years {WTHOR_YEARS.start}-{WTHOR_YEARS.stop - 1}, "
                f"not {part.strip()}"
            )
        years += range(first, last + 1)
    return sorted(set(years))


@dataclass(frozen=True)
class Fetched:
    path: Path
    status: str
    """'downloaded', 'resumed' or 'present'."""
    note: str = ""


def get(
    name: str,
    dest: Path,
    *,
    years: Iterable[int] | None = None,
    root: str | None = None,
    progress: Progress | None = None,
) -> list[Fetched]:
    """Fetch data set ``name`` into ``dest/<its folder>``; files already there and sound stay.

    Args:
        name: 'wthor', 'ffo' or 'xot'.
        dest: the data folder.
        years: WTHOR years (default: all).
        root: another URL to fetch the same file names from (a mirror).
        progress: told how each download goes.

    Raises:
        DownloadError: a file could not be fetched or failed its check.
        ValueError: an unknown data set.
    """
    source = SOURCES.get(name)
    if source is None:
        raise ValueError(f"unknown data set {name!r}; known: {', '.join(SOURCES)}")
    files = wthor_files(years) if name == "wthor" and years is not None else source.files
    folder = dest / source.folder
    folder.mkdir(parents=True, exist_ok=True)
    checksums = known_checksums()
    base = (root or source.root).rstrip("/") + "/"
    out = []
    for file in files:
        final = folder / file
        known = checksums.get(f"{source.folder}/{file}")
        if final.exists() and _sound(final, known, source.refreshed):
            out.append(Fetched(final, "present"))
            continue
        resumed = _download(base + file, final.with_name(file + ".part"), progress)
        note = _check(final.with_name(file + ".part"), known, source.refreshed)
        final.with_name(file + ".part").replace(final)
        out.append(Fetched(final, "resumed" if resumed else "downloaded", note))
    return out


def _sound(path: Path, known: str | None, refreshed: bool) -> bool:
    try:
        _check(path, known, refreshed)
    except DownloadError:
        return False
    return True


def _download(url: str, part: Path, progress: Progress | None) -> bool:
    """Stream ``url`` into ``part``, resuming what is there. True when it resumed."""
    have = part.stat().st_size if part.exists() else 0
    request = urllib.request.Request(url, headers={"User-Agent": "bitflip"})
    if have:
        request.add_header("Range", f"bytes={have}-")
    try:
        response = urllib.request.urlopen(request, timeout=TIMEOUT)
    except urllib.error.HTTPError as exc:
        if exc.code == 416 and have:  # the part file is already whole
            return True
        raise DownloadError(f"{url}: HTTP {exc.code} {exc.reason}") from None
    except (urllib.error.URLError, TimeoutError, OSError) as exc:
        reason = getattr(exc, "reason", exc)
        raise DownloadError(f"{url}: cannot connect ({reason})") from None
    with response:
        resumed = have > 0 and response.status == 206
        if not resumed:
            have = 0
        length = response.headers.get("Content-Length")
        total = have + int(length) if length and length.isdigit() else None
        if total is not None and total > MAX_FILE:
            raise DownloadError(f"{url}: {total} bytes is larger than any data file")
        with part.open("ab" if resumed else "wb") as f:
            while True:
                try:
                    chunk = response.read(CHUNK)
                except (TimeoutError, OSError) as exc:
                    raise DownloadError(
                        f"{url}: the download broke off at {have} bytes ({exc}); run the "
                        "same command again to resume"
                    ) from None
                if not chunk:
                    break
                have += len(chunk)
                if have > MAX_FILE:
                    raise DownloadError(f"{url}: more than {MAX_FILE} bytes; not a data file")
                f.write(chunk)
                if progress is not None:
                    progress(part.name.removesuffix(".part"), have, total)
        if total is not None and have != total:
            raise DownloadError(
                f"{url}: got {have} of {total} bytes; run the same command again to resume"
            )
    return resumed


def _check(path: Path, known: str | None, refreshed: bool) -> str:
    """'' when ``path`` is the known file, a note when it is a sound newer one; else raise."""
    data = path.read_bytes()
    digest = hashlib.sha256(data).hexdigest()
    if known is not None and digest == known:
        return ""
    name = path.name.removesuffix(".part")
    if not refreshed:
        raise DownloadError(
            f"{name}: SHA-256 {digest[:16]}... is not the known {str(known)[:16]}..."
        )
    _check_wthor(name, data)
    return "not the checksum bitflip knows (the FFO refreshes its files); its structure checks out"


def _check_wthor(name: str, data: bytes) -> None:
    """The size a WTHOR header announces: after 16 bytes, 68 a game, 20 a player, 26 an event."""
    if len(data) < 16:
        raise DownloadError(f"{name}: {len(data)} bytes, shorter than a WTHOR header")
    games, names = struct.unpack_from("<IH", data, 4)
    record = {".wtb": 68, ".jou": 20, ".trn": 26}.get(Path(name).suffix.lower(), 68)
    expected = 16 + record * (games if record == 68 else names)
    if len(data) != expected:
        raise DownloadError(
            f"{name}: {len(data)} bytes where its WTHOR header announces {expected}"
        )
