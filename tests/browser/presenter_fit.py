"""What "fits a projector" means, measured in the page: the checks every lab's
lesson must pass in presenter mode at 1280x720 (tests/browser/test_teacher.py).

The lesson is everything on the page under the top bar except the chunk view
(the shaded document and its cards, which scroll in boxes of their own) and the
pin and export controls under it."""

from __future__ import annotations

PRESENTER_TEXT_PX = 24  # body text in presenter mode (1.5 x 16 px)
PRESENTER_CHART_PX = 18  # chart text in presenter mode (1.5 x 12 px)

# Returns one line per problem: a box that scrolls sideways, anything past the
# page's right edge, text under the presenter size, chart text cut by its chart's
# edge or shortened with an ellipsis, a slider's value drawn over its track, and
# any table drawn on a canvas (its text cannot grow with the page's).
FIT_PROBLEMS = """([textPx, chartPx]) => {
  const root = document.querySelector('[data-testid="stMainBlockContainer"]');
  // the chunk view, the switch, icons and what is hidden from sight but not from
  // screen readers (a slider's range input, clipped to nothing)
  const outside = el => el.closest('.st-key-chunk_view, .st-key-presenter_switch, '
    + '[data-testid="stIconMaterial"], [style*="clip"]');
  const shown = el => { const r = el.getBoundingClientRect();
                        return r.width > 0 && r.height > 0; };
  const name = el => {
    const box = el.closest('[data-testid]');
    const text = (el.textContent || '').trim().slice(0, 40);
    return `${box ? box.dataset.testid : el.tagName} "${text}"`;
  };
  const problems = [];
  // the right edge of the page's content (inside its padding)
  const edge = root.getBoundingClientRect().right - parseFloat(getComputedStyle(root).paddingRight);
  for (const el of root.querySelectorAll('*')) {
    if (outside(el) || !shown(el)) continue;
    const style = getComputedStyle(el);
    if (['auto', 'scroll'].includes(style.overflowX) && el.scrollWidth > el.clientWidth + 1)
      problems.push(`scrolls sideways (${el.scrollWidth} px in ${el.clientWidth}): ${name(el)}`);
    if (el.getBoundingClientRect().right > edge + 1)
      problems.push(`past the page's right edge: ${name(el)}`);
    if (el.matches('[data-testid="stDataFrame"]'))
      problems.push(`a table drawn on a canvas: ${name(el)}`);
  }
  const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
  const seen = new Set();
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    const el = node.parentElement;
    if (!node.textContent.trim() || seen.has(el) || outside(el) || !shown(el)) continue;
    seen.add(el);
    const inChart = el.closest('svg') !== null;
    const px = parseFloat(getComputedStyle(el).fontSize);
    const least = inChart ? chartPx : textPx;
    if (px < least - 0.01) problems.push(`text ${px} px (under ${least}): ${name(el)}`);
    if (inChart) {
      const chart = el.closest('.js-plotly-plot, [data-testid="stVegaLiteChart"]');
      const c = chart.getBoundingClientRect(), r = el.getBoundingClientRect();
      if (r.left < c.left - 1 || r.right > c.right + 1
          || r.top < c.top - 1 || r.bottom > c.bottom + 1)
        problems.push(`chart text cut by its chart's edge: ${name(el)}`);
      if (node.textContent.includes('…')) problems.push(`chart text shortened: ${name(el)}`);
    }
  }
  for (const input of root.querySelectorAll('input:not([type=range]), textarea')) {
    if (outside(input) || !shown(input)) continue;
    const px = parseFloat(getComputedStyle(input).fontSize);
    if (px < textPx - 0.01) problems.push(`input text ${px} px (under ${textPx}): ${name(input)}`);
  }
  for (const slider of root.querySelectorAll('[data-testid="stSlider"]')) {
    if (outside(slider) || !shown(slider)) continue;
    const value = slider.querySelector('[data-testid="stSliderThumbValue"]');
    const track = value && value.closest('[data-orientation]').firstElementChild;
    if (track && value.getBoundingClientRect().bottom > track.getBoundingClientRect().top + 1)
      problems.push(`slider value over its track: ${name(slider)}`);
  }
  return problems;
}"""


def fit_problems(page) -> list[str]:
    return page.evaluate(FIT_PROBLEMS, [PRESENTER_TEXT_PX, PRESENTER_CHART_PX])
