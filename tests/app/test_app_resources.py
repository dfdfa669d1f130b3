"""Resource bounds: the upload limit, peak memory, and long sweeps that show a
progress bar, go one size a step and can be cancelled by moving on.

Memory is measured on child processes (tests/app/upload_child.py) that run the
app's upload path with AppTest: their peak resident set size, from the kernel's
accounting for that child (os.wait4, the per-child form of
getrusage(RUSAGE_CHILDREN)), must stay under 1 GB. The children start with the
first app test (tests/app/conftest.py) and run side by side with the others;
each is bounded by the hang guard below, stated, not a speed target:
the slowest (a 5 MB upload swept by three strategies at 40 sizes) takes about
40 s on a 2-core machine.
"""

from __future__ import annotations

import json
import os
import subprocess
import tomllib

import pytest
from streamlit.runtime.scriptrunner_utils.exceptions import StopException

import ui.cached
import ui.caching
import ui.chunk_files
import ui.survival_curves
import ui.worker
from lab.inputs.documents import MB
from tests.app.app_harness import APP, open_lab, rerun, set_widget, verdicts
from tests.app.upload_child import ProgressSpy, document_of_chars
from tests.support import AUDIT, bounded
from ui.caching import PROGRESS_CHARS
from ui.sidebar import MAX_UPLOAD_MB

HANG_SECONDS = 240  # per child process
MEMORY_BOUND_KB = 1024 * 1024  # 1 GB, as ru_maxrss counts on Linux (kilobytes)


def finish(proc: subprocess.Popen) -> tuple[dict, int]:
    """The child's report and its peak RSS in KB, within the hang guard."""
    with bounded(HANG_SECONDS):
        out = proc.stdout.read()
        _, status, usage = os.wait4(proc.pid, 0)
    proc.returncode = os.waitstatus_to_exitcode(status)
    assert proc.returncode == 0, out[-2000:]
    return json.loads(out), usage.ru_maxrss


def test_the_upload_limit_is_in_the_config_and_fast_reruns_are_on():
    cfg = tomllib.loads((APP.parent / ".streamlit" / "config.toml").read_text())
    assert cfg["server"]["maxUploadSize"] == MAX_UPLOAD_MB == 5
    assert cfg["runner"]["fastReruns"] is True


def test_an_upload_over_the_limit_is_refused_in_one_line_within_the_memory_bound(
    upload_children,
):
    report, peak_kb = finish(upload_children["over the limit, Lab 1"])
    assert report["bytes"] > (MAX_UPLOAD_MB + 1) * MB - 1024
    assert report["errors"] == [
        f"big.md is {MAX_UPLOAD_MB + 1}.0 MB, over the {MAX_UPLOAD_MB} MB limit; "
        "split it into smaller files"
    ]
    assert not report["exceptions"] and not report["counts"]
    assert peak_kb < MEMORY_BOUND_KB, f"peak RSS {peak_kb // 1024} MB"


def test_a_5_mb_upload_opens_in_lab_1_within_the_memory_bound(upload_children):
    report, peak_kb = finish(upload_children["5 MB, Lab 1"])
    assert 5 * 1024 * 1024 - 1024 < report["bytes"] <= 5 * 1024 * 1024
    assert not report["errors"] and not report["exceptions"]
    assert report["verdicts"] == [
        "no answer picked: choose the answer text to see whether it survives"
    ]
    assert (
        report["counts"][0].startswith("chunks: ") and int(report["counts"][0].split()[1]) > 30_000
    )
    assert peak_kb < MEMORY_BOUND_KB, f"peak RSS {peak_kb // 1024} MB"


