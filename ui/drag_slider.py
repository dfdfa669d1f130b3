"""The size control of the labs that sweep chunk size (1, 2 and 3): a Streamlit
component (components v2, inline HTML/CSS/JS, no build step) that redraws the verdict,
the chunks around the answer and a pointer on a strip of the survival curve at every
step of a drag or of an arrow key, in the browser, from frames computed once
(lab.measure.drag); only the size it settles on goes back to Python, which moves the
app's size there (as does a click on the strip).

It is drawn in two places of a page: the control (the slider, its strip and the
verdict) at the top, on the first screen, and the window on the chunks around the
answer under the lab's chart. The window is sent the frames (sent again only when
they change: Streamlit's message cache), the control the app's size; in the browser
the control draws from the window's frames."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import streamlit as st

from lab.measure.drag import too_long_to_drag
from ui import cached, frame, palette, state

NAME = "chunk_lab.drag_slider"
SETTLED = "settled"  # the trigger the component fires when a drag or a key press ends
THUMB_PX = 16  # a range input's thumb in Chromium: the strip's cells line up with its stops

CONTROL_HTML = """
<div class="drag" data-testid="drag-slider">
  <div class="head">
    <label class="label"><span class="label-text"></span>
      <input type="range" class="size" data-testid="drag-size">
      <output class="value" data-testid="drag-value"></output>
    </label>
    <div class="strip" aria-hidden="true" data-testid="drag-strip">
      <div class="cells"></div>
      <div class="rail"><span class="pointer" data-testid="drag-pointer">▲</span></div>
      <div class="ends">
        <span class="lo"></span>
        <span class="key"><span class="swatch ok"></span>intact
          <span class="swatch bad"></span>split</span>
        <span class="hi"></span>
      </div>
    </div>
  </div>
  <p class="verdict" aria-live="polite" data-testid="drag-verdict"></p>
  <p class="others" data-testid="drag-others"></p>
</div>
"""
WINDOW_HTML = """
<div class="drag" data-testid="drag-window">
  <p class="note" data-testid="drag-note"></p>
  <div class="doc" data-testid="drag-doc" tabindex="0" aria-label="Chunks around the answer"></div>
