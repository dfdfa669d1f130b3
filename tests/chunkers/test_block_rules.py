"""Block recognition on the markdown users bring: each rule with an example that
fails without it (chunk(text, "structural", 1800, 150) unless a size is given)."""

from __future__ import annotations

from chunkers import chunk
from chunkers.structural.blocks import parse
from tests.support import lost_characters

PROSE = "The service answers every request within the agreed time. " * 8


def s(text: str, size: int = 1800, overlap: int = 150):
    return chunk(text, "structural", size, overlap)


def test_a_setext_heading_is_a_heading() -> None:
    text = f"Installation\n------------\n\n{PROSE}\n\nUsage\n=====\n\n{PROSE}"
    chunks = s(text, 400, 0)
    assert chunks[0].heading_path == ("Installation",)
    assert chunks[-1].heading_path == ("Usage",)
    assert not any(c.body.rstrip().endswith("Usage\n=====") for c in chunks)


def test_a_setext_heading_keeps_the_hashes_it_ends_with() -> None:
    # (only an ATX heading has a closing sequence: "C ##" over "===" reads "C ##")
    text = f"C ##\n====\n\n{PROSE}\n\n## Closed ##\n\n{PROSE}"
    paths = [c.heading_path for c in s(text, 400, 0)]
    assert (paths[0], paths[-1]) == (("C ##",), ("C ##", "Closed"))


def test_front_matter_is_metadata_under_no_heading() -> None:
    text = f"---\ntitle: Guide\n# not a heading\n---\n\n# Guide\n\n{PROSE}"
    doc = parse(text)
    assert [sec.heading for sec in doc.sections[1:]] == ["Guide"]
    assert doc.kinds[0] == "metadata"
    # -- the chunk that opens with it carries no path: front matter is under no heading
    assert s(text)[0].heading_path == ()
    assert [c.heading_path for c in s(text, 400, 0)][-1] == ("Guide",)


def test_front_matter_the_engine_does_not_read_is_metadata_not_a_setext_heading() -> None:
    # -- a blank line after the opening "---": the engine reads a rule, then the
    # -- closing "---" as a setext underline of "title: Guide"
    yaml = f"---\n\ntitle: Guide\nweight: 2\n---\n\n{PROSE}\n\n## Later\n\n{PROSE}"
    toml = f"+++\ntitle = 'Guide'\n+++\n\n{PROSE}\n\n## Later\n\n{PROSE}"
    for text in (yaml, toml):
        doc = parse(text)
        assert doc.kinds[0] == "metadata"
        assert [sec.heading for sec in doc.sections[1:]] == ["Later"]
        assert [c.heading_path for c in s(text, 400, 0)][0] == ()
        assert not lost_characters(text, s(text, 400, 0))


def test_a_thematic_break_and_text_are_no_front_matter() -> None:
    text = f"---\n\n{PROSE}\n\n---\n\n{PROSE}"
    assert parse(text).kinds[:3] == ("rule", "prose", "rule")


CODE_FROM_INLINE = (
    '{{< codeFromInline lang="yaml" >}}\n'
    "featureGates:\n"
    "  # not all feature gates are tested, however\n"
    "  # Networking\n"
    "  ## IP Family\n"
    "  IPv6DualStack: true\n"
    "{{< /codeFromInline >}}"
)


def test_a_paired_shortcode_is_one_block_and_no_heading_is_read_inside_it() -> None:
    text = f"# Feature gates\n\n{PROSE}\n\n{CODE_FROM_INLINE}\n\n## After\n\n{PROSE}"
    doc = parse(text)
    assert [sec.heading for sec in doc.sections[1:]] == ["Feature gates", "After"]
    (block,) = [b for b in doc.blocks if doc.text[b.start : b.end].startswith("{{<")]
    assert doc.text[block.start : block.end] == CODE_FROM_INLINE
    paths = {c.heading_path for c in s(text, 300, 0)}
    assert paths == {("Feature gates",), ("Feature gates", "After")}
    (holder,) = [c for c in s(text, 300, 0) if "codeFromInline" in c.body]
    assert CODE_FROM_INLINE in holder.body  # kept whole


