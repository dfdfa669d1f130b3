"""lab.measure.drag: the frames a dragged size slider draws equal what the CLI says."""

from __future__ import annotations

import json

from lab.measure.drag import drag_frames
from lab.text import collapse
from tests.support import AUDIT, SAMPLES
from tests.support import run_cli as run

PLATFORM = SAMPLES / "platform_data.md"
SIZES = range(17, 31)


def _cli_chunks(capsys, size: int) -> list[dict]:
    code, out, _ = run(
        capsys, "chunk", str(PLATFORM), "--strategy", "fixed", "--unit", "words",
        "--size", str(size), "--json",
    )  # fmt: skip
    assert code == 0
    return json.loads(out)


def _verdict_from_chunks(chunks: list[dict], text: str) -> str:
    """The verdict read off the CLI's chunks: the first chunk holding the answer whole
    (overlap prefix + body), else every chunk whose body meets the answer's span."""
    needle = collapse(AUDIT)
    for c in chunks:
        if needle in collapse(c["overlap_prefix"] + " " + c["body"]):
            return f"answer intact in chunk {c['index'] + 1}"
    start = collapse(text).find(needle)
    assert start != -1
    s = text.find(AUDIT)  # the sample holds it on one line
    e = s + len(AUDIT)
    pieces = [str(c["index"] + 1) for c in chunks if c["start"] < e and s < c["end"]]
    return f"answer split across chunks {' and '.join(pieces)}: unretrievable at any k"


def test_every_size_matches_the_cli(capsys) -> None:
    text = PLATFORM.read_text(encoding="utf-8")
    frames = drag_frames(text, AUDIT, "fixed", SIZES, unit="words")
    code, out, _ = run(
        capsys, "survival", str(PLATFORM), "--answer", AUDIT, "--strategy", "fixed",
        "--unit", "words", "--sizes", "17:30:1", "--json",
    )  # fmt: skip
    curve = json.loads(out)
    assert code == 0 and curve["sizes"] == [f.size for f in frames] == list(SIZES)
    assert [f.intact for f in frames] == curve["intact"]
    assert any(curve["intact"]) and not all(curve["intact"])  # the lottery is in range
    for frame in frames:
        chunks = _cli_chunks(capsys, frame.size)
        assert frame.boundaries == [
            (c["start"], c["end"], c["overlap_start"] if c["overlap_prefix"] else c["start"])
            for c in chunks
        ]
        assert frame.verdict == _verdict_from_chunks(chunks, text)


def test_overlap_frames_carry_the_prefix_start(capsys) -> None:
    text = PLATFORM.read_text(encoding="utf-8")
    (frame,) = drag_frames(text, AUDIT, "fixed", [24], unit="words", overlap=5)
    chunks = _cli_chunks_overlap(capsys, 24, 5)
    assert frame.boundaries[1][2] == chunks[1]["overlap_start"] < frame.boundaries[1][0]


def _cli_chunks_overlap(capsys, size: int, overlap: int) -> list[dict]:
    code, out, _ = run(
        capsys, "chunk", str(PLATFORM), "--strategy", "fixed", "--unit", "words",
        "--size", str(size), "--overlap", str(overlap), "--json",
    )  # fmt: skip
    assert code == 0
    return json.loads(out)


def test_an_answer_not_in_the_document_is_the_verdict_at_every_size() -> None:
    text = PLATFORM.read_text(encoding="utf-8")
    frames = drag_frames(text, "no such sentence here", "fixed", [20, 21], unit="words")
    assert all(not f.intact and f.verdict.startswith("answer not found") for f in frames)
    assert all(f.boundaries for f in frames)


def test_structural_parses_once_and_gives_a_verdict_per_size() -> None:
    text = PLATFORM.read_text(encoding="utf-8")
    frames = drag_frames(text, AUDIT, "structural", [40, 80], unit="words")
    assert [f.verdict.startswith("answer intact in chunk") for f in frames] == [True, True]
