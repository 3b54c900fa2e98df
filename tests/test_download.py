"""``bitflip data get`` against a local HTTP server (never the network): checks and resume."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest

from bitflip import download
from bitflip.cli.main import main
from bitflip.download import DownloadError, get, parse_years


class Mirror:
    """Files served over HTTP with range requests; ``cut`` breaks the next answer off early."""

    def __init__(self) -> None:
        self.files: dict[str, bytes] = {}
        self.cut: dict[str, int] = {}
        self.ranges: list[str] = []
        mirror = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *args: object) -> None:
                pass

            def do_GET(self) -> None:
                data = mirror.files.get(self.path.lstrip("/"))
                if data is None:
                    self.send_error(404, "Not Found")
                    return
                start = 0
                wanted = self.headers.get("Range")
                if wanted:
                    mirror.ranges.append(wanted)
                    start = int(wanted.removeprefix("bytes=").split("-")[0])
                    if start >= len(data):
                        self.send_error(416)
                        return
                self.send_response(206 if wanted else 200)
                self.send_header("Content-Length", str(len(data) - start))
                self.end_headers()
                body = data[start:]
                cut = mirror.cut.pop(self.path.lstrip("/"), None)
                self.wfile.write(body if cut is None else body[:cut])

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}/"
        threading.Thread(target=self.server.serve_forever, daemon=True).start()


@pytest.fixture
def mirror(shared_data: Path) -> Iterator[Mirror]:
    m = Mirror()
    for folder, names in (
        ("ffo", download.SOURCES["ffo"].files),
        ("xot", download.SOURCES["xot"].files),
        ("wthor", download.wthor_files([1977, 1978])),
    ):
        for name in names:
            m.files[name] = (shared_data / folder / name).read_bytes()
    yield m
    m.server.shutdown()


def test_ffo_files_arrive_checked_and_are_not_fetched_twice(mirror: Mirror, tmp_path: Path) -> None:
    got = get("ffo", tmp_path, root=mirror.url)
    assert [f.status for f in got] == ["downloaded"] * 3
    assert (tmp_path / "ffo" / "fforum-40-59.obf").read_bytes() == mirror.files["fforum-40-59.obf"]
    assert [f.status for f in get("ffo", tmp_path, root=mirror.url)] == ["present"] * 3


def test_a_changed_checked_file_is_refused(mirror: Mirror, tmp_path: Path) -> None:
    mirror.files["openingssmall.txt"] += b"f5d6c3d3c4f4f6f3\n"
    with pytest.raises(DownloadError, match="openingssmall.txt: SHA-256 .* is not the known"):
        get("xot", tmp_path, root=mirror.url)
    assert not (tmp_path / "xot" / "openingssmall.txt").exists()


def test_a_refreshed_wthor_file_is_kept_when_its_structure_holds(
    mirror: Mirror, tmp_path: Path
) -> None:
    data = bytearray(mirror.files["WTH_1978.wtb"])
    data[16] ^= 1  # another tournament id: a different but well-formed file
    mirror.files["WTH_1978.wtb"] = bytes(data)
    got = {f.path.name: f for f in get("wthor", tmp_path, years=[1977, 1978], root=mirror.url)}
    assert got["WTH_1977.wtb"].note == "" and "structure checks out" in got["WTH_1978.wtb"].note
    mirror.files["WTH_1978.wtb"] = bytes(data[:-5])  # a truncated one is not
    (tmp_path / "wthor" / "WTH_1978.wtb").unlink()
    with pytest.raises(DownloadError, match="WTH_1978.wtb: .* bytes where its WTHOR header"):
        get("wthor", tmp_path, years=[1978], root=mirror.url)


def test_a_broken_download_resumes_where_it_stopped(mirror: Mirror, tmp_path: Path) -> None:
    mirror.cut["WTH_1977.wtb"] = 300
    with pytest.raises(DownloadError, match="got 300 of 832 bytes; run the same command again"):
        get("wthor", tmp_path, years=[1977], root=mirror.url)
    assert (tmp_path / "wthor" / "WTH_1977.wtb.part").stat().st_size == 300
    got = {f.path.name: f for f in get("wthor", tmp_path, years=[1977], root=mirror.url)}
    assert got["WTH_1977.wtb"].status == "resumed" and mirror.ranges[-1] == "bytes=300-"
    assert (tmp_path / "wthor" / "WTH_1977.wtb").read_bytes() == mirror.files["WTH_1977.wtb"]


def test_years_are_checked() -> None:
    assert parse_years("2020-2022,1977") == [1977, 2020, 2021, 2022]
    for bad in ("1976", "2020-20x", "2030"):
        with pytest.raises(ValueError, match="--years"):
            parse_years(bad)


def test_the_command_line(
    mirror: Mirror, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["data", "get", "xot", "--from", mirror.url, "--dest", str(tmp_path)]) == 0
    out = capsys.readouterr().out
    assert "openingslarge.txt: downloaded" in out and "2 files of xot" in out
    rc = main(
        ["data", "get", "wthor", "--years", "2023", "--from", mirror.url, "--dest", str(tmp_path)]
    )
    err = capsys.readouterr().err.strip()
    assert rc == 2 and len(err.splitlines()) == 1 and "HTTP 404" in err
