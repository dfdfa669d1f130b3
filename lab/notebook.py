"""Pins: a lab's current result kept for later (configuration, verdict, key
numbers, an optional note), exported as Markdown and JSON and read back."""
from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import asdict, dataclass, field
from datetime import datetime, timezone
from typing import Any

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

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


def make_pin(lab: str, title: str, config: Mapping[str, Any], verdict: str = "",
             numbers: Mapping[str, Any] | None = None, note: str = "",
             now: datetime | None = None) -> Pin:
    created = (now or datetime.now(timezone.utc)).replace(microsecond=0).isoformat()
    return Pin(lab, title, dict(config), verdict, dict(numbers or {}), note.strip(), created)


def to_json(pins: Sequence[Pin]) -> str:
    return json.dumps({"format": FORMAT, "version": VERSION, "pins": [p.to_dict() for p in pins]},
                      ensure_ascii=False, indent=2)


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
    return Pin(str(d["lab"]), str(d["title"]), dict(d["config"]), str(d.get("verdict", "")),
               dict(d.get("numbers", {})), str(d.get("note", "")), str(d.get("created", "")))


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
    if isinstance(value, float):
        value = f"{value:.3f}"
    return str(value).replace("|", "\\|").replace("\n", " ")


def to_markdown(pins: Sequence[Pin]) -> str:
    lines = ["# Chunk Lab notebook", ""]
    if not pins:
        lines.append("_No pins yet._")
    for n, p in enumerate(pins, start=1):
        lines += [f"## {n}. {p.title}", ""]
        if p.created:
            lines.append(f"Pinned {p.created}.")
            lines.append("")
        cfg = ", ".join(f"{k}={p.config[k]}" for k in CONFIG_KEYS if k in p.config)
        extra = ", ".join(f"{k}={v}" for k, v in p.config.items() if k not in CONFIG_KEYS)
        lines.append(f"Configuration: {cfg}" + (f", {extra}" if extra else ""))
        lines.append("")
        if p.verdict:
            lines += [f"**Verdict:** {p.verdict}", ""]
        if p.numbers:
            lines += ["| measure | value |", "| --- | --- |"]
            lines += [f"| {_cell(k)} | {_cell(v)} |" for k, v in p.numbers.items()]
            lines.append("")
        if p.note:
            lines += [f"> {line}" for line in p.note.splitlines()]
            lines.append("")
    return "\n".join(lines).rstrip() + "\n"