</div>
"""

CSS = f"""
.drag {{ font-family: var(--st-font, sans-serif); color: var(--st-text-color, #222); }}
.head {{
  display: grid; grid-template-columns: auto 1fr auto; column-gap: 0.75em;
  align-items: center; font-weight: 600;
}}
.label {{ display: contents; }}
.size {{ accent-color: var(--st-primary-color, {palette.OKABE_ITO["blue"]}); margin: 0; }}
.size:focus-visible {{
  outline: 3px solid {palette.OKABE_ITO["blue"]}; outline-offset: 3px; border-radius: 4px;
}}
.value {{ min-width: 6.5em; font-variant-numeric: tabular-nums; }}
/* -- why these margins -- the thumb's centre runs from half a thumb inside the track's
   left end to half a thumb inside its right end: the strip reaches as far past that
   as half a cell, so each cell's centre sits under the thumb at its size */
.strip {{
  grid-column: 2; --n: 2; --thumb: {THUMB_PX}px;
  margin-inline: calc((var(--thumb) * var(--n) - 100%) / (2 * (var(--n) - 1)));
  font-weight: 400; font-size: 0.75em; user-select: none;
}}
.cells {{ display: flex; height: 1.1em; cursor: pointer; }}
.cell {{ flex: 1; }}
/* the survival curve's step, as a row: intact at full height, split a low bar */
.cell.ok {{ background: {palette.INTACT}; }}
.cell.bad {{ background: linear-gradient(to top, {palette.SPLIT} 35%, transparent 35%); }}
.rail {{ position: relative; height: 1.3em; }}
.pointer {{
  position: absolute; top: 0; transform: translateX(-50%); line-height: 1;
  font-size: 1.3em; color: {palette.CURRENT};
}}
.ends {{ display: flex; justify-content: space-between; gap: 1em; line-height: 1.2; }}
.swatch {{
  display: inline-block; width: 0.8em; height: 0.8em; margin: 0 0.25em 0 0.5em;
  vertical-align: -0.05em;
}}
.swatch.ok {{ background: {palette.INTACT}; }}
.swatch.bad {{ background: linear-gradient(to top, {palette.SPLIT} 35%, transparent 35%); }}
.verdict {{ font-weight: 600; margin: 0.4em 0 0; }}
.verdict.ok {{ color: {palette.INTACT}; }}
.verdict.bad {{ color: {palette.SPLIT}; }}
.others {{ margin: 0.15em 0 0; font-variant-numeric: tabular-nums; }}
.others:empty {{ display: none; }}
.note {{ font-size: 0.85em; opacity: 0.75; margin: 0 0 0.25em; min-height: 1em; }}
.doc {{
  white-space: pre-wrap; overflow-y: auto; max-height: 260px; padding: 0.5em;
  border: 1px solid rgba(128, 128, 128, 0.4); border-radius: 6px; line-height: 1.6;
  font-size: 0.9em;
}}
.c0 {{ background: rgba(86, 180, 233, 0.22); }}
.c1 {{ background: rgba(230, 159, 0, 0.22); }}
.hatch {{
  background-image: repeating-linear-gradient(
    45deg, rgba(0, 0, 0, 0.28) 0 2px, transparent 2px 6px);
}}
.ans {{ text-decoration: underline 2px {palette.ANSWER}; text-underline-offset: 3px; }}
.num {{
  font-size: 0.78em; font-weight: 700; padding: 0 0.2em; margin-right: 0.1em;
  border-left: 2px solid currentColor;
}}
"""

# -- why DOM nodes, not innerHTML -- the window is the user's document: text goes in
# -- through textContent only, so nothing in it is ever read as markup
JS = """
const KEY_REST_MS = 400;
const MARKS = { true: ' ✓ intact', false: ' ✗ not intact', null: ' – not swept' };
// the two parts of one slider meet here, by the slider's key: the control's data, the
// size it shows, and the window's way to draw that size
const PARTS = (window.__chunkLabDrag = window.__chunkLabDrag || {});
const HELD_STYLE = 'chunk-lab-held';

// -- why -- while a size is held, what the page's last run drew for the app's size (the
// -- verdict banner, the pointer under a chart) would contradict it: hidden until the
// -- run for the size let go of has replaced them. They carry their size: a pointer as
// -- data-size, a block as its key's "at_size_<size>_" (ui.frame.AT_SIZE)
function stale(size) {
  return `.size-pointer:not([data-size="${size}"]), ` +
    `[class*="st-key-at_size_"]:not([class*="st-key-at_size_${size}_"])`;
}
function hold(size) {
  let style = document.getElementById(HELD_STYLE);
  if (!style) {
    style = document.createElement('style');
    style.id = HELD_STYLE;
    document.head.appendChild(style);
  }
  style.dataset.size = String(size);
  style.textContent = stale(size) + ' { visibility: hidden !important; }';
}
function releaseWhenRedrawn() {
  // the run for the size let go of replaces each stale part: then nothing is hidden
  const style = document.getElementById(HELD_STYLE);
  if (!style) return;
  clearInterval(window.__chunkLabHeldTimer);
  window.__chunkLabHeldTimer = setInterval(() => {
    if (!document.querySelector(stale(style.dataset.size))) {
      clearInterval(window.__chunkLabHeldTimer);
      style.remove();
    }
  }, 100);
}

// -- why DOM nodes, not innerHTML -- the window is the user's document: text goes in
// -- through textContent only, so nothing in it is ever read as markup
function paintDoc(doc, data, i, scroll) {
  const f = data.frames[i];
  const [a0, a1] = data.answer;
  const b = f.bounds;
  const n = b.length / 3;
  const cuts = new Set([0, data.text.length, a0, a1]);
  for (const x of b) cuts.add(x);
  const points = [...cuts].filter((x) => x >= 0 && x <= data.text.length).sort((p, q) => p - q);
  const out = document.createDocumentFragment();
  let c = 0;
  for (let k = 0; k + 1 < points.length; k++) {
    const p = points[k], q = points[k + 1];
    while (c < n && b[3 * c + 1] <= p) c++;
    const inBody = c < n && b[3 * c] <= p;
    if (inBody && b[3 * c] === p) {
      const num = document.createElement('span');
      num.className = 'num';
      num.textContent = String(f.first + c);
      out.appendChild(num);
    }
    let hatched = false;
    for (let j = 0; j < n; j++) {
      if (b[3 * j + 2] <= p && p < b[3 * j]) { hatched = true; break; }
    }
    const span = document.createElement('span');
    const cls = [];
    if (inBody) cls.push((f.first + c) % 2 ? 'c1' : 'c0');
    if (hatched) cls.push('hatch');
    if (a0 <= p && p < a1) cls.push('ans');
    span.className = cls.join(' ');
    span.textContent = data.text.slice(p, q);
    out.appendChild(span);
  }
  doc.replaceChildren(out);
  if (scroll) {
    const answer = doc.querySelector('.ans');
    if (answer) doc.scrollTop = Math.max(0, answer.offsetTop - doc.offsetTop - 80);
  }
}

function windowPart(root, data) {
  const part = (PARTS[data.group] = PARTS[data.group] || {});
  const doc = root.querySelector('.doc');
  const note = root.querySelector('.note');
  root.style.fontSize = (data.scale || 1) + 'em';
  part.data = data;
  part.paint = (i, scroll) => {
    note.textContent = data.note;
    paintDoc(doc, data, i, scroll);
  };
  if (part.build) part.build();  // new frames: the control redraws on them
}

export default function (component) {
  const { data, setTriggerValue, parentElement } = component;
  const root = parentElement.querySelector('.drag');
  if (data.part === 'window') { windowPart(root, data); return; }
  const part = (PARTS[data.group] = PARTS[data.group] || {});
  // the frames come with the window (sent again only when they change); the control
  // is sent the app's size, which a settled drag changes
  part.build = () => control(root, data, part, setTriggerValue);
  if (part.data) part.build();
}

function control(root, light, part, setTriggerValue) {
  const data = { ...part.data, ...light };
  const input = root.querySelector('.size');
  const verdict = root.querySelector('.verdict');
  const value = root.querySelector('.value');
  const others = root.querySelector('.others');
  const names = data.others || [];
  const frames = data.frames;
  root.querySelector('.label-text').textContent = data.label;
  input.setAttribute('aria-label', data.label);
  input.min = 0;
  input.max = frames.length - 1;
  input.step = 1;
  // presenter mode: every text of the component, the strip's too, grows with the page's
  root.style.fontSize = (data.scale || 1) + 'em';

  // the strip: one cell per size, intact or split as the frame says, in slider order
  const strip = root.querySelector('.strip');
  const cells = strip.querySelector('.cells');
  const pointer = strip.querySelector('.pointer');
  strip.style.setProperty('--n', String(Math.max(2, frames.length)));
  cells.replaceChildren(...frames.map((f, i) => {
    const cell = document.createElement('div');
    cell.className = 'cell ' + (f.intact ? 'ok' : 'bad');
    cell.dataset.i = String(i);
    cell.dataset.size = String(f.size);
    return cell;
  }));
  strip.querySelector('.lo').textContent = String(frames[0].size);
  strip.querySelector('.hi').textContent = frames[frames.length - 1].size + ' ' + data.unit;

  function draw(i, scroll) {
    const f = frames[i];
    pointer.style.left = ((i + 0.5) / frames.length) * 100 + '%';
    input.setAttribute('aria-valuenow', String(f.size));
    value.textContent = f.size + ' ' + data.unit;
    input.setAttribute('aria-valuetext', f.size + ' ' + data.unit + ': ' + f.verdict);
    verdict.textContent = (f.intact ? '✓ ' : '✗ ') + f.verdict;
    verdict.className = 'verdict ' + (f.intact ? 'ok' : 'bad');
    others.textContent = names
      .map((name, j) => name + MARKS[String(f.others[j])]).join(' · ');
    part.shown = i;
    if (part.paint) part.paint(i, scroll);
  }
  function held(i) { hold(frames[i].size); draw(i, false); }

  const start = Math.max(0, frames.findIndex((f) => f.size === data.value));
  if (!root.dataset.dragging) {
    input.value = String(start);
    draw(start, true);
    const style = document.getElementById(HELD_STYLE);
    // the app's size moved some other way (the curve, a link): nothing is held now
    if (style && style.dataset.size !== String(data.value)) style.remove();
  }
  // -- why properties, not addEventListener -- a rerun calls this again on the same
  // -- nodes; assigning replaces the handlers instead of stacking them
  function settle() {
    clearTimeout(root.settleTimer);
    root.settleTimer = null;
    delete root.dataset.dragging;
    delete root.dataset.keying;
    releaseWhenRedrawn();
    setTriggerValue('settled', frames[Number(input.value)].size);
  }
  input.oninput = () => { root.dataset.dragging = '1'; held(Number(input.value)); };
  // a key step redraws at once but is reported only when the keys rest: one run for a
  // run of presses, not one per press (a mouse reports when it lets go)
  input.onkeydown = () => { root.dataset.keying = '1'; clearTimeout(root.settleTimer); };
  input.onkeyup = () => {
    clearTimeout(root.settleTimer);
    if (root.dataset.dragging) root.settleTimer = setTimeout(settle, KEY_REST_MS);
  };
  input.onpointerdown = () => { delete root.dataset.keying; };
  input.onchange = () => { if (!root.dataset.keying) settle(); };
  input.onblur = () => { if (root.settleTimer) settle(); };
  // a click on the strip jumps there, as a click on the lab's survival curve does
  cells.onclick = (e) => {
    const cell = e.target.closest('.cell');
    if (!cell) return;
    input.value = cell.dataset.i;
    held(Number(cell.dataset.i));
    input.focus();
    settle();
  };
}
"""

_control = st.components.v2.component(NAME, html=CONTROL_HTML, css=CSS, js=JS)
_window = st.components.v2.component(f"{NAME}_window", html=WINDOW_HTML, css=CSS, js=JS)


def drag_slider(
    payload: dict[str, Any],
    *,
    key: str,
    label: str,
    unit: str,
    value: int,
    on_settled: Callable[[int], None],
    others: dict[str, dict[int, bool]] | None = None,
    scale: float = 1,
) -> Callable[[], None]:
    """Draw the slider's control over ``payload`` (lab.measure.drag.DragWindow.to_json)
    at size ``value``; ``on_settled(size)`` runs, as a callback, when a drag ends.
    ``others`` names more strategies, each with whether the answer is intact, by size:
    a line under the verdict says so for each (a dash at a size it did not sweep).
    ``scale``: every text of the slider this many times its ordinary size.

    Returns what draws the slider's window on the chunks around the answer, where the
    page calls it (it follows the control in the browser)."""

    def settled() -> None:
        result = st.session_state.get(key) or {}
        size = result.get(SETTLED) if hasattr(result, "get") else None
        if isinstance(size, int):
            on_settled(size)

    # -- why the frames go with the window -- they change only with the document, the
    # -- answer and the chunking; the app's size changes with every drag let go. An
    # -- element sent again unchanged goes as a reference to what the browser already
    # -- has (Streamlit's message cache): a settled drag resends only the small control
    heavy: dict[str, Any] = {**payload, "part": "window", "group": key, "scale": scale}
    if others:
        heavy["others"] = list(others)
        heavy["frames"] = [
            {**f, "others": [intact.get(f["size"]) for intact in others.values()]}
            for f in payload["frames"]
        ]
    light = {"part": "control", "group": key, "label": label, "unit": unit, "value": value}
    _control(key=key, data={**light, "scale": scale}, on_settled_change=settled)

    def window() -> None:
        _window(key=f"{key}_window", data=heavy)

    return window


def _nothing() -> None:
    """The window of a slider that is not drawn."""


def lab_drag(
    ctx: Any, sizes: Sequence[int], *, key: str, others: dict[str, Any] | None = None
) -> Callable[[], None]:
    """A lab's size control over ``sizes`` for the sidebar's settings, settling on the
    app's size (the sidebar shows no size slider of its own where this is drawn, see
    ui.present.sweeps.drags_live); a line instead when the document is too long to
    chunk at every size up front (lab.measure.drag). ``others``: survival curves over
    the same sizes, by the name to show (each strategy's verdict under the sidebar
    strategy's). Returns what draws the window on the chunks around the answer."""
    too_long = too_long_to_drag(ctx.text, ctx.strategy)
    if too_long:
        st.caption(too_long)
        return _nothing
    payload = cached.drag_payload(
        ctx.text, ctx.answer, ctx.strategy, tuple(sizes), ctx.unit, ctx.overlap
    )
    return drag_slider(
        payload,
        key=key,
        label=f"Chunk size ({ctx.unit})",
        unit=ctx.unit,
        value=ctx.size,
        on_settled=state.set_size,
        scale=frame.PRESENTER_TEXT if state.presenter() else 1,
        others={
            name: dict(zip(curve.sizes, curve.intact, strict=True))
            for name, curve in (others or {}).items()
        },
    )
