"""The drag slider in a real browser (Labs 1, 2 and 3): held down and moved across
sizes, or stepped with arrow keys, its verdict follows the lab's own verdict at each
size, and the pointer on its survival strip stands over that size's cell, with no
message to the server until the mouse is released or the keys rest."""

from __future__ import annotations

import json

from bench.browser import DRAG_SLIDER as SLIDER
from bench.browser import VIEWS, hold_drag_slider, new_page, open_view, wait_idle
from lab.inputs.gold import load_gold
from lab.measure.drag import drag_frames
from tests.browser.conftest import DESKTOP, PROJECTOR
from tests.browser.presenter_fit import PRESENTER_CHART_PX
from tests.support import AUDIT, SAMPLES
from tests.support import run_cli as run
from ui.present.sweeps import sweep_sizes

VERDICT = '[data-testid="drag-verdict"]'
OTHERS = '[data-testid="drag-others"]'
STRIP = '[data-testid="drag-strip"]'
POINTER = '[data-testid="drag-pointer"]'
SENT: dict = {}  # per page, the messages it has sent the server so far
PLATFORM = SAMPLES / "platform_data.md"
SUPPORT = SAMPLES / "support_kb.md"


def _marked(frames) -> dict[int, str]:
    return {f.size: ("✓ " if f.intact else "✗ ") + f.verdict for f in frames}


def _cli_intact(capsys, doc, answer: str, strategy: str, sizes, overlap: int = 0) -> dict:
    """``python -m lab survival --json``: intact or not at each size."""
    code, out, err = run(
        capsys, "survival", str(doc), "--answer", answer, "--strategy", strategy,
        "--unit", "words", "--sizes", f"{min(sizes)}:{max(sizes)}:1",
        "--overlap", str(overlap), "--json",
    )  # fmt: skip
    assert code == 0, err
    curve = json.loads(out)
    return dict(zip(curve["sizes"], curve["intact"], strict=True))


def _pointer_at(page, size: int) -> float:
    """The pointer's centre (x), after checking it stands over the cell of ``size``."""
    box = page.locator(POINTER).bounding_box()
    centre = box["x"] + box["width"] / 2
    cell = page.locator(f'{STRIP} .cell[data-size="{size}"]').bounding_box()
    assert cell["x"] <= centre <= cell["x"] + cell["width"], (size, centre, cell)
    return centre


def _strip_matches(page, frames) -> None:
    """One cell per size, in the slider's order, intact where the frame is."""
    cells = page.locator(f"{STRIP} .cell").evaluate_all(
        "cs => cs.map(c => [Number(c.dataset.size), c.classList.contains('ok')])"
    )
    assert cells == [[f.size, f.intact] for f in frames]


def _drag_across(page, moves: int = 9) -> tuple[dict[int, tuple[str, str]], int]:
    """Hold the drag slider and move it ``moves`` sizes up without letting go: at each
    size, the verdict and the line under it; and the messages sent meanwhile. At each
    size the strip's pointer stands over that size's cell, further right each time."""
    sent = SENT[page]
    slider = page.locator(SLIDER)
    x, y, step_px = hold_drag_slider(page)
    before = len(sent)
    seen: dict[int, tuple[str, str]] = {}
    where: list[tuple[int, float]] = []
    for k in range(1, moves + 1):
        page.mouse.move(x + k * step_px, y, steps=2)
        size = int(slider.get_attribute("aria-valuenow"))
        seen[size] = (page.locator(VERDICT).inner_text(), page.locator(OTHERS).inner_text())
        assert page.locator('[data-testid="drag-value"]').inner_text() == f"{size} words"
        where.append((size, _pointer_at(page, size)))
    sizes = [size for size, _ in where]
    assert sizes == sorted(sizes), where  # moved right: the size only grows
    xs = [x for _, x in sorted(set(where))]
    assert xs == sorted(xs) and len(set(xs)) == len(seen), where  # and so does the pointer
    return seen, len(sent) - before


