"""Boilerplate in Japanese and Chinese: a repeated footer of a few characters, with no
space in it, is found like an English one."""

from __future__ import annotations

from lab.measure.boilerplate import find_boilerplate

PAGES = "\n\n".join(
    f"## Page {n}\n\n{body}\n\n無断転載禁止\n\n第{n}頁"
    for n, body in enumerate(
        [
            "倉庫の入荷は午前八時から始まる。検品は二人で行う。",
            "出荷の前に重量を量り、伝票と照合する。",
            "フォークリフトの速度は時速八キロまでとする。",
            "破損した荷物は七日以内に運送会社へ報告する。",
        ],
        start=1,
    )
)


def test_a_repeated_japanese_footer_is_boilerplate():
    report = find_boilerplate({"manual.md": PAGES}, chunked={"manual.md": []})
    texts = [f.text for f in report.findings]
    assert "無断転載禁止" in texts
    [footer] = [f for f in report.findings if f.text == "無断転載禁止"]
    assert footer.units == 4
    # -- the page number line, as "Page 3 of 12" is in English
    assert "第1頁" in texts
