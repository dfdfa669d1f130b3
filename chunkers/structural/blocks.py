"""Parse once: sections and typed blocks, independent of size and overlap.

Chunking stays a pure function of a string: block types are
recovered from the markdown itself. The parse is reused for every size the
lab sweeps, so nothing here may depend on the packing options.

Besides CommonMark's blocks (engine.py), the parse knows what documentation sites
write around them: front matter (YAML ``---`` or TOML ``+++``, at the top; metadata,
never a heading and under none), static-site shortcodes (Hugo's ``{{< name >}}`` and
``{{% name %}}``, paired with their ``{{< /name >}}`` or single: one block kept whole,
no heading read from inside it), admonitions, content tabs, anchors and captions.

Each section knows its heading path, whether it is transcribed (under a
"(transcribed" heading, is_transcribed) and its page: a heading that opens with
"Page N", at any level (a converted PDF's pages become "## Page N" headings),
starts page N, and the sections below it are on that page until the next one
(pages.page_number, the one page rule). The packer gives each chunk the page of
its first character and of its last (pack.Run.reach_pages).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import cached_property
from itertools import chain, pairwise, repeat
from operator import sub
from typing import NamedTuple

from ..pages import page_number
from ..text import SourceText
from .engine import RawBlock, dedent, top_level_blocks

# a greedy title: a lazy (.*?) costs a regex step per character, and _heading_text
# strips the trailing blanks a greedy one keeps
_HEADING = re.compile(r" {0,3}(#{1,6})(?:[ \t]+(.*))?")
# a linearised table row (converted PDFs write them): 'Header: value' pairs joined by
# pipes; a paragraph whose every line is one (blanks around it aside) is a table
_LINEAR_ROW = r"[^|:\n]{1,40}: .+(?: \| [^|:\n]{1,40}: .+)+"
_ROW_LINE = rf"[^\S\n]*+{_LINEAR_ROW}(?<=\S)[^\S\n]*"
_LINEAR_ROWS = re.compile(rf"{_ROW_LINE}(?:\n{_ROW_LINE})*")
TRANSCRIBED_MARK = "(transcribed"


def is_transcribed(heading: str) -> bool:
    return TRANSCRIBED_MARK in heading


# -- blocks that travel with what follows them, as a heading does: a chunk never
# -- ends with one while text follows (front matter goes with the text below it,
# -- under no heading)
TITLES = ("heading", "metadata", "anchor", "tab")


# Block and Section are immutable named tuples. The parse itself keeps blocks as
# parallel tuples (ParsedDocument.kinds, starts, ...): building a tuple per block
# cost more than the rest of the parse; ParsedDocument.blocks builds them on demand.
class Block(NamedTuple):
    # heading, prose, list, code, table, html, quote, admonition, footnote, metadata, rule
    kind: str
    start: int  # offsets into the normalised text, lines without their final newline
    end: int
    section: int
    # tables: the data rows' spans, and the header + separator span through the
    # line break after the separator (None for linearised rows); lists: the
    # top-level items' spans; admonitions: the title's and each body block's
    # spans (header None)
    rows: tuple[tuple[int, int], ...] = ()
    header: tuple[int, int] | None = None


class Section(NamedTuple):
    heading: str  # "" for text before the first heading
    level: int  # effective level, after transcribed headings are demoted
    heading_path: tuple[str, ...]  # what chunks of this section carry
    transcribed: bool
    page: int | None


@dataclass(slots=True)
class _Frame:
    """A heading on the stack, with what its descendants inherit worked out once."""

    level: int  # effective level, after demotion
    source_level: int  # the level as written
    shift: int  # how far this heading and the headings written below it are demoted
    page: int | None
    path: tuple[str, ...]  # the inheritable headings down to this one
    nearest_page: int | None  # this heading's page, else the nearest one above it
    transcribed: bool  # this heading or one above it is transcribed


@dataclass(frozen=True)
class ParsedDocument:
    source: SourceText
    sections: tuple[Section, ...]
    # the blocks in text order, one field per tuple (Block's fields)
    kinds: tuple[str, ...]
    starts: tuple[int, ...]
    ends: tuple[int, ...]
    block_sections: tuple[int, ...]
    section_starts: tuple[int, ...]  # each section's first block (its heading; 0 for section 0)
    # tables by their block's start: data rows, and header (see Block); admonitions
    # by theirs: their parts
    tables: dict[int, tuple[tuple[tuple[int, int], ...], tuple[int, int] | None]]
    # lists by their block's start: the engine's item ranges and the list's end
    # (their items are worked out on first use: see parts)
    lists: dict[int, tuple[Sequence[tuple[int, int]], int]]
    # the blocks that introduce the block after them in their section (is_lead)
    leads: frozenset[int] = frozenset()
    # lazily filled splitting caches (sentence spans per block), shared by all packings
    cache: dict = field(default_factory=dict, compare=False, repr=False)

    @property
    def text(self) -> str:
        return self.source.norm

    def block(self, i: int) -> Block:
        start = self.starts[i]
        header = self.tables.get(start, ((), None))[1]
        return Block(
            self.kinds[i], start, self.ends[i], self.block_sections[i], self.parts(start), header
        )

    def parts(self, start: int) -> tuple[tuple[int, int], ...]:
        """The parts of the block at ``start``: a list's top-level items, a table's
        data rows, an admonition's title and body blocks; () for any other block.

        -- why on first use -- most lists are never cut, and trimming every item of
        -- every list was a tenth of the block pass on the corpus
        """
        found = self.lists.get(start)
        if found is None:
            return self.tables.get(start, ((), None))[0]
        key = ("list items", start)
        items = self.cache.get(key)
        if items is None:
            items = self.cache[key] = list_items(self.text, *found)
        return items

    @cached_property
    def blocks(self) -> tuple[Block, ...]:
        return tuple(map(self.block, range(len(self.kinds))))


# -- a heading path is text as a reader sees it: a link or an image shows its text,
# -- an icon shortcode (":material-download:") and an HTML tag show nothing
_LINK = re.compile(r"!?\[([^\[\]]*)\](?:\([^()]*\)|\[[^\[\]]*\])")
_ICON = re.compile(r"(?<![\w:]):[a-z][a-z0-9]*(?:-[a-z0-9]+)+:(?![\w:])")
_TAG = re.compile(r"</?[A-Za-z][\w-]*(?:\s[^<>]*)?/?>")
_SPACES = re.compile(r"\s{2,}")
_CODE_SPAN = re.compile(r"(`+).+?\1")  # shown as written: nothing inside is stripped
_HELD = re.compile(r"\x00(\d+)\x00")  # a code span, held out of the way while markup goes


def plain_title(title: str) -> str:
    """A heading's text without link targets, icon shortcodes or HTML tags."""
    if "[" not in title and ":" not in title and "<" not in title:  # the common case
        return title
    spans: list[str] = []

    def hold(m: re.Match[str]) -> str:
        spans.append(m.group())
        return f"\x00{len(spans) - 1}\x00"

    text = _TAG.sub("", _ICON.sub("", _LINK.sub(r"\1", _CODE_SPAN.sub(hold, title))))
    text = _HELD.sub(lambda m: spans[int(m.group(1))], text)
    return _SPACES.sub(" ", text).strip()