def _open(browser, app_url, lab: int):
    page = new_page(browser, DESKTOP)
    sent: list[str] = []  # what the browser sends the server: a rerun is a message
    page.on("websocket", lambda ws: ws.on("framesent", lambda payload: sent.append("msg")))
    SENT[page] = sent
    open_view(page, app_url, lab)
    page.locator(SLIDER).wait_for(timeout=30_000)
    return page


def _released(page, seen) -> None:
    """Let go: the size it settled on becomes the app's (the link's, and the control's
    after the page's run)."""
    page.mouse.up()
    last = max(seen)
    page.wait_for_url(f"**size={last}&**", timeout=30_000)
    wait_idle(page)
    assert page.locator(SLIDER).get_attribute("aria-valuenow") == str(last)


def test_dragging_redraws_the_verdict_at_every_size_without_a_rerun(app_url, browser) -> None:
    text = PLATFORM.read_text(encoding="utf-8")
    # the example view: platform sample, fixed, words, size 24, overlap 0
    frames = drag_frames(text, AUDIT, "fixed", sweep_sizes("words", 24), unit="words")
    expected = _marked(frames)
    page = _open(browser, app_url, 1)
    try:
        slider = page.locator(SLIDER)
        assert int(slider.get_attribute("aria-valuenow")) == 24
        assert int(slider.get_attribute("max")) + 1 == len(expected)
        _strip_matches(page, frames)
        seen, during = _drag_across(page)
        assert len(seen) >= 6, seen
        assert {s: v for s, (v, _) in seen.items()} == {s: expected[s] for s in seen}
        assert any(v.startswith("✓") for v, _ in seen.values())
        assert any(v.startswith("✗") for v, _ in seen.values())
        assert during == 0, f"{during} messages went to the server during the drag"
        _released(page, seen)
    finally:
        page.close()


def test_arrow_keys_redraw_at_each_press_and_settle_once_the_keys_rest(app_url, browser) -> None:
    text = PLATFORM.read_text(encoding="utf-8")
    frames = {f.size: f for f in drag_frames(text, AUDIT, "fixed", range(24, 30), unit="words")}
    page = _open(browser, app_url, 1)
    try:
        slider = page.locator(SLIDER)
        slider.focus()
        before = len(SENT[page])
        for size in range(25, 30):  # each press: the verdict at once, nothing sent
            slider.press("ArrowRight")
            verdict = frames[size].verdict
            assert slider.get_attribute("aria-valuenow") == str(size)
            # the keyboard's focus ring is drawn round the slider
            assert slider.evaluate("e => getComputedStyle(e).outlineStyle") == "solid"
            mark = "✓ " if frames[size].intact else "✗ "
            assert page.locator(VERDICT).inner_text() == mark + verdict
            assert slider.get_attribute("aria-valuetext") == f"{size} words: {verdict}"
            _pointer_at(page, size)
        assert len(SENT[page]) == before, "a key press reached the server before the keys rested"
        assert {frames[s].intact for s in range(25, 30)} == {True, False}
        # the keys rest: the size reached becomes the app's, in one run
        page.wait_for_url("**&size=29&**", timeout=30_000)
        wait_idle(page)
        assert page.locator(SLIDER).get_attribute("aria-valuenow") == "29"
        assert page.locator(VERDICT).get_attribute("aria-live") == "polite"
    finally:
        page.close()


def test_lab2_drags_size_with_the_overlap_and_matches_the_cli(app_url, browser, capsys) -> None:
    text = PLATFORM.read_text(encoding="utf-8")
    # Lab 2's example view: the platform sample, fixed, words, size 24, overlap 12
    sizes = sweep_sizes("words", 24, 12)
    expected = _marked(drag_frames(text, AUDIT, "fixed", sizes, unit="words", overlap=12))
    cli = _cli_intact(capsys, PLATFORM, AUDIT, "fixed", sizes, overlap=12)
    page = _open(browser, app_url, 2)
    try:
        seen, during = _drag_across(page)
        assert len(seen) >= 6, seen
        for size, (verdict, others) in seen.items():
            assert verdict == expected[size] and verdict.startswith("✓" if cli[size] else "✗")
            assert others == ""  # one strategy here
        assert during == 0, f"{during} messages went to the server during the drag"
        # the overlap is drawn: chunks after the first start with a hatched prefix
        assert page.locator('[data-testid="drag-doc"] .hatch').count() > 0
        _released(page, seen)
    finally:
        page.close()


