"""The board's look in a real browser: the move list's columns, the game-over banner, shaded
discs and flips, the evaluation graph, the dialogs (fixtures in ``conftest.py``)."""

from __future__ import annotations

from typing import Any

from ._page import start, view

# Random play: black passes at ply 23, white's h6 then wipes black out with 37 squares empty.
WIPEOUT = "d3c3c4c5b3d2b4a3c2c1d1f4b2a1b1e2f3f1e3e1g5g3pah6"


def test_the_move_list_has_black_and_white_columns_and_passes_take_no_number(
    page: Any, server: str
) -> None:
    start(page, server, human="both", moves=WIPEOUT)
    rows = page.locator("#moves .move-row")
    assert rows.count() == 12  # 24 plies, black's and white's side by side
    cells = rows.nth(0).locator("button")
    assert cells.count() == 2
    assert "black" in (cells.nth(0).get_attribute("class") or "")
    assert "white" in (cells.nth(1).get_attribute("class") or "")
    assert cells.nth(0).locator(".num").inner_text() == "1"
    assert cells.nth(0).locator(".sq").inner_text() == "d3"
    assert cells.nth(1).locator(".num").inner_text() == "2"
    last = rows.nth(11).locator("button")
    # The pass: shown in black's column, no number; white's h6 is move 23, not 24.
    assert last.nth(0).get_attribute("data-ply") == "23"
    assert "pass" in (last.nth(0).get_attribute("class") or "")
    assert last.nth(0).locator(".num").inner_text() == ""
    assert last.nth(0).locator(".sq").inner_text() == "pass"
    assert last.nth(1).locator(".num").inner_text() == "23"
    assert last.nth(1).locator(".sq").inner_text() == "h6"
    nums = page.locator("#moves .num").all_inner_texts()
    assert [n for n in nums if n] == [str(k) for k in range(1, 24)]
    # A pass is a position like any other: a click shows it.
    page.click("#moves button.pass")
    page.wait_for_function("window.bitflip.view.cursor === 23")
    assert "current" in (page.locator("#moves button.pass").get_attribute("class") or "")


def test_the_game_over_banner_counts_the_empties_and_the_pass_notice_goes(
    page: Any, server: str
) -> None:
    game = start(page, server, human="both", moves=WIPEOUT)
    v = view(page)
    assert v["over"] and (v["black"], v["white"]) == (0, 27)
    assert "passes" in v["notice"]  # the server still names the pass before the last move
    banner = page.inner_text("#result-banner")
    assert banner.splitlines()[0].strip() == "White wins 64-0"
    assert "(27 discs + 37 empty squares to the winner)" in banner
    assert page.inner_text("#notice") == ""
    assert page.inner_text("#turn") == "Game over"
    # The library says it the same way round: the winner's count first.
    page.click("#btn-games")
    page.wait_for_selector("#dlg-games[open]")
    row = page.locator(f"#games-table tr[data-id='{game['id']}']")
    assert "white won 64-0" in row.inner_text()


def test_discs_are_shaded_and_a_move_turns_them_over(page: Any, server: str) -> None:
    start(page, server, human="both")
    assert page.locator("#board radialGradient#disc-black").count() == 1
    fill = page.eval_on_selector("#board circle.disc[data-sq=d5]", "d => getComputedStyle(d).fill")
    assert fill == 'url("#disc-black")'
    # Watch for the move's drawing from before the click, and read it in the same frame (a
    # later redraw, a hover say, may come after the animation's end on a slow machine).
    page.evaluate(
        """() => { window.seenFlip = new Promise(resolve => {
            setTimeout(() => resolve(['no flip of e5 drawn in 10 s']), 10000);
            const look = () => {
                const d = document.querySelector('#board circle.disc.flip-to-black[data-sq=e5]');
                if (!d) return requestAnimationFrame(look);
                const placed = document.querySelector('#board circle.disc[data-sq=f5]');
                const fills = [40, 330].map(t => {
                    for (const a of d.getAnimations()) {
                        a.pause();
                        a.currentTime = t + a.effect.getTiming().delay;
                    }
                    return getComputedStyle(d).fill;
                });
                resolve([placed.classList.contains('place-anim'), ...fills]);
            };
            look();
        }); }"""
    )
    page.click("#board rect[data-sq=f5]")
    # The new disc drops in; the turned one shows its old colour until it is edge-on, then
    # the new one.
    assert page.evaluate("window.seenFlip") == [True, 'url("#disc-white")', 'url("#disc-black")']


def test_the_evaluation_graph_is_larger_with_a_score_after_every_move(
    page: Any, server: str
) -> None:
    start(page, server, human="both", moves="f5d6c3d3")
    box = page.locator("#graph").bounding_box()
    assert box["height"] >= 170 and box["width"] >= 300
    assert page.inner_text("#graph-readout") == "After 4. d3: no score yet"
    page.click("#btn-analyse")
    page.wait_for_function(
        "!window.bitflip.view.analysing && window.bitflip.view.analysis.length === 4",
        timeout=60_000,
    )
    plies = page.eval_on_selector_all(
        "#graph circle.graph-point", "cs => cs.map(c => Number(c.dataset.ply))"
    )
    assert plies == [0, 1, 2, 3, 4]  # the start and after every move
    scores = page.locator("#moves .move-cell .score").all_inner_texts()
    assert len(scores) == 4 and all(s.strip() for s in scores), scores
    assert page.inner_text("#graph-readout").startswith("After 4. d3: ")
    page.click("#moves button[data-ply='2']")
    page.wait_for_function("window.bitflip.view.cursor === 2")
    assert page.inner_text("#graph-readout").startswith("After 2. d6: ")
    assert page.locator("#graph circle.graph-point.current[data-ply='2']").count() == 1


def test_dialogs_close_from_their_title_bar(page: Any, server: str) -> None:
    start(page, server, human="both")
    for button, dialog in (("#btn-new", "#dlg-new"), ("#btn-load", "#dlg-load")):
        page.click(button)
        page.wait_for_selector(f"{dialog}[open]")
        assert page.inner_text(f"{dialog} .dialog-head h2")
        page.click(f"{dialog} .dialog-head .close")
        page.wait_for_selector(f"{dialog}[open]", state="detached")