def test_percent_shortcodes_and_single_shortcodes_are_blocks_too() -> None:
    notice = (
        "{{% notice tip %}}\n# Not a heading\nRestart the node after the change.\n{{% /notice %}}"
    )
    figure = '{{< figure src="/images/arch.png" title="Architecture" >}}'
    text = f"# Setup\n\n{figure}\n\n{PROSE}\n\n{notice}\n\n{PROSE}"
    doc = parse(text)
    assert [sec.heading for sec in doc.sections[1:]] == ["Setup"]
    held = [doc.text[b.start : b.end] for b in doc.blocks if doc.kinds[0] and b.kind == "html"]
    assert held == [figure, notice]


def test_headings_inside_comments_and_pre_blocks_are_not_sections() -> None:
    text = f"# Real\n\n<!--\n# Old heading\n-->\n\n<pre>\n# shell prompt\n</pre>\n\n{PROSE}"
    assert [sec.heading for sec in parse(text).sections[1:]] == ["Real"]


def test_heading_attributes_are_stripped_from_the_path() -> None:
    text = f"# First Steps {{ #first-steps }}\n\n## Run it {{ #run .cli }}\n\n{PROSE}"
    assert s(text)[0].heading_path == ("First Steps", "Run it")


def test_a_long_line_is_not_a_table_caption() -> None:
    long_line = "A very long introduction that goes on and on about the data. " * 20
    rows = "".join(f"| item {i} | value {i} | note about row {i} |\n" for i in range(60))
    text = f"{long_line.strip()}\n| a | b | c |\n|---|---|---|\n{rows}"
    chunks = s(text)
    assert max(c.length for c in chunks) <= 2249
    assert chunks[0].kind == "prose" and chunks[1].kind == "table"


def test_a_short_line_above_a_table_is_its_caption() -> None:
    text = f"{PROSE}\n\nTable 1: Revenue.\n| a | b |\n|---|---|\n| 1 | 2 |\n"
    assert parse(text).kinds == ("prose", "table")


def test_an_html_block_is_never_cut_when_it_fits() -> None:
    # a <div> interrupts the paragraph above it: two blocks, though no blank line parts them
    divs = "".join(
        f'  <div class="card">\n    <p>Card {i}. Text.</p>\n  </div>\n' for i in range(30)
    )
    html = f'<div class="cards">\n{divs}</div>'
    text = f"{PROSE}\n{html}\n\n{PROSE}"
    assert len(html) < 1800 < len(PROSE) + len(html)
    assert any(html in c.body for c in s(text, 1800, 150))


def test_an_admonition_keeps_its_indented_body() -> None:
    body = "    The body of the note, indented under it. " * 6
    for opener in ("!!! note", '??? example "Try it"', "???+ tip"):
        text = f"{PROSE * 5}\n\n{opener}\n\n{body}\n\n    More body.\n\n{PROSE}"
        doc = parse(text)
        assert "admonition" in doc.kinds
        (block,) = [b for b in doc.blocks if b.kind == "admonition"]
        assert text[block.start : block.end].endswith("More body.")


def test_a_slash_block_runs_to_its_closing_line() -> None:
    text = f"{PROSE}\n\n/// tip\n\nFirst part.\n\nSecond part.\n\n///\n\n{PROSE}"
    (block,) = [b for b in parse(text).blocks if b.kind == "admonition"]
    assert text[block.start : block.end] == "/// tip\n\nFirst part.\n\nSecond part.\n\n///"


