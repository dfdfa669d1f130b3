from chunkers import ChunkOptions, chunk_with, model
from tests.support import SAMPLES
from ui.present.structure import (
    APPLIED,
    HEADER_NONE,
    HEADER_OWN,
    HEADER_REPEATED,
    NEW_SECTION,
    NOT_ASKED,
    OUTCOMES,
    REFUSED_TABLE,
    REFUSED_TRANSCRIBED,
    boundaries,
    heading_inheritance,
    refusals,
    table_fragments,
)

OPTS = ChunkOptions(size=600, overlap=100, unit="chars")


def _chunks(name, opts=OPTS):
    return chunk_with((SAMPLES / f"{name}.md").read_text(), "structural", opts)


def test_table_fragments_after_the_first_repeat_the_header():
    frags = table_fragments(_chunks("compute_pricing"))
    repeated = [f for f in frags if f.header_repeated]
    assert repeated and all(f.first_line.startswith("| Instance type") for f in repeated)


def test_overlap_refuses_tables_and_transcribed_text():
    pricing = _chunks("compute_pricing")
    outcomes = {s.outcome for s in boundaries(pricing, OPTS)}
    assert APPLIED in outcomes and REFUSED_TABLE in outcomes
    manual = _chunks("inspection_manual")
    assert any(s.outcome == REFUSED_TRANSCRIBED for s in refusals(manual, OPTS))
    for s in boundaries(manual, OPTS):
        if s.outcome != APPLIED:
            assert s.overlap_chars == 0
    none = ChunkOptions(size=600, overlap=0, unit="chars")
    assert {s.outcome for s in boundaries(_chunks("compute_pricing", none), none)} <= {NOT_ASKED}


def test_transcribed_heading_is_not_inherited():
    rows = heading_inheritance(_chunks("inspection_manual"))
    nexts = [r for r in rows if not r.transcribed]
    assert nexts and all("is not inherited" in r.note for r in nexts)
    assert all("transcribed" not in r.heading_path for r in nexts)


def test_boundaries_are_what_the_packer_decided():
    # a long shell script is split between lines; a piece that opens with a
    # comment line ("# ...") is still code, not a new section
    lines = [f"# step {i}\necho 'running step {i} of the deployment script now'" for i in range(40)]
    text = "Deploy with this script.\n\n```bash\n" + "\n".join(lines) + "\n```\n"
    opts = ChunkOptions(size=300, overlap=50, unit="chars")
    chunks = chunk_with(text, "structural", opts)
    assert any(c.body.startswith("# step") for c in chunks)
    outcomes = [s.outcome for s in boundaries(chunks, opts)]
    assert NEW_SECTION not in outcomes
    assert outcomes == [OUTCOMES[c.overlap_outcome] for c in chunks[1:]]


def test_every_outcome_the_packer_records_reads_as_its_own():
    assert set(OUTCOMES) == set(model.OVERLAP_OUTCOMES)
    assert len(set(OUTCOMES.values())) == len(OUTCOMES)


def test_a_fragment_without_its_header_says_so():
    chunks = _chunks("compute_pricing")
    first = next(c for c in chunks if c.kind == "table")
    frags = table_fragments(chunks, headerless={first.index})
    assert frags[0].header == HEADER_NONE
    assert [f.header for f in table_fragments(chunks)][0] == HEADER_OWN
    assert {f.header for f in frags if f.header_repeated} == {HEADER_REPEATED}
