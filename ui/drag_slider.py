"""The drag slider of the labs that sweep chunk size (1, 2 and 3): a Streamlit
component (components v2, inline HTML/CSS/JS, no build step) that redraws the verdict
and the chunks around the answer at every step of a drag or of an arrow key, in the
browser, from frames computed once (lab.measure.drag); only the size it settles on
goes back to Python, which moves the app's size there."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import streamlit as st

from lab.measure.drag import too_long_to_drag
from ui import cached, palette, state

NAME = "chunk_lab.drag_slider"
SETTLED = "settled"  # the trigger the component fires when a drag or a key press ends

HTML = """
<div class="drag" data-testid="drag-slider">
  <label class="label"><span class="label-text"></span>
    <input type="range" class="size" data-testid="drag-size">
    <output class="value" data-testid="drag-value"></output>
  </label>
  <p class="verdict" aria-live="polite" data-testid="drag-verdict"></p>
  <p class="others" data-testid="drag-others"></p>
  <p class="note" data-testid="drag-note"></p>
  <div class="doc" data-testid="drag-doc" tabindex="0" aria-label="Chunks around the answer"></div>
</div>
"""

CSS = f"""
.drag {{ font-family: var(--st-font, sans-serif); color: var(--st-text-color, #222); }}
.label {{ display: flex; gap: 0.75rem; align-items: center; font-weight: 600; }}
.size {{ flex: 1; accent-color: var(--st-primary-color, {palette.OKABE_ITO["blue"]}); }}
.size:focus-visible {{
  outline: 3px solid {palette.OKABE_ITO["blue"]}; outline-offset: 3px; border-radius: 4px;
}}
.value {{ min-width: 6.5em; font-variant-numeric: tabular-nums; }}
.verdict {{ font-weight: 600; margin: 0.5rem 0 0.25rem; }}
.verdict.ok {{ color: {palette.INTACT}; }}
.verdict.bad {{ color: {palette.SPLIT}; }}
.others {{ margin: 0 0 0.25rem; font-variant-numeric: tabular-nums; }}
.others:empty {{ display: none; }}
.note {{ font-size: 0.85rem; opacity: 0.75; margin: 0 0 0.25rem; min-height: 1em; }}
.doc {{
  white-space: pre-wrap; overflow-y: auto; max-height: 260px; padding: 0.5rem;
  border: 1px solid rgba(128, 128, 128, 0.4); border-radius: 6px; line-height: 1.6;
  font-size: 0.9rem;
}}
.c0 {{ background: rgba(86, 180, 233, 0.22); }}
.c1 {{ background: rgba(230, 159, 0, 0.22); }}
.hatch {{
  background-image: repeating-linear-gradient(
    45deg, rgba(0, 0, 0, 0.28) 0 2px, transparent 2px 6px);
}}
.ans {{ text-decoration: underline 2px {palette.ANSWER}; text-underline-offset: 3px; }}
.num {{
  font-size: 0.7rem; font-weight: 700; padding: 0 0.2rem; margin-right: 0.1rem;
  border-left: 2px solid currentColor;
}}
"""

# -- why DOM nodes, not innerHTML -- the window is the user's document: text goes in
# -- through textContent only, so nothing in it is ever read as markup
JS = """
const KEY_REST_MS = 400;
const MARKS = { true: ' ✓ intact', false: ' ✗ not intact', null: ' – not swept' };

export default function (component) {
  const { data, setTriggerValue, parentElement } = component;
  const root = parentElement.querySelector('.drag');
  const input = root.querySelector('.size');
  const verdict = root.querySelector('.verdict');
  const value = root.querySelector('.value');
  const note = root.querySelector('.note');
  const others = root.querySelector('.others');
  const names = data.others || [];
  const doc = root.querySelector('.doc');
  const frames = data.frames;
  root.querySelector('.label-text').textContent = data.label;
  input.setAttribute('aria-label', data.label);
  input.min = 0;
  input.max = frames.length - 1;
  input.step = 1;
  note.textContent = data.note;
  const [a0, a1] = data.answer;

  function draw(i) {
    const f = frames[i];
    input.setAttribute('aria-valuenow', String(f.size));
    value.textContent = f.size + ' ' + data.unit;
    input.setAttribute('aria-valuetext', f.size + ' ' + data.unit + ': ' + f.verdict);
    verdict.textContent = (f.intact ? '✓ ' : '✗ ') + f.verdict;
    verdict.className = 'verdict ' + (f.intact ? 'ok' : 'bad');
    others.textContent = names
      .map((name, j) => name + MARKS[String(f.others[j])]).join(' · ');
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
  }

  const start = Math.max(0, frames.findIndex((f) => f.size === data.value));
  if (!root.dataset.dragging) {
    input.value = String(start);
    draw(start);
    const answer = doc.querySelector('.ans');
    if (answer) doc.scrollTop = Math.max(0, answer.offsetTop - doc.offsetTop - 80);
  }
  // -- why properties, not addEventListener -- a rerun calls this again on the same
  // -- nodes; assigning replaces the handlers instead of stacking them
  function settle() {
    clearTimeout(root.settleTimer);
    root.settleTimer = null;
    delete root.dataset.dragging;
    delete root.dataset.keying;
    setTriggerValue('settled', frames[Number(input.value)].size);
  }
  input.oninput = () => { root.dataset.dragging = '1'; draw(Number(input.value)); };
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
}
"""

_component = st.components.v2.component(NAME, html=HTML, css=CSS, js=JS)


def drag_slider(
    payload: dict[str, Any],
    *,
    key: str,
    label: str,
    unit: str,
    value: int,
    on_settled: Callable[[int], None],
    others: dict[str, dict[int, bool]] | None = None,
) -> None:
    """Draw the slider over ``payload`` (lab.measure.drag.DragWindow.to_json) at size
    ``value``; ``on_settled(size)`` runs, as a callback, when a drag ends elsewhere.
    ``others`` names more strategies, each with whether the answer is intact, by size:
    a line under the verdict says so for each (a dash at a size it did not sweep)."""

    def settled() -> None:
        result = st.session_state.get(key) or {}
        size = result.get(SETTLED) if hasattr(result, "get") else None
        if isinstance(size, int):
            on_settled(size)

    data = {**payload, "label": label, "unit": unit, "value": value}
    if others:
        data["others"] = list(others)
        data["frames"] = [
            {**f, "others": [intact.get(f["size"]) for intact in others.values()]}
            for f in payload["frames"]
        ]
    _component(key=key, data=data, on_settled_change=settled)


def lab_drag(ctx: Any, sizes: Sequence[int], *, key: str, others: dict[str, Any] | None = None):
    """A lab's drag slider over ``sizes`` for the sidebar's settings, settling on the
    app's size; a line instead when the document is too long to chunk at every size
    up front (lab.measure.drag). ``others``: survival curves over the same sizes, by
    the name to show (each strategy's verdict under the sidebar strategy's)."""
    too_long = too_long_to_drag(ctx.text, ctx.strategy)
    if too_long:
        st.caption(too_long)
        return
    payload = cached.drag_payload(
        ctx.text, ctx.answer, ctx.strategy, tuple(sizes), ctx.unit, ctx.overlap
    )
    drag_slider(
        payload,
        key=key,
        label=f"Drag to redraw: size in {ctx.unit}",
        unit=ctx.unit,
        value=ctx.size,
        on_settled=state.set_size,
        others={
            name: dict(zip(curve.sizes, curve.intact, strict=True))
            for name, curve in (others or {}).items()
        },
    )