def _heading_text(raw: str | None) -> str:
    """An ATX heading's text without its closing sequence: the hashes it ends with,
    when a blank comes before them (or nothing does), and the blanks after them."""
    if not raw:
        return ""
    text = raw.rstrip(" \t")
    bare = text.rstrip("#")
    if bare != text and (not bare or bare[-1] in " \t"):
        text = bare
    return text.strip()


def parse(text: str | SourceText) -> ParsedDocument:
    """Split the text into sections (headings) and typed blocks (the engine's
    top-level blocks, see engine.py)."""
    src = text if isinstance(text, SourceText) else SourceText.of(text)
    p = _Parser(src.norm)
    p.run()
    return ParsedDocument(
        src,
        tuple(p.sections),
        tuple(p.kinds),
        tuple(p.starts),
        tuple(p.ends),
        tuple(p.block_sections()),
        tuple(p.section_starts),
        p.tables,
        p.lists,
        p.leads(),
    )


_NON_BLANK = re.compile(r"\S")
# the titled blocks, each a title line over a body of its own, by the _Parser method
# that reads it: mkdocs content tabs, '=== "Linux"' ('===! "..."' opens a new group,
# '===+ "..."' is the one selected); mkdocs / Python-Markdown admonitions, "!!! note",
# "??? example \"Title\"", "???+ tip" (both: the body is the indented text below, to
# CommonMark indented code); pymdownx blocks, "/// tip" ... "///"
_TAB = re.compile(r'={3}[!+]?[ \t]+"([^"\n]*)"')
_TITLED = re.compile(
    rf"(?P<tab>{_TAB.pattern})"
    r"|(?P<admonition>(?:!!!|\?\?\?\+?)[ \t]+[\w-])"
    r"|(?P<slash_block>/{3,}[ \t]*[\w-])"
)
# front matter at the top of the file: YAML between "---" lines (or closed by "..."),
# TOML between "+++" lines; the engine reads only some YAML (not with a blank line
# after the opening "---"), and then the closing "---" is a setext underline
_FRONT_MATTER = re.compile(
    r"(?:[ \t]*\n)*"
    r"(?:---[ \t]*\n(?:.*?\n)??(?:---|\.\.\.)|\+\+\+[ \t]*\n(?:.*?\n)??\+\+\+)"
    r"[ \t]*(?=\n|\Z)",
    re.S,
)
# a front-matter line: a key, a list item, a comment, an indented or blank line
_FRONT_LINE = re.compile(
    r"[\w\"'-][^\n]*?(?::|=)(?:[ \t][^\n]*)?|-[ \t][^\n]*|#[^\n]*|[ \t]+[^\n]*|"
)
# static-site shortcodes (Hugo's): "{{< name args >}}" or "{{% name args %}}", paired
# with "{{< /name >}}" or single ("{{< name />}}", or none closes it)
_SHORTCODE_OPEN = re.compile(
    r" {0,3}\{\{([<%])\s*(?!/)([\w./-]+)(?:[^}]|\}(?!\}))*?(/?)\s*[>%]\}\}", re.S
)


