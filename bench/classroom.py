"""A class on one server: N light clients open lab links at once, then walk the size slider.

    python -m bench.browser --class 5,15,25          # one fresh server per class size
    python -m bench.browser --class 25 --upload      # one of them uploads 4 MB meanwhile
    python -m bench.browser --class 25 --processes 2 # two app processes behind nginx

Each light client (deploy.light_client) is one student's browser session without
the browser: student i opens the example link of Lab 1, 3, 4 or 6 (in turn), all
at the same moment on a fresh server that has warmed itself
(deploy.class_servers.warm: every lab's example link opened once, as a class's
server does before it reports ready); when every page is there,
each walks the chunk-size slider upwards one step at a time, pausing 0.3 to 1.5 s
(at random, the same seed every run) between steps; on Labs 1 and 3, whose size
control drags, each step is a drag across two to six sizes, one run for the size let
go at (the browser redraws the sizes between with no run). A step is timed from sending
the new value until the run it starts has finished (the browser's figure adds
its paint, `python -m bench.browser` without --class). Server memory is the
largest resident set seen, sampled twice a second, summed over the app processes
and their worker processes (ui.worker).

With --upload, the first student opens Lab 1, picks "Upload a file…" and uploads
4 MB of the shared corpus while the others step; the others' steps that
overlap the upload's processing (the upload, its first view and its own steps
on it) are reported apart.
"""

from __future__ import annotations

import random
import statistics
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field

import psutil

from deploy.light_client import LightClient
from ui.present.sweeps import DRAG_LABS
from ui.present.urlstate import LAB_SLUGS

CLASS_LABS = (1, 3, 4, 6)
STEP_P95_TARGET_S, FIRST_PAGE_TARGET_S, UPLOAD_OTHERS_P95_TARGET_S = 1.0, 5.0, 1.5
PAUSE_S = (0.3, 1.5)
DRAG_SIZES = (2, 6)  # the sizes a student's drag crosses before letting go
DRAG_LAB_NUMBERS = tuple(LAB_SLUGS.index(slug) + 1 for slug in DRAG_LABS)
UPLOAD_BYTES = 4_000_000


@dataclass
class Step:
    client: int
    start: float  # time.perf_counter() when the value was sent
    seconds: float
    received: int = 0  # bytes the server sent for the step's run


@dataclass
class ClassRun:
    clients: int
    first_page_s: list[float] = field(default_factory=list)
    steps: list[Step] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)
    peak_rss: int = 0
    upload_window: tuple[float, float] | None = None  # the uploader's processing, start-end
    upload_steps_s: list[float] = field(default_factory=list)  # the uploader's own steps

    def others_during_upload(self) -> list[float]:
        if not self.upload_window:
            return []
        a, b = self.upload_window
        return [s.seconds for s in self.steps if s.start < b and s.start + s.seconds > a]


def percentile(values: list[float], p: float) -> float:
    """The nearest-rank percentile (p in 0-100)."""
    ordered = sorted(values)
    return ordered[max(0, min(len(ordered) - 1, round(p / 100 * len(ordered) + 0.5) - 1))]


def _rss_sampler(pids: Callable[[], list[int]], run: ClassRun, stop: threading.Event) -> None:
    while not stop.wait(0.5):
        total = 0
        for pid in pids():
            try:  # -- with its children: an app process's worker (ui.worker) --
                proc = psutil.Process(pid)
                total += sum(p.memory_info().rss for p in [proc, *proc.children(recursive=True)])
            except psutil.Error:
                pass
        run.peak_rss = max(run.peak_rss, total)


def run_class(
    url: str,
    links: dict[int, str],
    clients: int,
    steps: int,
    pids: Callable[[], list[int]],
    upload: bytes | None = None,
    seed: int = 7,
) -> ClassRun:
    """``clients`` students on the app at ``url``; ``links`` maps a lab to its link.
    ``pids`` gives the app processes whose memory is summed."""
    run = ClassRun(clients)
    lock = threading.Lock()
    opened = threading.Barrier(clients + 1, timeout=300)
    on_page = threading.Barrier(clients, timeout=300)

    def student(i: int) -> None:
        rng = random.Random(seed * 1000 + i)
        lab = 1 if (upload and i == 0) else CLASS_LABS[i % len(CLASS_LABS)]
        c = LightClient(url, "/" + links[lab])
        try:
            opened.wait()
            took = c.open()
            with lock:
                run.first_page_s.append(took)
        except Exception as e:  # noqa: BLE001 -- a failed student is a reported error
            with lock:
                run.errors.append(f"client {i} open: {e}")
            on_page.abort()
            return
        try:
            on_page.wait()
            if upload and i == 0:
                _uploader(c, rng, run, upload, steps)
            else:
                _walk(c, i, rng, run, lock, steps, drags=lab in DRAG_LAB_NUMBERS)
        except Exception as e:  # noqa: BLE001
            with lock:
                run.errors.append(f"client {i}: {e}")
        finally:
            with lock:
                run.errors.extend(f"client {i} page error: {m}" for m in c.errors)
            c.close()

    stop = threading.Event()
    sampler = threading.Thread(target=_rss_sampler, args=(pids, run, stop), daemon=True)
    sampler.start()
    threads = [threading.Thread(target=student, args=(i,), daemon=True) for i in range(clients)]
    for t in threads:
        t.start()
    opened.wait()  # every student's first request leaves together
    for t in threads:
        t.join(timeout=600)
    stop.set()
    sampler.join()
    return run