def test_a_5_mb_sweep_in_lab_3_shows_progress_step_by_step_within_the_memory_bound(
    upload_children,
):
    report, peak_kb = finish(upload_children["5 MB, Lab 3 sweeps"])
    assert not report["errors"] or all(e.startswith("✗") for e in report["errors"])
    assert not report["exceptions"] and len(report["verdicts"]) == 5
    assert "Survival curves, all strategies" in report["charts"]
    shown = [text for _, text in report["progress"]]
    for name in ("Structural", "Sentence", "LangChain recursive"):
        steps = [t for t in shown if t.startswith(f"Sweeping {name}: ")]
        n = int(steps[-1].split("/")[1].split()[0])  # "Sweeping Structural: 40/40 sizes"
        assert f"Sweeping {name} over {n} sizes…" in shown
        assert steps == [
            f"Sweeping {name}: {i}/{n} sizes" for i in range(1, n + 1)
        ]  # one size a step
    assert not any("Fixed" in t for t in shown)  # fixed sizes are arithmetic: no sweep to wait for
    assert peak_kb < MEMORY_BOUND_KB, f"peak RSS {peak_kb // 1024} MB"


@pytest.mark.slow
def test_moving_on_cancels_a_sweep_and_keeps_the_sizes_already_swept(monkeypatch):
    """Streamlit stops a run at its next Streamlit call once the user moves a
    widget (a StopException there, before the rerun). Stop the sweep at step 5,
    as that would; then the next run computes only the sizes not yet swept."""
    computed: list[tuple[str, tuple[int, ...]]] = []
    real_curve = ui.survival_curves.survival_curve

    def counting(text, answer, strategy, sizes, **options):
        computed.append((strategy, tuple(sizes)))
        return real_curve(text, answer, strategy, sizes, **options)

    monkeypatch.setattr(ui.survival_curves, "survival_curve", counting)
    real_worker_curve = ui.worker.curve  # a long document's curves: in the worker

    def counting_worker(text, answer, strategy, sizes, *rest):
        computed.append((strategy, tuple(sizes)))
        return real_worker_curve(text, answer, strategy, sizes, *rest)

    monkeypatch.setattr(ui.worker, "curve", counting_worker)
    spy = ProgressSpy()

    def stop_at_step_5(value, text=None, **kw):
        bar = spy(value, text=text, **kw)

        class Interrupted:
            def progress(self, value, text=None):
                bar.progress(value, text=text)
                if text and text.startswith("Sweeping Structural: 5/") and not stopped:
                    stopped.append(text)
                    raise StopException()

            def empty(self):
                bar.empty()

        return Interrupted()

    stopped: list[str] = []
    at = open_lab("structure")
    set_widget(at, "selectbox", "doc", "__upload__")
    # just long enough for a stepped sweep (a tenth over the length that starts one)
    long = document_of_chars(int(1.1 * PROGRESS_CHARS))
    at.file_uploader(key="upload").upload("long.md", long, "text/markdown")
    rerun(at)
    set_widget(at, "radio", "answer_mode", "paste it")
    monkeypatch.setattr("streamlit.progress", stop_at_step_5)
    computed.clear()  # the sample's curves, drawn before the upload
    at.text_area(key="answer_paste").input(AUDIT)
    rerun(at)
    assert stopped and not at.exception
    assert not [c for c in at.get("plotly_chart")]  # the run stopped mid-sweep, nothing half-drawn
    # -- the page's own size is not swept: its verdict is the page's chunking's --
    page_size = at.slider(key="size").value
    first = [sizes for s, sizes in computed if s == "structural"]
    assert len(first) == len(computed) and len(first) in (4, 5), computed
    assert all(page_size not in sizes for sizes in first)

    computed.clear()
    rerun(at)  # the user comes back to the same view: the five sizes are not swept again
    swept = [(s, sizes) for s, sizes in computed if s != "fixed"]  # fixed: arithmetic, one call
    assert all(len(sizes) == 1 for _, sizes in swept)  # one size a step, each cached on its own
    assert all(page_size not in sizes for _, sizes in swept)
    rest = sum(s == "structural" for s, _ in swept)
    n = len(first) + rest  # structural's sizes, the page's own left out
    assert sum(s == "sentence" for s, _ in swept) == n  # sentence and recursive in full
    assert sum(s == "recursive" for s, _ in swept) == n
    assert len(swept) == rest + 2 * n
    assert verdicts(at)[0].startswith("✓") and at.get("plotly_chart")

    computed.clear()
    set_widget(
        at, "slider", "size", at.slider(key="size").value + 1
    )  # moving on: one new size each
    assert sorted(s for s, _ in computed if s != "fixed") == ["recursive", "sentence", "structural"]
