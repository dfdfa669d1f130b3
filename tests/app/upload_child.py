"""One upload through the app, in its own process, so its peak memory can be
measured (tests/app/test_app_resources.py). Not a test module.

    python -m tests.app.upload_child MB LAB [--unit chars] [--answer TEXT]

Builds a document of MB megabytes from the sample documents, opens LAB with
AppTest, uploads it (optionally switches the unit and pastes an answer), and
prints one JSON object: what the reader sees, and every text a progress bar
showed along the way.
"""

from __future__ import annotations

import argparse
import json
import sys

import streamlit as st

from lab.inputs.documents import MB
from tests.app.app_harness import all_text, open_lab, rerun, set_widget, verdicts
from tests.support import SAMPLES


def document(megabytes: float) -> bytes:
    """The sample documents over and over, cut at a line end at ``megabytes``."""
    one = b"\n\n".join(p.read_bytes() for p in sorted(SAMPLES.glob("*.md"))) + b"\n\n"
    size = int(megabytes * MB)
    data = one * (size // len(one) + 1)
    return data[: data.rfind(b"\n", 0, size) + 1]


def document_of_chars(chars: int) -> bytes:
    """The sample documents over and over, cut at a line end after ``chars`` characters
    (not bytes: a Chinese or Japanese sample's characters take three bytes each)."""
    one = "\n\n".join(p.read_text(encoding="utf-8") for p in sorted(SAMPLES.glob("*.md")))
    text = (one + "\n\n") * (chars // len(one) + 1)
    return text[: text.find("\n", chars) + 1].encode("utf-8")


class ProgressSpy:
    """Wraps st.progress and records what each bar showed, in order."""

    def __init__(self) -> None:
        self.shown: list[tuple[float, str]] = []
        self._real = st.progress

    def __call__(self, value, text=None, **kw):
        self.shown.append((float(value), text or ""))
        bar = self._real(value, text=text, **kw)
        spy = self

        class Bar:
            def progress(self, value, text=None):
                spy.shown.append((float(value), text or ""))
                return bar.progress(value, text=text)

            def empty(self):
                return bar.empty()

        return Bar()


def main(argv: list[str]) -> None:
    p = argparse.ArgumentParser()
    p.add_argument("mb", type=float)
    p.add_argument("lab")
    p.add_argument("--unit", help="open the lab in this unit (a link's unit=)")
    p.add_argument("--answer")
    args = p.parse_args(argv)
    spy = ProgressSpy()
    st.progress = spy
    data = document(args.mb)
    at = open_lab(args.lab, **({"unit": args.unit} if args.unit else {}))
    at.default_timeout = 600  # the parent's hang guard bounds the whole process
    set_widget(at, "selectbox", "doc", "__upload__")
    at.file_uploader(key="upload").upload("big.md", data, "text/markdown")
    rerun(at)
    if args.answer:
        set_widget(at, "radio", "answer_mode", "paste it")
        at.text_area(key="answer_paste").input(args.answer)
        rerun(at)
    print(
        json.dumps(
            {
                "bytes": len(data),
                "errors": [e.value for e in at.error],
                "exceptions": [e.message for e in at.exception],
                "verdicts": verdicts(at),
                "counts": [c.value for c in at.caption if c.value.startswith("chunks: ")],
                "charts": [
                    json.loads(c.proto.spec)["layout"]["title"]["text"]
                    for c in at.get("plotly_chart")
                ],
                "progress": spy.shown,
                "text": all_text(at)[:2000],
            }
        )
    )


if __name__ == "__main__":
    main(sys.argv[1:])
