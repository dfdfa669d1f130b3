"""Shared helpers for the AppTest suites: open the app, read what a user reads."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

from streamlit.testing.v1 import AppTest

APP = Path(__file__).resolve().parents[2] / "app.py"
TIMEOUT = 60

# -- links more than one suite opens: Lab 8 on the price tables, Lab 9 on the API reference
PRICING = dict(
    doc="compute_pricing", strategy="structural", unit="chars", size="600", overlap="100"
)
S2B = dict(doc="api_reference", q="0", strategy="structural", unit="chars", size="400", overlap="0")


def open_app(**params: str) -> AppTest:
    """The app after its first run, with ``params`` as the link's query string."""
    at = AppTest.from_file(str(APP), default_timeout=TIMEOUT)
    for k, v in params.items():
        at.query_params[k] = v
    at.run()
    assert not at.exception, [e.message for e in at.exception]
    return at


def rerun(at: AppTest) -> AppTest:
    at.run()
    assert not at.exception, [e.message for e in at.exception]
    return at


def texts(elements) -> list[str]:
    return [e.value for e in elements]


def verdicts(at: AppTest) -> list[str]:
    """The verdict banner(s): the survival check's words with their mark."""
    return [
        t
        for t in texts(at.success) + texts(at.error) + texts(at.info)
        if t.startswith(("✓", "✗", "no answer picked"))
    ]


def captions(at: AppTest) -> list[str]:
    return texts(at.caption)


def chunk_count(at: AppTest) -> int:
    """From the chunk view's caption 'chunks: 8 from 192 words' (the last such line:
    lab 3 first shows one per strategy)."""
    line = [c for c in captions(at) if c.startswith("chunks: ")][-1]
    return int(line.split()[1])


def html_bodies(at: AppTest) -> list[str]:
    return [h.proto.body for h in at.get("html")]


def chunk_view_html(at: AppTest) -> tuple[str, str]:
    """The chunk view's shaded document and its cards, as HTML."""
    bodies = html_bodies(at)
    [doc] = [b for b in bodies if 'class="chunk-doc"' in b]
    [cards] = [b for b in bodies if 'class="chunk-cards"' in b]
    return doc, cards


def widget(at: AppTest, kind: str, key: str):
    return getattr(at, kind)(key=key)


def set_widget(at: AppTest, kind: str, key: str, value) -> AppTest:
    getattr(at, kind)(key=key).set_value(value)
    return rerun(at)


def upload(at: AppTest, name: str, data: bytes | str, mime: str = "text/markdown") -> AppTest:
    """The sidebar's document set to a file of one's own, ``name`` holding ``data``."""
    set_widget(at, "selectbox", "doc", "__upload__")
    raw = data.encode("utf-8") if isinstance(data, str) else data
    at.file_uploader(key="upload").upload(name, raw, mime)
    return rerun(at)


def click(at: AppTest, key: str) -> AppTest:
    at.button(key=key).click()
    return rerun(at)


def curve_key(at: AppTest, name: str) -> str:
    """The key the survival chart ``name`` is drawn under now (a click renews it)."""
    keys = [p.proto.id.rsplit("-", 1)[-1] for p in at.get("plotly_chart")]
    [key] = [k for k in keys if k == name or k.startswith(f"{name}_")]
    return key


def open_lab(slug: str, **params: str) -> AppTest:
    return open_app(lab=slug, **params)


def drag_sliders(at: AppTest) -> list[dict]:
    """The data each drag slider on the page was sent: its window's (the frames, the
    text) with its control's (the app's size, the label) over it."""
    import json

    sent = [json.loads(e.proto.json) for e in at.get("bidi_component")]
    windows = {d["group"]: d for d in sent if d.get("part") == "window"}
    return [{**windows.get(d["group"], {}), **d} for d in sent if d.get("part") == "control"]


def plotly_specs(at: AppTest) -> list[dict]:
    import json

    return [json.loads(p.proto.spec) for p in at.get("plotly_chart")]


def vega_charts(at: AppTest) -> list[dict]:
    """The Vega-Lite charts drawn: each spec, with its datasets as lists of rows."""
    import json

    import pyarrow as pa

    out = []
    for chart in at.get("vega_lite_chart"):
        spec = json.loads(chart.proto.spec)
        spec["datasets"] = {
            d.name: pa.ipc.open_stream(d.data.data).read_all().to_pylist()
            for d in chart.proto.datasets
        }
        out.append(spec)
    return out


def vega_chart(at: AppTest, title: str) -> dict:
    """The Vega-Lite chart whose title starts with ``title``."""
    return next(s for s in vega_charts(at) if s.get("title", "").startswith(title))


def all_text(at: AppTest) -> str:
    """Everything a reader sees as text: markdown, captions, alerts, titles, subheaders."""
    parts = []
    for group in (
        at.title,
        at.subheader,
        at.markdown,
        at.caption,
        at.success,
        at.error,
        at.warning,
        at.info,
    ):
        parts += [e.value for e in group]
    return "\n".join(str(p) for p in parts)


def dataframes(at: AppTest):
    return [d.value for d in at.dataframe]


class Downloads:
    """The bytes behind each download button, as a user would save them.

    AppTest keeps downloads in an in-memory media store; this records what goes
    in (``monkeypatch`` undoes it after the test)."""

    def __init__(self, monkeypatch) -> None:
        from streamlit.runtime.media_file_manager import MediaFileManager
        from streamlit.runtime.memory_media_file_storage import MemoryMediaFileStorage

        self.files: dict[str, bytes] = {}
        real = MemoryMediaFileStorage.load_and_get_id

        def recording(storage, path_or_data, mimetype, kind, filename=None):
            file_id = real(storage, path_or_data, mimetype, kind, filename)
            self.files[file_id] = (
                path_or_data if isinstance(path_or_data, bytes) else Path(path_or_data).read_bytes()
            )
            return file_id

        monkeypatch.setattr(MemoryMediaFileStorage, "load_and_get_id", recording)

        # a button whose file is written on click holds a function; clicking calls it
        self.deferred: dict[str, Callable[[], Any]] = {}
        real_deferred = MediaFileManager.add_deferred

        def recording_deferred(manager, data_callable, *args, **kwargs):
            file_id = real_deferred(manager, data_callable, *args, **kwargs)
            self.deferred[file_id] = data_callable
            return file_id

        monkeypatch.setattr(MediaFileManager, "add_deferred", recording_deferred)

    def of(self, at: AppTest, label: str) -> bytes:
        [button] = [b for b in at.get("download_button") if b.proto.label == label]
        if button.proto.deferred_file_id:  # what a click on it saves
            data = self.deferred[button.proto.deferred_file_id]()
            return data.encode("utf-8") if isinstance(data, str) else data
        name = button.proto.url.rsplit("/", 1)[-1]
        return self.files[name.split(".", 1)[0]]