def _shortcode_close(name: str, mark: str) -> re.Pattern[str]:
    delim = re.escape(mark)
    return re.compile(rf"\{{\{{{delim}\s*/\s*{re.escape(name)}\s*[>%]\}}\}}")


_SLASH_CLOSE = re.compile(r"[ \t]*/{3,}[ \t]*")
# a heading's attribute block ("{ #first-steps }"), stripped from its title
_ATTRIBUTES = re.compile(r"[ \t]*\{[^{}]*\}[ \t]*\Z")
# a setext heading's underline
_UNDERLINE = re.compile(r"\n[ \t]*(?:=+|-+)[ \t]*\Z")
# a caption travels with the table below it only if it is a short line (a sentence
# or two: the sample report's is 203 characters)
CAPTION_MAX = 300
# an HTML table row starts on its own line
_HTML_ROW = re.compile(r"(?:^|\n)[ \t]*<tr[\s>]", re.I)
_INDENTED = re.compile(r"(?: {4}|[ \t]*\t)")
# -- what introduces the text after it, and travels with it (a chunk never ends with
# -- one): a title line (an admonition's, a tab's, a "///" block's), a lead-in ending
# -- in ":", a lone opening tag (<Listing caption="...">, <div markdown>), anchors,
# -- and a heading written inside a block (a list item's "  ### Implementation")
_TITLE_LINE = re.compile(rf"[ \t]*(?:{_TITLED.pattern})")
_INNER_HEADING = re.compile(r"[ \t]*#{1,6}(?:[ \t]|\Z)")
_LEAD_IN_END = re.compile(r"[:\uff1a][*_]*\Z")  # (\uff1a: the full-width colon of CJK text)
_LINE_END = re.compile(r"[ \t]*(?:\n|\Z)")
_DEFINITION_LABEL = re.compile(r"[ \t]*\[[^\]]+\]:")  # a link reference definition's, alone
# (on one line; an element with no content, void or written self-closing, introduces
# nothing)
_OPENING_TAG = re.compile(
    r"<(?!(?:area|base|br|col|embed|hr|img|input|link|meta|source|track|wbr)\b)"
    r"[A-Za-z][\w-]*(?:[ \t][^<>\n]*)?(?<!/)>",
    re.I,
)
# lines that only anchor or annotate what follows: HTML comments and empty anchors
# (<a id="..."></a>, <span id="..."></span>); they are no text of their own
_ANCHORS = re.compile(
    r"(?:\s*(?:<!--.*?-->|<(a|span)\s[^<>]*\b(?:id|name)\s*=[^<>]*>\s*</\1\s*>))+\s*", re.S | re.I
)