def test_an_oversized_code_block_splits_at_blank_lines_first() -> None:
    objects = ",\n\n".join(
        "{\n" + "".join(f'  "key{i}_{j}": "value",\n' for j in range(8)) + '  "end": 1\n}'
        for i in range(4)
    )
    text = f"```json\n[\n{objects}\n]\n```\n"
    chunks = s(text, 400, 0)
    assert len(chunks) > 1
    for c in chunks[:-1]:
        assert c.body.rstrip().endswith(("},", "}", "[")), c.body[-40:]


def test_a_nested_list_splits_between_top_level_items() -> None:
    items = "".join(
        f"- Parent item {i} with some words\n  - child {i}a with words\n  - child {i}b\n"
        for i in range(20)
    )
    chunks = s(items, 200, 0)
    assert len(chunks) > 1
    for c in chunks[1:]:
        assert c.body.startswith("- Parent"), c.body[:30]


def test_indented_code_is_code() -> None:
    text = f"{PROSE}\n\n    def f():\n        return 1\n\n{PROSE}"
    assert parse(text).kinds == ("prose", "code", "prose")


def test_an_html_table_splits_between_rows_and_repeats_its_header() -> None:
    rows = "".join(f"<tr>\n<td>row {i}</td><td>{i * 7}</td>\n</tr>\n" for i in range(80))
    text = f"<table>\n<tr>\n<th>name</th><th>value</th>\n</tr>\n{rows}</table>\n"
    chunks = s(text, 500, 0)
    assert len(chunks) > 1 and all(c.kind == "table" for c in chunks)
    for c in chunks[1:]:
        assert c.header_repeated and "<th>name</th>" in c.body
        assert c.body.count("<tr>") == c.body.count("</tr>")
    assert chunks[-1].body.rstrip().endswith("</table>")


def test_overlap_carries_words_never_a_lone_tag() -> None:
    tag = '<img src="' + "a" * 76 + '.png">'  # an image on its own, after the prose
    text = f"{PROSE * 2}\n\n{tag}\n\n{PROSE * 2}"
    chunks = s(text, 1000, 100)
    assert len(chunks) > 1 and chunks[0].body.endswith(tag)
    assert chunks[1].overlap_prefix == ""  # the tail holds no word: no overlap


def test_a_link_reference_definition_is_kept() -> None:
    # the engine reports no block for it: between two chunks it would be in neither
    text = f"{PROSE}\n\n[docs]: https://example.com/docs\n\n{PROSE}"
    chunks = s(text, 500, 0)
    assert len(chunks) > 1
    assert lost_characters(text, chunks) == []


def test_link_reference_definitions_that_end_a_list_are_kept() -> None:
    # the engine counts definitions that end a list (or one of its items) into the
    # list, past its last item: a list cut between its items must still hold them
    items = "".join(f"- [Topic {i}](t{i}.md) - what topic {i} covers.\n\n" for i in range(6))
    links = "".join(f"[{name}]: https://example.com/{name}\n" for name in ("rust", "std", "home"))
    nested = "- Set it up:\n\n    The body of the item.\n\n  [setup]: setup.md\n  [more]: more.md\n"
    for text in (items + links, items + nested):
        for size in (120, 200):
            chunks = s(text, size, 20)
            assert len(chunks) > 1
            assert lost_characters(text, chunks) == [], (size, text[-60:])


def test_a_heading_path_is_the_text_a_reader_sees() -> None:
    # link text without its URL, no icon shortcode, no HTML tag (code spans stay)
    text = (
        "# [Awesome Python](https://awesome-python.com/)\n\n"
        "## Install :material-download: uv\n\n"
        "### `uv run` <small>new</small> { #uv-run }\n\n"
        f"{PROSE}"
    )
    assert s(text)[0].heading_path == ("Awesome Python", "Install uv", "`uv run` new")
    assert [sec.heading for sec in parse("## [`Field()`][pydantic.Field] function").sections] == [
        "",
        "`Field()` function",
    ]


