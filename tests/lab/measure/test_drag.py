"""lab.measure.drag: the frames a dragged size slider draws equal what the CLI says."""

from __future__ import annotations

import json

import pytest

from chunkers import ChunkOptions, chunk_with
from lab.inputs.gold import load_gold
from lab.inputs.samples import list_samples
from lab.measure.drag import drag_frames, drag_window, window_around
from lab.measure.survival import check_survival, find_answer
from lab.text import collapse_whitespace
from tests.support import AUDIT, SAMPLES, SHARED_CORPUS, release_notes
from tests.support import run_cli as run
from ui.present.sweeps import sweep_sizes

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
    needle = collapse_whitespace(AUDIT)
    for c in chunks:
        if needle in collapse_whitespace(c["overlap_prefix"] + " " + c["body"]):
            return f"answer intact in chunk {c['index'] + 1}"
    start = collapse_whitespace(text).find(needle)
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


def test_a_range_with_no_sizes_is_one_line() -> None:
    with pytest.raises(ValueError, match=r"^sizes: give at least one size to drag across$"):
        drag_frames("one two three", "two", "fixed", range(30, 20), unit="words")


def test_a_document_of_one_word_is_one_chunk_at_every_size() -> None:
    frames = drag_frames("hello", "hello", "fixed", [1, 5], unit="words")
    assert [(f.boundaries, f.verdict) for f in frames] == [
        ([(0, 5, 0)], "answer intact in chunk 1")
    ] * 2


def test_structural_parses_once_and_gives_a_verdict_per_size() -> None:
    text = PLATFORM.read_text(encoding="utf-8")
    frames = drag_frames(text, AUDIT, "structural", [40, 80], unit="words")
    assert [f.verdict.startswith("answer intact in chunk") for f in frames] == [True, True]


def test_the_window_clips_boundaries_and_says_what_it_shows() -> None:
    text = "word " * 3000 + AUDIT + " tail" * 3000
    frames = drag_frames(text, AUDIT, "fixed", [20], unit="words")
    span = find_answer(text, AUDIT)
    window = drag_window(text, span, frames, radius=100)
    payload = window.to_json()
    assert (
        payload["note"] == f"showing characters {span[0] - 99:,}–{span[1] + 100:,} of {len(text):,}"
    )
    assert payload["text"][slice(*payload["answer"])] == AUDIT
    (frame,) = payload["frames"]
    # the first chunk in the window is numbered as the verdict numbers it
    first = next(n for n, (_, e, _) in enumerate(frames[0].boundaries, 1) if e > window.start)
    assert frame["first"] == first > 1
    starts = frame["bounds"][0::3]
    assert starts[0] == 0 and all(0 <= s <= 200 + len(AUDIT) for s in starts)


def test_a_short_document_is_shown_whole() -> None:
    text = PLATFORM.read_text(encoding="utf-8")
    frames = drag_frames(text, AUDIT, "fixed", [24], unit="words")
    window = drag_window(text, find_answer(text, AUDIT), frames)
    assert window.note == "" and window.to_json()["text"] == text


@pytest.mark.parametrize("sample", list_samples(), ids=lambda s: s.name)
@pytest.mark.parametrize("unit", ["words", "chars", "tokens"])
def test_sample_payloads_stay_under_200_kb(sample, unit: str) -> None:
    text = sample.path.read_text(encoding="utf-8")
    answer = load_gold(sample.gold_path).questions[0].answer
    frames = drag_frames(
        text, answer, "fixed", sweep_sizes(unit, 24 if unit != "chars" else 200), unit=unit
    )
    payload = drag_window(text, find_answer(text, answer), frames).to_json()
    assert len(json.dumps(payload, ensure_ascii=False).encode()) < 200_000


def _chunked_frame(text: str, answer: str, size: int, overlap: int, unit: str):
    """What real chunking says at one size: every chunk's spans and the verdict."""
    chunks = chunk_with(text, "fixed", ChunkOptions(size=size, overlap=overlap, unit=unit))
    surv = check_survival(chunks, text, answer)
    bounds = [(c.start, c.end, c.overlap_start if c.overlap_prefix else c.start) for c in chunks]
    pieces = [surv.chunk_index] if surv.intact else surv.pieces
    return bounds, surv.intact, surv.verdict, pieces