def is_lead(text: str, s: int, e: int, code: bool = False) -> bool:
    """Whether text[s:e] introduces what follows it: a title line (a heading's
    inside a block too), a lead-in ending in ":" (or a full-width "："), a lone
    opening tag (alone, or a paragraph's last line), or anchors and comments only.
    In code (``code``) a "#" line is a comment, no heading."""
    if e <= s:
        return False
    last_line = text.rfind("\n", s, e) + 1 or s
    # (each test reads its first character before a pattern: most text is none)
    if text[last_line] in "!?=/ \t" and _TITLE_LINE.match(text, last_line, e):
        return True
    if not code and text[last_line] in "# \t" and _INNER_HEADING.match(text, last_line, e):
        return True
    end = text[e - 1]
    if end in ":*_\uff1a" and (end in ":\uff1a" or _LEAD_IN_END.search(text, max(s, e - 8), e)):
        # -- not an option line such as ":docstring:", nor a definition's label; and
        # -- the colon ends its line outside any bracket: "(default:" or a label
        # -- "`url`: the URL ..." cut at its colon goes on in the same sentence
        if e < len(text) and text[e] != "\n" and _LINE_END.match(text, e) is None:
            return False
        line = text[last_line:e]
        word = max(line.rfind(" "), line.rfind("\t")) + 1
        return (
            line[word] != ":"
            and ("(" not in line or line.count("(") <= line.count(")"))
            and ("[" not in line or line.count("[") <= line.count("]"))
            and not _DEFINITION_LABEL.fullmatch(line)
        )
    if text[s] == "<" and (_OPENING_TAG.fullmatch(text, s, e) or _ANCHORS.fullmatch(text, s, e)):
        return True
    # -- a lone opening tag written as a paragraph's last line (no blank line above it:
    # -- such HTML cannot interrupt a paragraph) introduces what follows all the same
    if end != ">" or last_line == s:
        return False
    first = last_line
    while text[first] in " \t":
        first += 1
    return text[first] == "<" and bool(_OPENING_TAG.fullmatch(text, first, e))


def trim(text: str, s: int, e: int) -> tuple[int, int]:
    """The span from the start of s's line to the last non-blank character before e."""
    s = text.rfind("\n", 0, s) + 1
    while e > s and text[e - 1].isspace():  # (the engine's ranges end after a newline)
        e -= 1
    return s, e


def list_items(
    text: str, parts: Sequence[tuple[int, int]], end: int
) -> tuple[tuple[int, int], ...]:
    """A list's top-level items from the engine's ranges of them (``parts``), trimmed.

    -- each item runs to the next one's start, the last to the list's end: the
    -- engine counts link reference definitions that end an item or the list
    -- into the list but into no item, and a list cut between its items must
    -- still hold them
    """
    bounds = [a for a, _ in parts[1:]] + [end] if parts else []
    items = [trim(text, a, z) for (a, _), z in zip(parts, bounds, strict=True)]
    return tuple([span for span in items if span[1] > span[0]])


def _lines(text: str, start: int, end: int) -> list[tuple[int, int]]:
    """(start, end) of every line in text[start:end], ends excluding the newline."""
    out: list[tuple[int, int]] = []
    nl = text.find("\n", start, end)
    while nl >= 0:
        out.append((start, nl))
        start = nl + 1
        nl = text.find("\n", start, end)
    out.append((start, end))
    return out


