"""The page in a real browser: playing, the move list, saving and loading, hints, the library
(fixtures in ``conftest.py``)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from ._page import api, start, view


def test_a_whole_game_against_random_by_clicking(page: Any, server: str) -> None:
    page.goto(server + "/")
    page.wait_for_selector("#board circle.disc")
    v = view(page)
    assert v["human"] == "black" and v["opponent"] == "random"
    assert page.inner_text("#count-black b") == "2"
    for _ in range(80):
        page.wait_for_function("window.bitflip.view.human_to_move || window.bitflip.view.over")
        v = view(page)
        if v["over"]:
            break
        ply = v["cursor"]
        page.click(f"#board rect[data-sq={v['legal'][0]}]")
        page.wait_for_function(f"window.bitflip.view.cursor > {ply}")
    v = view(page)
    assert v["over"]
    banner = page.locator("#result-banner")
    r = v["result"]
    if r["winner"] is None:
        said = f"Draw {r['black']}-{r['white']}"
    else:
        won, lost = (r["black"], r["white"]) if r["winner"] == "black" else (r["white"], r["black"])
        said = f"{r['winner'].capitalize()} wins {won}-{lost}"
    assert banner.is_visible() and banner.inner_text().startswith(said)
    total = int(page.inner_text("#count-black b")) + int(page.inner_text("#count-white b"))
    assert total == v["black"] + v["white"] and page.inner_text("#turn") == "Game over"


def test_hover_names_and_an_illegal_click_flashes_the_legal_moves(page: Any, server: str) -> None:
    start(page, server, human="black", opponent="random")
    page.hover("#board rect[data-sq=d3]")
    assert page.inner_text("#hover-name") == "d3: legal"
    assert page.locator("#board rect.hover-legal[data-sq=d3]").count() == 1
    page.hover("#board rect[data-sq=a1]")
    assert page.inner_text("#hover-name") == "a1: not legal"
    assert page.locator("#board rect.hover-illegal[data-sq=a1]").count() == 1
    page.click("#board rect[data-sq=a1]")
    page.wait_for_selector("#board circle.flash")
    flashing = sorted(
        page.eval_on_selector_all("#board circle.flash", "els => els.map(e => e.dataset.sq)")
    )
    assert flashing == ["c4", "d3", "e6", "f5"]
    assert "illegal move a1 for black: it flips no disc" in page.inner_text("#message")
    assert view(page)["moves"] == []
    page.wait_for_selector("#board circle.flash", state="detached", timeout=5000)


def test_jump_back_in_the_move_list_and_play_a_new_line(page: Any, server: str) -> None:
    start(page, server, human="both", moves="f5d6c3d3c4")
    assert page.locator("#moves button").count() == 6  # 'start' and five moves
    page.click("#moves button[data-ply='2']")
    page.wait_for_function("window.bitflip.view.cursor === 2")
    assert page.locator("#board circle.last-move[data-sq=d6]").count() == 1
    # One mark on the board: the last move's dot and its square lit; no dots on flipped discs
    # or on the move before.
    assert page.locator("#board .last-move").count() == 1
    assert page.locator("#board rect.cell.last").evaluate_all(
        "rs => rs.map(r => r.dataset.sq)"
    ) == ["d6"]
    assert page.locator("#board .flipped, #board .prev-move, #board .prev-flipped").count() == 0
    assert page.locator("#moves button.future").count() == 3
    page.click("#board rect[data-sq=c5]")
    page.wait_for_function("window.bitflip.view.moves.length === 3")
    assert view(page)["moves"] == ["f5", "d6", "c5"]
    assert page.input_value("#transcript") == "f5d6c5"


def test_undo_and_redo_buttons(page: Any, server: str) -> None:
    start(page, server, human="black", opponent="random")
    page.click("#board rect[data-sq=f5]")
    page.wait_for_function(
        "window.bitflip.view.moves.length === 2 && !window.bitflip.view.thinking"
    )
    page.click("#btn-undo")
    page.wait_for_function("window.bitflip.view.cursor === 0")
    assert page.inner_text("#count-black b") == "2" and page.is_enabled("#btn-redo")
    page.click("#btn-redo")
    page.wait_for_function("window.bitflip.view.cursor === 2")


def test_save_and_load(page: Any, server: str, tmp_path: Path) -> None:
    start(page, server, human="both", moves="f5d6c3d3c4f4")
    with page.expect_download() as dl:
        page.click("#save-ggf")
    path = tmp_path / "game.ggf"
    dl.value.save_as(path)
    text = path.read_text()
    assert text.startswith("(;GM[Othello]") and "B[f5]" in text
    with page.expect_download() as dl2:
        page.click("#save-transcript")
    dl2.value.save_as(tmp_path / "game.txt")
    assert (tmp_path / "game.txt").read_text().strip() == "f5d6c3d3c4f4"
    old = view(page)["id"]
    page.click("#btn-load")
    page.fill("#form-load textarea", text)
    page.click("#load-ok")
    page.wait_for_function(f"window.bitflip.view.id !== '{old}'")
    v = view(page)
    assert v["moves"] == ["f5", "d6", "c3", "d3", "c4", "f4"] and v["human"] == "both"
    # A bad paste says what is wrong and keeps the dialog open.
    page.click("#btn-load")
    page.fill("#form-load textarea", "f5d6zz")
    page.click("#load-ok")
    page.wait_for_selector("#load-error:not([hidden])")
    assert "'zz' is not a square" in page.inner_text("#load-error")


def test_board_editor_sets_up_a_position(page: Any, server: str) -> None:
    start(page, server, human="black", opponent="random")
    page.click("#btn-editor")
    page.click("#editor-clear")
    for sq in ("d4", "e4"):
        page.click(f"#editor-board rect[data-sq={sq}]")  # empty -> black
    page.click("#editor-board [data-sq=e4] >> nth=-1")  # black -> white (click the disc)
    page.select_option("#form-editor select[name=turn]", "O")
    page.select_option("#form-editor select[name=human]", "both")
    old = view(page)["id"]
    page.click("#editor-play")
    page.wait_for_function(f"window.bitflip.view.id !== '{old}'")
    v = view(page)
    assert v["turn"] == "white" and v["cells"][27:29] == "XO" and v["cells"].count("-") == 62


def test_hints(page: Any, server: str) -> None:
    start(page, server, human="both", moves="f5d6")
    page.click("#btn-hint")
    page.wait_for_selector("#hints-box:not([hidden])")
    rows = page.locator("#hints tbody tr").count()
    assert rows == len(view(page)["legal"])
    assert page.locator("#board text.hint").count() == rows
    assert page.locator("#board text.hint.best").count() == 1


def test_games_dialog_opens_a_stored_game_and_tabs_keep_their_own(
    page: Any, browser: Any, server: str
) -> None:
    game = start(page, server, human="both", moves="f5d6c3", title="stored one")
    other = page.context.new_page()  # a second tab starts a game of its own
    other.goto(server + "/")
    other.wait_for_function("window.bitflip.view && window.bitflip.view.moves.length === 0")
    assert view(other)["id"] != game["id"]
    other.click("#btn-games")
    other.click(f"#games-table a[href='#game={game['id']}']")
    other.wait_for_function(f"window.bitflip.view && window.bitflip.view.id === '{game['id']}'")
    assert (
        view(other)["moves"] == ["f5", "d6", "c3"] and not other.locator("#dlg-games").is_visible()
    )
    # A move in one tab shows in the other tab that follows the same game.
    other.click(f"#board rect[data-sq={view(other)['legal'][0]}]")
    page.wait_for_function("window.bitflip.view.moves.length === 4")


def test_names_from_a_loaded_game_file_stay_text(browser: Any, server: str) -> None:
    """A GGF whose player name is markup: the Games dialog shows it as text, no element, no
    script; the page runs under its Content-Security-Policy without a violation."""
    evil = '<img src=x onerror="window.pwned=1">'
    body = {"text": f"(;GM[Othello]PB[{evil}]PW[w]B[f5];)", "human": "both"}
    game = api(server, "POST", "/api/games/load", body)
    ctx = browser.new_context(viewport={"width": 1280, "height": 860})
    page = ctx.new_page()
    problems: list[str] = []
    page.on("pageerror", lambda e: problems.append(str(e)))
    page.on("console", lambda m: problems.append(m.text) if m.type == "error" else None)
    page.goto(f"{server}/#game={game['id']}")
    page.wait_for_selector("#board circle.disc")
    page.click("#btn-games")
    page.wait_for_selector("#dlg-games[open]")
    assert page.locator("#games-table img").count() == 0
    assert evil in page.inner_text("#games-table")
    page.wait_for_timeout(300)
    assert page.evaluate("window.pwned") is None
    csp = page.evaluate("fetch('/').then(r => r.headers.get('content-security-policy'))")
    assert "script-src 'self'" in csp
    ctx.close()
    assert not problems, problems


# --- the study board ---------------------------------------------------------------------------


def test_level_picker_changes_the_opponent(page: Any, server: str) -> None:
    start(page, server, human="both", moves="f5")
    label = page.inner_text("#opponent option[value='engine:level=3']")
    assert label.startswith("Level 3:")
    page.select_option("#opponent", "engine:level=3")
    page.wait_for_function("window.bitflip.view.opponent === 'engine:level=3'")
    assert page.input_value("#opponent") == "engine:level=3"


def test_the_engines_book_moves_are_marked_in_the_move_list(page: Any, server: str) -> None:
    start(page, server, human="black", opponent="engine:level=1", moves="f5")
    page.wait_for_function("window.bitflip.view.moves.length === 2")  # the book's reply
    reply = page.locator("#moves button[data-ply='2']")
    assert "book" in (reply.get_attribute("class") or "")
    assert reply.get_attribute("title") == "from the opening book"
    assert "book" not in (page.locator("#moves button[data-ply='1']").get_attribute("class") or "")


def test_a_loaded_game_plays_on_against_the_engine(page: Any, server: str) -> None:
    start(page, server, human="both")
    old = view(page)["id"]
    page.click("#btn-load")
    page.fill("#form-load textarea", "f5d6c3d3")
    page.select_option("#form-load select[name=human]", "white")
    page.select_option("#form-load select[name=opponent]", "random")
    page.click("#load-ok")
    page.wait_for_function(f"window.bitflip.view.id !== '{old}'")
    page.wait_for_function("window.bitflip.view.moves.length === 5")  # black's reply came
    v = view(page)
    assert (
        v["human"] == "white" and v["human_to_move"] and v["moves"][:4] == ["f5", "d6", "c3", "d3"]
    )
    # "You play" switches sides in the same game: now black, and white's reply comes.
    page.select_option("#side", "black")
    page.wait_for_function("window.bitflip.view.human === 'black'")
    page.wait_for_function("window.bitflip.view.moves.length === 6")
    assert view(page)["id"] != old and view(page)["human_to_move"]


def test_a_variation_is_kept_and_navigated_with_keys(page: Any, server: str) -> None:
    start(page, server, human="both", moves="f5d6c3d3c2f4")
    page.keyboard.press("Home")
    page.wait_for_function("window.bitflip.view.cursor === 0")
    page.keyboard.press("ArrowRight")
    page.wait_for_function("window.bitflip.view.cursor === 1")
    page.click("#board rect[data-sq=f6]")
    page.wait_for_function("window.bitflip.view.moves.join('') === 'f5f6'")
    assert page.is_visible("#variation-bar")
    branch = page.locator("#moves button.branch")
    assert branch.count() == 1 and branch.inner_text() == "d6"
    page.keyboard.press("ArrowUp")  # the other branch at this ply: the game's d6
    page.wait_for_function("window.bitflip.view.moves.length === 6")
    assert view(page)["cursor"] == 2 and page.is_hidden("#variation-bar")
    page.keyboard.press("End")
    page.wait_for_function("window.bitflip.view.cursor === 6")
    page.keyboard.press("ArrowLeft")
    page.wait_for_function("window.bitflip.view.cursor === 5")
    page.click("#moves button.branch")  # f6 again, from the move list
    page.wait_for_function("window.bitflip.view.moves.join('') === 'f5f6'")
    page.click("#btn-main-line")
    page.wait_for_function("window.bitflip.view.moves.join('') === 'f5d6c3d3c2f4'")


def test_hints_are_discs_within_the_board(page: Any, server: str) -> None:
    start(page, server, human="both", moves="f5d6c5f4e7c6d3e3c7c4b3c3g3b4b2c2d1c1d2e1f3e2b5b1")
    page.click("#btn-hint")
    page.wait_for_selector("#hints-box:not([hidden])")
    scores = page.eval_on_selector_all(
        "#hints tbody tr td:nth-child(2)", "tds => tds.map(t => Number(t.textContent))"
    )
    assert scores and all(-64 <= s <= 64 for s in scores), scores


def test_the_library_renames_and_deletes(page: Any, server: str) -> None:
    keep = start(page, server, human="both", moves="f5d6", title="to rename")
    gone = api(server, "POST", "/api/games", {"human": "both", "moves": "f5f6", "title": "gone"})
    page.click("#btn-games")
    page.wait_for_selector("#dlg-games[open]")
    page.fill("#games-player", "to rename")
    page.wait_for_function("document.querySelectorAll('#games-table tbody tr').length === 1")
    page.click(f"#games-table tr[data-id='{keep['id']}'] button.rename")
    page.fill("#games-table input.rename-input", "Tiger study")
    page.click("#games-table button.rename-save")
    page.fill("#games-player", "")
    page.wait_for_selector(f"#games-table tr[data-id='{keep['id']}'] a:text('Tiger study')")
    assert api(server, "GET", f"/api/games/{keep['id']}")["title"] == "Tiger study"
    row = f"#games-table tr[data-id='{gone['id']}']"
    page.click(f"{row} button.delete")
    page.click(f"{row} button.delete.sure")
    page.wait_for_selector(row, state="detached")
    import urllib.error

    with pytest.raises(urllib.error.HTTPError):
        api(server, "GET", f"/api/games/{gone['id']}")


def test_a_slow_stale_library_answer_never_replaces_a_fresher_one(page: Any, server: str) -> None:
    keep = start(page, server, human="both", moves="f5d6", title="kept in view")
    page.click("#btn-games")
    page.wait_for_selector("#dlg-games[open]")
    # The answer for the filter typed first comes back last (a slow request, as in CI).
    page.evaluate(
        """() => { const f = window.fetch;
        window.fetch = (u, o) => String(u).includes('player=nobody')
          ? new Promise((r) => setTimeout(() => r(f(u, o)), 1500)) : f(u, o); }"""
    )
    page.fill("#games-player", "nobody")
    page.fill("#games-player", "")
    row = f"#games-table tr[data-id='{keep['id']}']"
    page.wait_for_selector(row)
    page.wait_for_timeout(2500)  # past the slow answer's arrival
    assert page.locator(row).count() == 1


def test_the_opening_is_named_as_the_game_goes(page: Any, server: str) -> None:
    start(page, server, human="both", moves="f5d6c3d3")
    assert page.inner_text("#opening") == "Opening: Perpendicular"  # f5d6, the last name
    page.click("#board rect[data-sq=c4]")
    page.wait_for_function("document.querySelector('#opening').textContent.includes('Tiger')")
    assert page.inner_text("#opening") == "Opening: Tiger"


def test_opening_the_page_stores_no_game_before_a_move(page: Any, server: str) -> None:
    page.goto(server + "/")
    page.wait_for_selector("#board circle.disc")
    gid = view(page)["id"]
    assert gid not in [g["id"] for g in api(server, "GET", "/api/games?limit=500")]
    page.click("#board rect[data-sq=f5]")
    page.wait_for_function("window.bitflip.view.moves.length >= 1")
    assert gid in [g["id"] for g in api(server, "GET", "/api/games?limit=500")]
    page.hover("#board circle.disc[data-sq=f5]")  # the square just played is taken, not "not legal"
    assert page.locator("#board rect.hover-illegal").count() == 0


def test_resign_shows_the_result_beside_the_board(page: Any, server: str) -> None:
    start(page, server, human="black", opponent="random")
    page.click("#btn-resign")
    page.wait_for_function("window.bitflip.view.over")
    banner = page.locator("#result-banner")
    assert banner.inner_text() == "Black resigns: white wins"
    b, board = banner.bounding_box(), page.locator("#board").bounding_box()
    assert b["y"] + b["height"] <= board["y"] + 1  # above the board, not over it


def test_flip_the_board(page: Any, server: str) -> None:
    start(page, server, human="both")

    def x(sq: str) -> float:
        return float(page.get_attribute(f"#board rect[data-sq={sq}]", "x"))

    assert x("a1") < x("h8")
    page.click("#btn-flip")
    page.wait_for_function(
        "Number(document.querySelector('#board rect[data-sq=a1]').getAttribute('x')) > 400"
    )
    assert x("a1") > x("h8")
    page.click("#board rect[data-sq=f5]")  # clicks still name the right squares
    page.wait_for_function("window.bitflip.view.moves.join('') === 'f5'")


def test_the_board_editor_plays_on_in_the_same_game(page: Any, server: str) -> None:
    game = start(page, server, human="both", moves="f5d6c3")
    page.click("#btn-editor")
    assert page.is_visible("#editor-keeps")  # the game's own position: its moves are kept
    page.select_option("#form-editor select[name=human]", "black")
    page.select_option("#form-editor select[name=opponent]", "random")
    page.click("#editor-play")
    page.wait_for_function("window.bitflip.view.human === 'black'")
    page.wait_for_function("window.bitflip.view.moves.length === 4")  # random replied as white
    v = view(page)
    assert v["id"] == game["id"] and v["moves"][:3] == ["f5", "d6", "c3"]


def test_a_game_clock_counts_down(page: Any, server: str) -> None:
    start(page, server, human="both", minutes=1)
    assert page.is_visible("#clock-black") and page.is_visible("#clock-white")
    assert page.inner_text("#clock-white") == "1:00"
    page.wait_for_function("document.querySelector('#clock-black').textContent === '0:58'")
    assert "running" in (page.get_attribute("#clock-black", "class") or "")


# --- the look (issue 34) -----------------------------------------------------------------------