def _next_size(c: LightClient, up: bool) -> tuple[float, bool]:
    s = c.widget("Chunk size")
    value = c.value("Chunk size")[0]
    if up and value + s.step > s.max:
        up = False
    if not up and value - s.step < s.min:
        up = True
    return value + (s.step if up else -s.step), up


def _walk(
    c: LightClient,
    i: int,
    rng: random.Random,
    run: ClassRun,
    lock: threading.Lock,
    steps: int,
    drags: bool = False,
) -> None:
    """``steps`` changes of size: one slider step each, or on a lab whose size control
    drags (``drags``), a drag across two to six sizes, which is one run (the size it
    settles on is set as the control's release sets it)."""
    up = True
    for _ in range(steps):
        time.sleep(rng.uniform(*PAUSE_S))
        for _ in range(rng.randint(*DRAG_SIZES) if drags else 1):
            value, up = _next_size(c, up)
            c.set_number("Chunk size", value)
        start, before = time.perf_counter(), c.received_bytes
        took = c.rerun()
        with lock:
            run.steps.append(Step(i, start, took, c.received_bytes - before))


def _uploader(c: LightClient, rng: random.Random, run: ClassRun, data: bytes, steps: int) -> None:
    """Lab 1: pick "Upload a file…", upload, then step on the upload."""
    time.sleep(rng.uniform(*PAUSE_S))
    c.set_choice("Document", "Upload a file…")
    c.rerun()
    start = time.perf_counter()
    c.upload("Upload a .md", "class-upload.md", data)
    c.rerun()
    run.upload_window = (start, time.perf_counter())
    up = True
    for _ in range(min(steps, 4)):
        time.sleep(rng.uniform(*PAUSE_S))
        value, up = _next_size(c, up)
        c.set_number("Chunk size", value)
        run.upload_steps_s.append(c.rerun())
    run.upload_window = (start, time.perf_counter())  # its steps on the upload count too


def upload_document(corpus_texts: list[str], size: int = UPLOAD_BYTES) -> bytes:
    """Whole corpus documents one after another, up to ``size`` bytes."""
    out, total, i = [], 0, 0
    while total < size:
        t = corpus_texts[i % len(corpus_texts)].encode("utf-8")
        out.append(t[: size - total])
        total += len(out[-1])
        i += 1
    return b"\n\n".join(out)[:size].decode("utf-8", "ignore").encode("utf-8")


def _ms(seconds: float) -> str:
    return f"{seconds * 1000:,.0f} ms"


def table(runs: list[ClassRun], where: str) -> str:
    """The class figures, one row per class size."""
    lines = [
        f"class scenario ({where}): labs {', '.join(map(str, CLASS_LABS))}, "
        f"pauses {PAUSE_S[0]}-{PAUSE_S[1]} s",
        "",
        "| clients | steps | median step | p95 | max | first page, median | first page, max "
        "| errors | server memory | sent per step, median |",
        "|---|---|---|---|---|---|---|---|---|---|",
    ]
    for r in runs:
        s = [x.seconds for x in r.steps] or [float("nan")]
        f = r.first_page_s or [float("nan")]
        lines.append(
            f"| {r.clients} light | {len(r.steps)} | {_ms(statistics.median(s))} "
            f"| {_ms(percentile(s, 95))} | {_ms(max(s))} | {_ms(statistics.median(f))} "
            f"| {_ms(max(f))} | {len(r.errors)} | {r.peak_rss / 2**20:,.0f} MB "
            f"| {statistics.median([x.received for x in r.steps] or [0]) / 1e3:,.1f} KB |"
        )
    for r in runs:
        if r.upload_window:
            during = r.others_during_upload()
            a, b = r.upload_window
            lines.append(
                f"\n{r.clients} clients, one uploading {UPLOAD_BYTES / 1e6:.0f} MB: its upload "
                f"and first view {_ms(b - a)}; its own steps "
                f"{', '.join(_ms(x) for x in r.upload_steps_s) or '-'}; the others' steps "
                f"meanwhile: {len(during)}, p95 "
                f"{_ms(percentile(during, 95)) if during else '-'} (target < "
                f"{UPLOAD_OTHERS_P95_TARGET_S:.1f} s)"
            )
    for r in runs:
        for e in r.errors[:5]:
            lines.append(f"error ({r.clients} clients): {e}")
    lines.append(
        f"\ntargets: p95 step < {STEP_P95_TARGET_S:.0f} s, every first page < "
        f"{FIRST_PAGE_TARGET_S:.0f} s (reported, never asserted)"
    )
    return "\n".join(lines)