class _Parser:
    """The engine's top-level blocks, trimmed to whole lines and typed.

    A block runs from the start of its first line to its last non-blank
    character. Text the engine reports no block for (link reference
    definitions) becomes a block of its own, so nothing is lost.
    """

    def __init__(self, text: str) -> None:
        self.text = text
        self.sections: list[Section] = [Section("", 0, (), False, None)]
        self.section_starts: list[int] = [0]  # each section's first block
        self.stack: list[_Frame] = []
        # the blocks, as parallel lists (see ParsedDocument); their sections follow
        # from section_starts, once, at the end
        self.kinds: list[str] = []
        self.starts: list[int] = []
        self.ends: list[int] = []
        self.tables: dict[int, tuple[tuple[tuple[int, int], ...], tuple[int, int] | None]] = {}
        self.lists: dict[int, tuple[Sequence[tuple[int, int]], int]] = {}
        self.tab_host: int | None = None  # the section an open group of content tabs sits in
        # the prose and HTML blocks that may introduce the block after them (leads)
        self.may_lead: list[int] = []

    def add(
        self,
        kind: str,
        s: int,
        e: int,
        rows: tuple[tuple[int, int], ...] = (),
        header: tuple[int, int] | None = None,
    ) -> None:
        if rows or header is not None:
            self.tables[s] = (rows, header)
        self.kinds.append(kind)
        self.starts.append(s)
        self.ends.append(e)

    def add_text(self, kind: str, s: int, e: int) -> None:
        """A prose or HTML block; noted for leads() when its last character (a
        colon, emphasis closing after one, a tag's end) or its first (a tag, a title's
        mark, indentation) says it may introduce the block after it: most text does not."""
        text = self.text
        if text[e - 1] in ":*_>\uff1a" or text[s] in "<!?=/ \t":
            self.may_lead.append(len(self.kinds))
        self.add(kind, s, e)

    def block_sections(self) -> list[int]:
        """Every block's section: the blocks from a section's first up to the next one's."""
        stops = self.section_starts[1:] + [len(self.kinds)]
        return list(
            chain.from_iterable(
                map(repeat, range(len(stops)), map(sub, stops, self.section_starts))
            )
        )

    def run(self) -> None:
        text = self.text
        blocks = top_level_blocks(text)
        done = self.front_matter(blocks)
        done = self.walk(blocks, done)
        self.gap(done, len(text))

    def front_matter(self, blocks: list[RawBlock]) -> int:
        """Front matter at the top, as metadata (section 0, under no heading): the
        engine's when it found it, else YAML or TOML it did not read (whose closing
        "---" it takes for a setext underline). Returns where it ends (0: none)."""
        if blocks and blocks[0].tag == "metadata":
            return 0  # (walk types it)
        m = _FRONT_MATTER.match(self.text)
        if m is None:
            return 0
        s, e = trim(self.text, m.start(), m.end())
        body = self.text[self.text.find("\n", s) + 1 : self.text.rfind("\n", s, e)]
        lines = body.split("\n") if body else []
        if not all(_FRONT_LINE.fullmatch(line) for line in lines):
            return 0  # a thematic break, text and another: no front matter
        self.add("metadata", s, e)
        return e

    def shortcode(self, s: int) -> int | None:
        """Where the static-site shortcode opening at s ends: its closing tag's line
        for a pair, its own line for a single one (None: no shortcode opens at s)."""
        text = self.text
        m = _SHORTCODE_OPEN.match(text, s)
        if m is None:
            return None
        end = m.end()
        if not m.group(3):  # (not written self-closing: look for its pair)
            close = _shortcode_close(m.group(2), m.group(1)).search(text, end)
            if close is not None:
                end = close.end()
        line_end = text.find("\n", end)
        return len(text) if line_end < 0 else line_end

    def walk(self, blocks: list[RawBlock], done: int, nested: bool = False) -> int:
        """Type the blocks (the text before ``done`` is typed already); returns where
        the last one ended. ``nested``: the blocks of a tab's body."""
        text = self.text
        i = 0
        while i < len(blocks):
            b = blocks[i]
            s, e = trim(text, b.start, b.end)
            if s < done:
                s = done
            if not text[done:s].isspace():  # (most blocks have only blank lines between)
                self.gap(done, s)
            if e <= s:
                i += 1
                continue
            if text[s] in "{ " and (code_end := self.shortcode(s)) is not None:
                # -- kept whole, whatever the engine read inside (no heading)
                e = trim(text, s, code_end)[1]
                self.add("html", s, e)
                done = max(done, e)
                i += 1
                continue
            i, e = self.block(blocks, i, s, e, nested)
            if e > done:
                done = e
        return done

    def gap(self, s: int, e: int) -> None:
        """Text between blocks that the engine reports no block for: link
        reference definitions. Kept as a block, so nothing is lost."""
        m = _NON_BLANK.search(self.text, s, e)
        if m is not None:
            self.add_text("prose", *trim(self.text, m.start(), e))

    def block(
        self, blocks: list[RawBlock], i: int, s: int, e: int, nested: bool = False
    ) -> tuple[int, int]:
        """Type block i (spanning s:e); returns the next block's index and where
        this one ended (an admonition or a tab takes in the blocks of its body).
        In a tab's body (``nested``) a heading, a title or a tab is a paragraph."""
        b, text = blocks[i], self.text
        tag = b.tag
        if nested and tag in ("heading", "paragraph"):
            self.paragraph(s, e)
            return i + 1, e
        if self.tab_host is not None and not nested and not _TAB.match(text, s):
            self.end_tabs(tag == "heading")
        if tag == "heading":
            self.heading(s, e, b.level, self.title(s, e, b.attributes))
        elif tag == "paragraph":
            # ("=!?/": what a tab's, an admonition's or a block's title opens with)
            if text[s] in "=!?/" and (titled := _TITLED.match(text, s)) is not None:
                if titled["tab"]:
                    return self.tab(blocks, i, s, e)
                if titled["admonition"]:
                    return self.admonition(blocks, i, s, e)
                return self.slash_block(blocks, i, s, e)
            self.paragraph(s, e)
        elif tag == "table":
            self.table(b, s, e)
        elif tag == "list":
            self.lists[s] = (b.parts, e)
            self.add("list", s, e)
        elif tag == "html":
            self.html(s, e)
        else:
            self.add(tag, s, e)
        return i + 1, e

    def title(self, s: int, e: int, attributes: bool) -> str:
        """A heading's text: an ATX heading's after its hashes, a setext
        heading's lines above its underline; without an attribute block."""
        text = self.text
        underline = _UNDERLINE.search(text, s, e)
        if underline is not None:
            title = " ".join(line.strip() for line in text[s : underline.start()].split("\n"))
        else:
            atx = _HEADING.match(text, s, e)
            title = _heading_text(atx.group(2) if atx else text[s:e])
        if attributes:
            title = _ATTRIBUTES.sub("", title).strip()
        return plain_title(title)

    def paragraph(self, s: int, e: int) -> None:
        """Linearised table rows, or prose."""
        text = self.text
        # (every linearised row holds " | ": most paragraphs hold none, and are not matched)
        if text.find(" | ", s, e) >= 0 and _LINEAR_ROWS.fullmatch(text, s, e):
            self.add("table", s, e, tuple(_lines(text, s, e)))
        else:
            self.add_text("prose", s, e)

    def caption(self, s: int) -> int:
        """Where a table starting at s begins once its caption is taken in: a
        one-line paragraph, short, directly above it (else s)."""
        if not self.kinds or self.kinds[-1] != "prose":
            return s
        ps, pe = self.starts[-1], self.ends[-1]
        text = self.text
        if pe - ps > CAPTION_MAX or text.find("\n", ps, pe) >= 0 or text[pe:s].count("\n") != 1:
            return s
        for column in (self.kinds, self.starts, self.ends):
            column.pop()
        return ps

    def table(self, b: RawBlock, s: int, e: int) -> None:
        """A GFM table: its head (header + separator) is repeated by every
        fragment; it is cut between its rows."""
        rows = [trim(self.text, a, z) for a, z in b.parts[1:]]
        if rows:
            rows[-1] = (rows[-1][0], e)
        header_end = rows[0][0] if rows else e
        start = self.caption(s)
        self.add("table", start, e, tuple(rows), (s, header_end))

    def html(self, s: int, e: int) -> None:
        """An HTML block; an HTML table with a row per line group is a table
        whose first row is its header (repeated like a GFM table's)."""
        text = self.text
        rows = [m.start() + (text[m.start()] == "\n") for m in _HTML_ROW.finditer(text, s, e)]
        if len(rows) < 3 or "<table" not in text[s : rows[0]].lower():
            self.add_text("html", s, e)
            return
        bounds = rows[1:] + [e + 1]
        spans = [trim(text, a, z - 1) for a, z in pairwise(bounds)]
        spans[-1] = (spans[-1][0], e)
        self.add("table", s, e, tuple(spans), (s, rows[1]))

    def indented_body(self, blocks: list[RawBlock], i: int) -> int:
        """The index of the first block past the body of the title in block i: the
        indented blocks right below it (CommonMark reads an admonition's or a
        tab's body as indented code)."""
        text = self.text
        j = i + 1
        while j < len(blocks) and blocks[j].tag == "code":
            if not _INDENTED.match(text, text.rfind("\n", 0, blocks[j].start) + 1):
                break
            j += 1
        return j

    def admonition(self, blocks: list[RawBlock], i: int, s: int, e: int) -> tuple[int, int]:
        """ "!!! note" with its indented body (the code blocks right below it)."""
        text = self.text
        j = self.indented_body(blocks, i)
        # its parts: the title line(s), then each block of its body
        parts = [(s, e)] + [
            trim(text, text.rfind("\n", 0, b.start) + 1, b.end) for b in blocks[i + 1 : j]
        ]
        e = parts[-1][1]
        self.add("admonition", s, e, tuple(parts) if len(parts) > 1 else ())
        return j, e

    def tab(self, blocks: list[RawBlock], i: int, s: int, e: int) -> tuple[int, int]:
        """'=== "Linux"' opens a content tab: a titled part of the section its group
        sits in (a section of its own, one level down, so that a chunk starting
        inside it names it); its body, the indented text below, is read as the
        blocks it holds, each typed by what it is."""
        text = self.text
        if self.tab_host is None:
            self.tab_host = len(self.sections) - 1
        host = self.sections[self.tab_host]
        match = _TAB.match(text, s)
        assert match is not None  # (block() asked)
        title = plain_title(match.group(1).strip())
        path = host.heading_path + (title,)
        self.sections.append(Section(title, host.level + 1, path, host.transcribed, host.page))
        self.section_starts.append(len(self.kinds))
        line_end = text.find("\n", s, e)
        title_end = e if line_end < 0 else line_end
        self.add("tab", s, title_end)
        j = self.indented_body(blocks, i)
        # the body: the title paragraph's own later lines, then the indented blocks
        body_start, body_end = title_end + 1, e
        if j > i + 1:
            if title_end == e:
                body_start = text.rfind("\n", 0, blocks[i + 1].start) + 1
            body_end = trim(text, body_start, blocks[j - 1].end)[1]
        if body_end > body_start:
            self.walk(self.body_blocks(body_start, body_end), body_start, nested=True)
        return j, max(title_end, body_end)

    def end_tabs(self, heading: bool) -> None:
        """A block past the last tab of a group belongs to the section the group
        sits in again (a continuation of it), unless it is a heading."""
        host = self.sections[self.tab_host]  # type: ignore[index]
        self.tab_host = None
        if not heading:
            self.sections.append(host)
            self.section_starts.append(len(self.kinds))

    def body_blocks(self, s: int, e: int) -> list[RawBlock]:
        """The blocks of the indented text s:e as the engine reads it once one level
        of indentation (four columns, or a tab) is taken off each line, in
        offsets of the whole text."""
        dedented, back = dedent(self.text, s, e, 4)
        return [
            RawBlock(
                b.tag,
                back(b.start),
                back(b.end),
                b.level,
                b.attributes,
                tuple((back(x), back(y)) for x, y in b.parts),
            )
            for b in top_level_blocks(dedented)
        ]

    def slash_block(self, blocks: list[RawBlock], i: int, s: int, e: int) -> tuple[int, int]:
        """ "/// tip" through its closing "///", whatever blocks lie between
        (not across a heading); without a closing line, a paragraph."""
        text = self.text
        for j in range(i, len(blocks)):
            b = blocks[j]
            if j > i and b.tag == "heading":
                break
            first = s if j == i else b.start
            end = trim(text, b.start, b.end)[1]
            last_line = text.rfind("\n", first, end) + 1
            if last_line == 0 and j == i:
                continue  # the opening line alone
            if _SLASH_CLOSE.fullmatch(text, max(last_line, first), end):
                # its parts: each block between the opening and the closing line
                parts = [(s, e)] + [trim(text, x.start, x.end) for x in blocks[i + 1 : j + 1]]
                self.add("admonition", s, end, tuple(parts) if len(parts) > 1 else ())
                return j + 1, end
        self.paragraph(s, e)
        return i + 1, e

    def leads(self) -> frozenset[int]:
        """The paragraphs and HTML blocks that introduce the block after them in
        their section, or the content tab after them (is_lead): a lead-in ending
        in ":", a lone opening tag, anchors; each travels with that block."""
        text, kinds, starts, ends = self.text, self.kinds, self.starts, self.ends
        section_starts = set(self.section_starts)
        last = len(kinds) - 1
        # (a candidate retyped since, an anchor or the table its caption joined, is none)
        return frozenset(
            j
            for j in self.may_lead
            if j < last
            and kinds[j] in ("prose", "html")
            and (j + 1 not in section_starts or kinds[j + 1] == "tab")
            and is_lead(text, starts[j], ends[j])
        )

    def heading(self, s: int, e: int, level: int, title: str) -> None:
        """A heading of ``level`` on the lines s:e, titled ``title`` (see title())."""
        page = page_number(title)
        transcribed = is_transcribed(title)
        stack = self.stack
        source_level = level
        # -- a heading written below a demoted heading moves down with it, so it
        # -- stays its descendant: a demotion never turns a transcribed heading's
        # -- child into its sibling (and so into trusted text)
        shift = 0
        for frame in reversed(stack):
            if frame.source_level < source_level:  # the nearest heading written above it
                shift = frame.shift
                break
        level += shift
        if transcribed and page is None:
            # max(page anchor level + 1, guessed level): a transcribed heading never
            # displaces the page anchor above it
            anchor = next((f for f in reversed(stack) if f.page is not None), None)
            if anchor is not None and anchor.level + 1 > level:
                shift += anchor.level + 1 - level
                level = anchor.level + 1
        while stack and stack[-1].level >= level:
            stack.pop()
        if stack:
            parent = stack[-1]
            inherited, under_transcribed = parent.path, transcribed or parent.transcribed
            nearest_page = parent.nearest_page if page is None else page
        else:
            inherited, under_transcribed, nearest_page = (), transcribed, page
        path = inherited + (title,)
        # a transcribed heading labels its own section and is never inherited
        stack.append(
            _Frame(
                level,
                source_level,
                shift,
                page,
                inherited if transcribed else path,
                nearest_page,
                under_transcribed,
            )
        )
        sections = self.sections
        sections.append(Section(title, level, path, under_transcribed, nearest_page))
        self.section_starts.append(self.anchors_above())
        self.add("heading", s, e)

    def anchors_above(self) -> int:
        """Where the heading about to be added starts its section: at the anchors and
        comments right above it, which travel with it (they are typed "anchor")."""
        kinds, starts, ends, text = self.kinds, self.starts, self.ends, self.text
        # never past the section before's own heading, nor into front matter
        low = self.section_starts[-1] + (len(self.section_starts) > 1)
        k = len(kinds)
        while (
            k > low
            and kinds[k - 1] in ("html", "prose")
            and text[starts[k - 1]] == "<"
            and _ANCHORS.fullmatch(text, starts[k - 1], ends[k - 1])
        ):
            k -= 1
            kinds[k] = "anchor"
        return k
