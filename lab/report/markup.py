"""Text shown as written inside Markdown: the one escaper for every Markdown the
project writes (the app's messages, the notebook export, the diff report and
the CLI's Markdown tables).

Streamlit renders the body of st.markdown, st.caption, st.warning, st.error and
button labels as Markdown (CommonMark, GitHub tables and strikethrough,
``$math$`` and ``:red[colour]`` directives), and a notebook's Markdown export is
read by any Markdown renderer. Text that came from a user (a file name, a
pasted answer, a note, an imported notebook, a link's value) goes through
``md_escape`` first, so it is shown as typed and can never become a link, an
image, an HTML tag, a table, a heading or a coloured span.

HTML for st.html is escaped with ``html.escape`` instead (ui.present.chunkview).
"""

from __future__ import annotations

import re

# Backslash-escapable ASCII punctuation (CommonMark 2.4) that can start markup
# anywhere in a line: emphasis, code, links and images, math, strikethrough,
# table cells. "<", ">" and "&" become entities instead, so the Markdown source
# never holds a tag ("&lt;script&gt;"), the same form as the escaped HTML.
_INLINE = re.compile(r"([\\`*\[\]$~|])")
_ENTITIES = str.maketrans({"&": "&amp;", "<": "&lt;", ">": "&gt;"})
# "_" only opens or closes emphasis at a word edge; inside a word
# (platform_data) it is plain text and stays unescaped, so names read as written.
_UNDERSCORE = re.compile(r"(?<!\w)_|_(?!\w)")
# What starts a block at the beginning of a line: headings, list items, setext
# underlines and thematic breaks, ordered list items (a block quote's ">" is an
# entity by then).
_LINE_START = re.compile(r"^([ \t]*)([#+=-]|\d+(?=[.)]))")
_BREAKS = re.compile(r"\r\n|\r|\n")


def _line(text: str, line_start: bool = True) -> str:
    out = _INLINE.sub(r"\\\1", text).translate(_ENTITIES)
    out = _UNDERSCORE.sub(r"\\_", out)
    m = _LINE_START.match(out) if line_start else None
    if m:
        lead, marker = m.group(1), m.group(2)
        if marker.isdigit():  # "1." / "1)": escape the delimiter after the number
            rest = out[m.end() :]
            out = f"{lead}{marker}\\{rest}"
        else:
            out = f"{lead}\\{marker}{out[m.end() :]}"
    return out.lstrip(" \t") if len(out) - len(out.lstrip(" \t")) >= 4 else out


def md_escape(text: object, *, inline: bool = True, line_start: bool = True) -> str:
    """``text`` as Markdown that renders exactly as the text reads.

    ``inline`` (for a message, a title, a table cell) turns line breaks into
    spaces; otherwise each line is escaped on its own and the breaks are kept,
    for a multi-line note. Leading indentation of four or more (an indented
    code block) is dropped. ``line_start=False`` is for text that never starts a
    line (a table cell after its "| "): a leading "1." or "-" stays as written.
    """
    s = str(text)
    if inline:
        return _line(_BREAKS.sub(" ", s), line_start)
    return "\n".join(_line(line) for line in _BREAKS.split(s))
