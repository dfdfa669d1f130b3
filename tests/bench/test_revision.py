"""`python -m bench.run --against COMMIT` loads the chunker of an earlier commit
beside today's: it must load whole under its own name, and a commit that is not
there is one line, not a traceback. (Speed itself is never asserted here.)"""

from __future__ import annotations

import pytest

from bench.revision import RevisionError, chunker_at, label
from bench.run import main
from chunkers import chunk

TEXT = "# Install\n\nRun the installer, then restart the service.\n"


def test_the_chunker_at_a_commit_is_loaded_apart_from_todays() -> None:
    then = chunker_at("HEAD")
    assert then is not chunk
    assert then.__module__.startswith("chunkers_at_")
    assert [c.body for c in then(TEXT)] == [c.body for c in chunk(TEXT)]


def test_an_unknown_commit_is_one_line(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(RevisionError, match="no commit 'no-such-commit'"):
        chunker_at("no-such-commit")
    assert main(["--against", "no-such-commit"]) == 2
    err = capsys.readouterr().err
    assert err == "bench.run: no commit 'no-such-commit' in this repository's history\n"


def test_a_commit_is_named_by_its_short_hash() -> None:
    assert label("b52b75e0123456789abcdef") == "structural chunker at b52b75e01234"
    assert label("main") == "structural chunker at main"
