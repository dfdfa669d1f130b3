from pathlib import Path

from chunkers import ChunkOptions, chunk_with
from lab.structure import (
    APPLIED,
    NOT_ASKED,
    REFUSED_TABLE,
    REFUSED_TRANSCRIBED,
    heading_inheritance,
    refusals,
    seams,
    table_fragments,
)

SAMPLES = Path(__file__).resolve().parents[2] / "sample_docs"
OPTS = ChunkOptions(size=600, overlap=100, unit="chars")


def _chunks(name, opts=OPTS):
    return chunk_with((SAMPLES / f"{name}.md").read_text(), "structural", opts)


def test_table_fragments_after_the_first_repeat_the_header():
    frags = table_fragments(_chunks("compute_pricing"))
    repeated = [f for f in frags if f.header_repeated]
    assert repeated and all(f.first_line.startswith("| Instance type") for f in repeated)


def test_overlap_refuses_tables_and_transcribed_text():
    pricing = _chunks("compute_pricing")
    outcomes = {s.outcome for s in seams(pricing, OPTS)}
    assert APPLIED in outcomes and REFUSED_TABLE in outcomes
    manual = _chunks("inspection_manual")
    assert any(s.outcome == REFUSED_TRANSCRIBED for s in refusals(manual, OPTS))
    for s in seams(manual, OPTS):
        if s.outcome != APPLIED:
            assert s.overlap_chars == 0
    none = ChunkOptions(size=600, overlap=0, unit="chars")
    assert {s.outcome for s in seams(_chunks("compute_pricing", none), none)} <= {NOT_ASKED}


def test_transcribed_heading_is_not_inherited():
    rows = heading_inheritance(_chunks("inspection_manual"))
    nexts = [r for r in rows if not r.transcribed]
    assert nexts and all("is not inherited" in r.note for r in nexts)
    assert all("transcribed" not in r.heading_path for r in nexts)