def test_lab3_drags_size_with_every_strategys_verdict(app_url, browser, capsys) -> None:
    text = SUPPORT.read_text(encoding="utf-8")
    answer = load_gold(SUPPORT.with_suffix(".gold.jsonl")).questions[0].answer
    # Lab 3's example view: the support sample, fixed, words, size 50
    sizes = sweep_sizes("words", 50)
    expected = _marked(drag_frames(text, answer, "fixed", sizes, unit="words"))
    names = {"structural": "Structural", "sentence": "Sentence", "recursive": "LangChain recursive"}
    cli = {s: _cli_intact(capsys, SUPPORT, answer, s, sizes) for s in ("fixed", *names)}
    page = _open(browser, app_url, 3)
    try:
        seen, during = _drag_across(page)
        assert len(seen) >= 6, seen
        for size, (verdict, others) in seen.items():
            assert verdict == expected[size] and verdict.startswith(
                "✓" if cli["fixed"][size] else "✗"
            )
            want = " · ".join(
                f"{shown} {'✓ intact' if cli[name][size] else '✗ not intact'}"
                for name, shown in names.items()
            )
            assert others == want, size
        assert during == 0, f"{during} messages went to the server during the drag"
        _released(page, seen)
    finally:
        page.close()


def test_a_click_on_the_strip_moves_the_size_there(app_url, browser) -> None:
    page = _open(browser, app_url, 1)
    try:
        before = len(SENT[page])
        page.locator(f'{STRIP} .cell[data-size="30"]').click()
        page.wait_for_url("**&size=30&**", timeout=30_000)
        wait_idle(page)
        assert len(SENT[page]) > before  # one run, for the size clicked
        assert page.locator(SLIDER).get_attribute("aria-valuenow") == "30"
        _pointer_at(page, 30)
    finally:
        page.close()


def test_presenter_mode_enlarges_the_strip_and_keeps_it_on_screen(app_url, browser) -> None:
    texts = {
        "lowest size": f"{STRIP} .lo",
        "highest size": f"{STRIP} .hi",
        "key": f"{STRIP} .key",
        "pointer": POINTER,
        "verdict": VERDICT,
    }
    px = {}
    for presenter, viewport in ((False, DESKTOP), (True, PROJECTOR)):
        page = new_page(browser, viewport)
        try:
            page.goto(f"{app_url}/{VIEWS[1]}{'&presenter=1' if presenter else ''}")
            page.locator(SLIDER).wait_for(timeout=60_000)
            wait_idle(page)
            px[presenter] = {
                name: page.locator(sel).evaluate("e => parseFloat(getComputedStyle(e).fontSize)")
                for name, sel in texts.items()
            }
            strip = page.locator(STRIP).bounding_box()
            assert 0 <= strip["x"] and strip["x"] + strip["width"] <= viewport["width"]
            # the key between the two end sizes, overlapping neither
            lo, key, hi = (
                page.locator(texts[n]).bounding_box()
                for n in ("lowest size", "key", "highest size")
            )
            assert lo["x"] + lo["width"] < key["x"] and key["x"] + key["width"] < hi["x"]
        finally:
            page.close()
    assert [n for n in texts if px[True][n] < 1.5 * px[False][n]] == [], px
    assert px[False]["lowest size"] >= 12, px  # legible at a laptop's size too
    # the strip's words are a chart's: at least a chart's text size on a projector
    assert min(px[True][n] for n in ("lowest size", "highest size", "key")) >= PRESENTER_CHART_PX