def test_a_quote_splits_between_its_paragraphs() -> None:
    # a bare ">" line parts two paragraphs inside one quote: the cut falls there
    text = (
        "> Backups run every night at two and keep thirty days of snapshots in the\n"
        "> regional bucket, so a restore never needs the primary site to be up.\n"
        ">\n"
        "> Retention is enforced by the bucket policy itself, and removing data is\n"
        "> possible only through the documented deletion request with two approvals.\n"
    )
    chunks = s(text, 250, 20)
    assert len(chunks) == 2
    assert all(c.body.rstrip("> \n").endswith(".") for c in chunks), [c.body for c in chunks]
    assert chunks[1].body.lstrip("> \n").startswith("Retention")


def test_an_oversized_admonition_keeps_its_title_with_its_body() -> None:
    def paragraph(subject: str) -> str:
        return (f"{subject} widgets render one value each and update it live on the page. " * 4)[
            :250
        ].strip()

    a, b, c = paragraph("Alpha"), paragraph("Beta"), paragraph("Gamma")
    text = f'# Widgets\n\n{a}\n\n!!! info "The smallest widget"\n\n    {b}\n\n    {c}\n'
    chunks = s(text, 400, 40)
    assert not any(c.body.rstrip().endswith('"The smallest widget"') for c in chunks)
    titled = next(c for c in chunks if "!!! info" in c.body)
    assert b in titled.body
    assert lost_characters(text, chunks) == []
    # every paragraph is in exactly one chunk
    assert [sum(p in c.body for c in chunks) for p in (a, b, c)] == [1, 1, 1]


def test_a_fence_in_a_large_list_item_is_never_cut() -> None:
    intro = (
        "- Run the example from the project root, so that the tool finds its settings file,"
        " its lock file and all of the sources that it needs in order to build and check the"
        " program before it runs it for you:"
    )
    fence = "  ```console\n  $ uv sync\n  $ uv run example\n  ```"
    after = "  The command prints the result and exits with status zero when all went well."
    text = f"{intro}\n\n{fence}\n\n{after}\n"
    assert len(f"{intro}\n\n{fence}") > 250
    chunks = s(text, 250, 30)
    assert len(chunks) > 1
    for c in chunks:
        assert c.body.count("```") in (0, 2), c.body  # the fence is whole, in one chunk
        assert "$ uv" not in c.overlap_prefix and "```" not in c.overlap_prefix


TABS = """## Install

Pick the tab for your system and run the commands it shows in a terminal window:

=== "Linux"

    Install the package with the system package manager, then check the version.

    ```bash
    sudo apt-get install widget
    widget --version
    ```

=== "Windows"

    Install the package with winget from an elevated prompt, then check the version.

    ```powershell
    winget install widget
    widget --version
    ```

Both commands print the version that was installed.
"""


def test_a_content_tab_is_a_titled_part_of_its_section() -> None:
    doc = parse(TABS)
    assert [sec.heading_path for sec in doc.sections[1:]] == [
        ("Install",),
        ("Install", "Linux"),
        ("Install", "Windows"),
        ("Install",),  # what follows the tabs is the section's again
    ]
    # a tab's body is typed by what it holds, not as indented code
    assert "prose" in doc.kinds[3:] and doc.kinds.count("code") == 2
    chunks = s(TABS, 400, 40)
    assert not any(c.body.rstrip().endswith(('=== "Windows"', "window:")) for c in chunks)
    for c in chunks:
        if "winget" in c.body:
            assert "Windows" in c.body or "Windows" in c.heading_path
            assert c.kind != "code" or c.body.lstrip().startswith("```")
    assert lost_characters(TABS, chunks) == []


def test_a_lead_in_ends_with_a_word_and_a_colon() -> None:
    # a directive's option line (":docstring:") introduces nothing
    directives = "::: httpx.ConnectError\n    :docstring:\n\n::: httpx.ReadError\n    :docstring:"
    assert parse(directives).leads == frozenset()
    assert parse("Run the server with:\n\n```\nuvicorn main:app\n```").leads == {0}
