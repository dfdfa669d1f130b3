"""Pins: a lab's current result kept for later (configuration, verdict, key
numbers, an optional note), exported as Markdown and JSON and read back."""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import asdict, dataclass, field
from datetime import UTC, datetime
from typing import Any

from lab.report.markup import md_escape

FORMAT = "chunk-lab-notebook"
VERSION = 1
CONFIG_KEYS = ("lab", "doc", "q", "strategy", "unit", "size", "overlap")


class NotebookError(ValueError):
    """A notebook file that cannot be read back; the message is one line."""


@dataclass(frozen=True, slots=True)
class Pin:
    lab: str  # lab slug
    title: str  # lab title, as shown
    config: dict[str, Any]  # the settings to restore (urlstate keys)
    verdict: str = ""
    numbers: dict[str, Any] = field(default_factory=dict)
    note: str = ""
    created: str = ""  # ISO 8601, UTC
    question: str = ""  # the question in words (config["q"] is only its number)

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


def make_pin(
    lab: str,
    title: str,
    config: Mapping[str, Any],
    verdict: str = "",
    numbers: Mapping[str, Any] | None = None,
    note: str = "",
    now: datetime | None = None,
    *,
    question: str | None = None,
) -> Pin:
    created = (now or datetime.now(UTC)).replace(microsecond=0).isoformat()
    return Pin(
        lab,
        title,
        dict(config),
        verdict,
        dict(numbers or {}),
        note.strip(),
        created,
        (question or "").strip(),
    )


def to_json(pins: Sequence[Pin]) -> str:
    return json.dumps(
        {"format": FORMAT, "version": VERSION, "pins": [p.to_dict() for p in pins]},
        ensure_ascii=False,
        indent=2,
    )


def _pin_from(d: Any, n: int) -> Pin:
    if not isinstance(d, dict):
        raise NotebookError(f"pin {n} is not an object")
    for key in ("lab", "title", "config"):
        if key not in d:
            raise NotebookError(f"pin {n} has no {key!r}")
    if not isinstance(d["config"], dict):
        raise NotebookError(f"pin {n}: 'config' is not an object")
    if not isinstance(d.get("numbers", {}), dict):
        raise NotebookError(f"pin {n}: 'numbers' is not an object")
    return Pin(
        str(d["lab"]),
        str(d["title"]),
        dict(d["config"]),
        str(d.get("verdict", "")),
        dict(d.get("numbers", {})),
        str(d.get("note", "")),
        str(d.get("created", "")),
        str(d.get("question", "")),
    )


def from_json(text: str) -> list[Pin]:
    """Pins from ``to_json`` output; NotebookError (one line) when it is not one."""
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise NotebookError(f"not a notebook: invalid JSON at line {exc.lineno}") from None
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise NotebookError(f"not a notebook: expected a {FORMAT!r} JSON file")
    if not isinstance(data.get("pins"), list):
        raise NotebookError("not a notebook: 'pins' is missing or not a list")
    return [_pin_from(d, n) for n, d in enumerate(data["pins"], start=1)]


def _cell(value: Any) -> str:
    if isinstance(value, bool):
        return str(value)
    if isinstance(value, (int, float)):  # a number is written as the number it is
        return f"{value:.3f}".rstrip("0").rstrip(".") if isinstance(value, float) else str(value)
    # "|" escaped, line breaks as spaces: one table cell (never at a line's start)
    return md_escape(value, line_start=False)


def config_line(config: Mapping[str, Any]) -> str:
    """'doc=platform_data, size=24, ...': the restore keys first, as plain text."""
    keys = [k for k in CONFIG_KEYS if k in config] + [k for k in config if k not in CONFIG_KEYS]
    return ", ".join(f"{k}={config[k]}" for k in keys)


def quote_lines(text: str) -> list[str]:
    """A multi-line note as Markdown block-quote lines, every line escaped."""
    return [f"> {line}".rstrip() for line in md_escape(text, inline=False).split("\n")]


def to_markdown(pins: Sequence[Pin]) -> str:
    """The notebook for a write-up. Every field a pin carries (an imported
    notebook can carry anything) is escaped, so no pin can add a heading, a
    link, an image, HTML or a table row, or end its section early."""
    lines = ["# Chunk Lab notebook", ""]
    if not pins:
        lines.append("_No pins yet._")
    for n, p in enumerate(pins, start=1):
        lines += [f"## {n}. {md_escape(p.title)}", ""]
        if p.created:
            lines.append(f"Pinned {md_escape(p.created)}.")
            lines.append("")
        if p.question:
            lines += [f"Question: “{md_escape(p.question, line_start=False)}”", ""]
        shown = {k: v for k, v in p.config.items() if not (p.question and k == "q")}
        lines.append(f"Configuration: {md_escape(config_line(shown))}")
        lines.append("")
        if p.verdict:
            lines += [f"**Verdict:** {md_escape(p.verdict)}", ""]
        if p.numbers:
            lines += ["| measure | value |", "| --- | --- |"]
            lines += [f"| {_cell(k)} | {_cell(v)} |" for k, v in p.numbers.items()]
            lines.append("")
        if p.note:
            lines += quote_lines(p.note)
            lines.append("")
    return "\n".join(lines).rstrip() + "\n"
