"""A long document's chunkings, curves and sentences computed in the worker process:
the same values as in the app process, its errors raised as they would be, and the
app process computing them itself, after one line, when the worker is gone."""

from __future__ import annotations

import os
import signal
from collections.abc import Iterator

import pytest

from chunkers import chunk_with
from chunkers.options import Unit
from lab.measure.survival import survival_curve
from tests.support import BIG_ANSWER, big_document
from ui import cached, caching, worker
from ui.present.questions import answer_sentences

TEXT = big_document(2000)  # about 170 KB: a long document (caching.PROGRESS_CHARS or more)


@pytest.fixture
def fresh_worker() -> Iterator[None]:
    worker.shutdown()
    yield
    worker.shutdown()


def test_the_text_is_long_enough_to_go_to_the_worker():
    assert len(TEXT) >= caching.PROGRESS_CHARS


def test_the_worker_is_another_process_and_chunks_as_the_app_does(fresh_worker):
    pid = worker.pid()
    assert pid is not None and pid != os.getpid()
    for strategy, size, unit in [("fixed", 24, "words"), ("structural", 400, "chars")]:
        opts = cached.options(size, 0, unit)
        assert worker.chunks(TEXT, strategy, opts) == chunk_with(TEXT, strategy, opts)
    assert worker.sentences(TEXT) == answer_sentences(TEXT)
    base, tokenizer = Unit.named("chars").base, Unit.named("chars").tokenizer
    assert worker.curve(TEXT, BIG_ANSWER, "sentence", [300, 900], base, 0, tokenizer) == (
        survival_curve(TEXT, BIG_ANSWER, "sentence", [300, 900], unit=base, tokenizer=tokenizer)
    )


def test_a_bad_setting_raises_the_same_error_through_the_worker(fresh_worker):
    with pytest.raises(ValueError, match="applies only to the unit tokens"):
        worker.curve(TEXT, BIG_ANSWER, "sentence", [300], "chars", 0, "no-such-tokenizer")
    assert worker.pid() is not None  # and the worker carries on


def test_without_its_worker_the_app_computes_the_chunks_itself_after_one_line(fresh_worker, capfd):
    os.kill(worker.pid(), signal.SIGKILL)
    opts = cached.options(30, 5, "words")
    assert worker.chunks(TEXT, "fixed", opts) is None  # "compute it yourself"
    err = capfd.readouterr().err
    assert err.count("\n") == 1 and "no worker process for long documents" in err
    assert "Traceback" not in err
    # the cached call the pages use still gives the chunks, from the app process
    assert cached.chunks(cached.Chunking(TEXT, "fixed", 30, 5, "words")) == chunk_with(
        TEXT, "fixed", opts
    )
    assert worker.pid() is None  # no new worker until the next start