def _answers(text: str) -> list[str]:
    """Three answers across the document: near its start, middle and end, a few words
    each, and the first word that occurs more than once (an answer held twice)."""
    words = text.split()
    picks = [" ".join(words[i : i + 6]) for i in (3, len(words) // 2, max(0, len(words) - 9))]
    repeated = next((w for w in words if text.count(w) > 1 and len(w) > 3), words[0])
    return [p for p in picks if p] + [repeated]


@pytest.mark.parametrize(
    ("unit", "sizes", "overlaps"),
    [("words", range(5, 41, 7), (0, 3)), ("chars", range(40, 400, 61), (0, 17)),
     ("tokens", range(6, 60, 9), (0, 4))],
)  # fmt: skip
def test_fixed_frames_by_arithmetic_equal_chunking_on_the_corpus(
    corpus, unit: str, sizes, overlaps
) -> None:
    files = sorted(f for folder in corpus for f in folder.rglob("*.md"))[::25]
    texts = [f.read_text(encoding="utf-8") for f in files]
    texts.append("one\r\ntwo  three\r\n\r\n" + "   \t" * 40 + "four \ud800 five\rsix " * 30)
    for text in texts:
        for answer in _answers(text):
            for overlap in overlaps:
                frames = drag_frames(text, answer, "fixed", sizes, unit=unit, overlap=overlap)
                for f in frames:
                    want = _chunked_frame(text, answer, f.size, overlap, unit)
                    got = (f.boundaries, f.intact, f.verdict, f.pieces)
                    assert got == want, (text[:40], answer, unit, f.size, overlap)


@pytest.mark.parametrize("strategy", ["fixed", "structural"])
def test_frames_kept_to_the_window_draw_what_every_chunk_draws(strategy: str) -> None:
    # a long document: the answer deep inside, chunks on both sides of the window
    text = PLATFORM.read_text(encoding="utf-8")
    text = "\n\n".join([text.replace(AUDIT, "Filler sentence here.")] * 6 + [text] * 2)
    span = find_answer(text, AUDIT)
    sizes = range(18, 60, 5)
    whole = drag_frames(text, AUDIT, strategy, sizes, unit="words", overlap=3)
    kept = drag_frames(
        text, AUDIT, strategy, sizes, unit="words", overlap=3, window=window_around(text, span)
    )
    for k, w in zip(kept, whole, strict=True):
        assert k.first > 0 and len(k.boundaries) < len(w.boundaries)
    assert drag_window(text, span, kept).to_json() == drag_window(text, span, whole).to_json()


# -- long documents: frames kept to the window make only the chunks near the answer
# -- (those before are packed and counted); they must be the whole chunking's


def _answer_at(text: str, fraction: float) -> str:
    """Six words from the first line, not blank, past ``fraction`` of the text."""
    line = next(x for x in text[int(len(text) * fraction) :].splitlines()[1:] if x.split())
    return " ".join(line.split()[:6])


def _assert_kept_frames_are_the_whole_chunkings(
    text: str, answer: str, strategy: str, sizes, unit: str, overlap: int = 0
) -> list:
    """The frames kept to the window around the answer, held equal to the frames of
    every chunk (the whole chunking at each size) seen through the same window."""
    span = find_answer(text, answer)
    window = window_around(text, span)
    whole = drag_frames(text, answer, strategy, sizes, unit=unit, overlap=overlap)
    kept = drag_frames(text, answer, strategy, sizes, unit=unit, overlap=overlap, window=window)
    assert drag_window(text, span, kept).to_json() == drag_window(text, span, whole).to_json()
    assert [(k.intact, k.verdict, k.pieces) for k in kept] == [
        (w.intact, w.verdict, w.pieces) for w in whole
    ]
    for k, w in zip(kept, whole, strict=True):
        # -- the chunks before the window are counted, not made: the first kept
        # -- chunk's number is its number in the whole chunking
        assert k.boundaries and k.boundaries == w.boundaries[k.first : k.first + len(k.boundaries)]
    return kept


@pytest.mark.parametrize("strategy", ["structural", "sentence"])
@pytest.mark.parametrize(
    ("unit", "sizes"),
    [("words", range(8, 68, 6)), ("chars", range(100, 700, 60)), ("tokens", range(8, 128, 12))],
)
def test_a_long_document_drags_as_it_chunks(strategy: str, unit: str, sizes) -> None:
    text = release_notes()
    for fraction in (0.02, 0.5, 0.97):  # the answer near the start, halfway, near the end
        answer = _answer_at(text, fraction)
        kept = _assert_kept_frames_are_the_whole_chunkings(
            text, answer, strategy, sizes, unit, overlap=3 if fraction == 0.5 else 0
        )
        if fraction == 0.97:  # hundreds of chunks before the window, counted
            assert all(f.first > 100 for f in kept)


def test_a_long_document_with_windows_ends_drags_as_it_chunks() -> None:
    # CRLF line ends: the window is in the text's own offsets, the chunkers' in LF's
    text = release_notes(120).replace("\n", "\r\n")
    answer = _answer_at(text, 0.6)
    for strategy in ("structural", "sentence"):
        sizes = range(8, 60, 9)
        _assert_kept_frames_are_the_whole_chunkings(text, answer, strategy, sizes, "words")


@pytest.mark.parametrize("strategy", ["structural", "sentence"])
def test_an_answer_held_far_from_the_window_is_found_where_it_is_held(strategy: str) -> None:
    # -- the window is around the answer's first occurrence, across two paragraphs too
    # -- long for a chunk (cut at every size); a later one, far past the window, is a
    # -- short paragraph of its own: held whole there, which the verdict must name
    answer = "the crates left. Then the driver signed"
    filler = " ".join(f"word{i}" for i in range(40))
    text = "\n\n".join(
        [
            "## Start",
            f"Alpha {filler} the crates left.",
            f"Then the driver signed {filler}.",
            release_notes(200),
            "## Repeated",
            f"{answer} for all of them.",
            "## Last",
            "Nothing else to add here.",
        ]
    )
    kept = _assert_kept_frames_are_the_whole_chunkings(
        text, answer, strategy, range(12, 40, 3), "words"
    )
    assert any(f.intact and f.pieces[0] > f.first + len(f.boundaries) for f in kept)


@pytest.mark.slow
@pytest.mark.shared_corpus
@pytest.mark.parametrize("strategy", ["structural", "sentence"])
def test_release_notes_drag_as_the_cli_chunks_at_every_size(capsys, strategy: str) -> None:
    path = SHARED_CORPUS / "fastapi" / "docs" / "en" / "docs" / "release-notes.md"
    text = path.read_text(encoding="utf-8")
    answer = _answer_at(text, 1 / 3)
    sizes = sweep_sizes("tokens", 24)[:60]  # the app's smallest sizes: the most chunks
    assert sizes == list(range(8, 128, 2))
    kept = _assert_kept_frames_are_the_whole_chunkings(text, answer, strategy, sizes, "tokens")
    # the CLI's own survival at every sixth size (the whole chunkings above are its
    # sweep at every size; this is what a user of the command reads)
    code, out, _ = run(
        capsys, "survival", str(path), "--answer", answer, "--strategy", strategy,
        "--unit", "tokens", "--sizes", f"{sizes[0]}:{sizes[-1]}:12", "--json",
    )  # fmt: skip
    assert code == 0 and json.loads(out)["intact"] == [f.intact for f in kept[::6]]
    for size in (sizes[0], sizes[-1]):  # the chunks the CLI's chunk command makes
        chunks = chunk_with(text, strategy, ChunkOptions(size=size, overlap=0, unit="tokens"))
        frame = kept[sizes.index(size)]
        assert frame.verdict == check_survival(chunks, text, answer).verdict
        made = chunks[frame.first : frame.first + len(frame.boundaries)]
        assert frame.boundaries == [(c.start, c.end, c.start) for c in made]
