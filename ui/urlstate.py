"""The settings a link carries, parsed and validated without Streamlit.

A teacher sends ``?lab=boundary&doc=platform_data&q=0&strategy=fixed&unit=words
&size=24&overlap=0`` and the app opens exactly that view. Every bad or missing
value falls back to its default, and each bad value yields a one-line notice
for the page to show; nothing here raises on user input.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import asdict, dataclass, replace
from typing import Any, NamedTuple

from chunkers import STRATEGIES
from chunkers.model import UNITS
from lab.sweeps import SIZE_LIMITS

from .markup import md_escape


class Lab(NamedTuple):
    slug: str  # what the URL says (or the lab's number)
    title: str
    page: str  # the page module that draws it, relative to the app's folder


# The labs in teaching order: the one list the navigation, the URL and the titles read.
LABS: tuple[Lab, ...] = (
    Lab("boundary", "Boundary lottery", "pages/lab1_boundary.py"),
    Lab("overlap", "Overlap as insurance", "pages/lab2_overlap.py"),
    Lab("structure", "Structure beats arithmetic", "pages/lab3_structure.py"),
    Lab("runts", "Runts and BM25", "pages/lab4_runts.py"),
    Lab("tables", "Tables, transcribed text and headings", "pages/lab5_tables.py"),
    Lab("integrity", "Integrity check", "pages/lab6_integrity.py"),
    Lab("notebook", "Notebook", "pages/lab7_notebook.py"),
)
LAB_SLUGS = tuple(lab.slug for lab in LABS)

DEFAULT_DOC = "platform_data"  # seed 002's document
# Switching unit starts from that unit's classic setting: seed 002's widget
# (24 words, no overlap) or seed 000's chunker (1,800 chars, 150 overlap).
UNIT_DEFAULTS = {"words": (24, 0), "chars": (1800, 150)}
PARAM_KEYS = ("lab", "doc", "q", "strategy", "unit", "size", "overlap", "presenter")
# How a link says presenter mode is on or off (a teacher's bookmark for the projector).
_ON, _OFF = ("1", "true", "on", "yes"), ("0", "false", "off", "no")


@dataclass(frozen=True, slots=True)
class Settings:
    doc: str = DEFAULT_DOC
    q: int = 0
    strategy: str = "fixed"
    unit: str = "words"
    size: int = 24
    overlap: int = 0
    lab: str = "boundary"
    presenter: bool = False

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


DEFAULTS = Settings()


def clamp_size(size: int, unit: str) -> int:
    lo, hi = SIZE_LIMITS[unit]
    return min(max(int(size), lo), hi)


def max_overlap(size: int) -> int:
    """The overlap slider's top: one unit short of the size, never the size itself."""
    return max(0, int(size) - 1)


def clamp_overlap(overlap: int, size: int) -> int:
    return min(max(int(overlap), 0), max_overlap(size))


def lab_slug(value: str) -> str | None:
    """'boundary' or '1' -> 'boundary'; None when it names no lab."""
    v = value.strip().lower()
    if v in LAB_SLUGS:
        return v
    if v.isdigit() and 1 <= int(v) <= len(LABS):
        return LAB_SLUGS[int(v) - 1]
    return None


def lab_title(slug: str) -> str:
    return next(lab.title for lab in LABS if lab.slug == slug)


def _one(params: Mapping[str, Any], key: str) -> str | None:
    value = params.get(key)
    if isinstance(value, (list, tuple)):
        value = value[-1] if value else None
    return None if value is None else str(value)


def _int(raw: str) -> int | None:
    try:
        return int(raw.strip())
    except ValueError:
        return None


def _short(raw: str) -> str:
    """A value as a notice quotes it: one line, at most 40 characters, its
    Markdown escaped (notices are shown as Markdown; a link can say anything)."""
    return md_escape(repr(_clip(raw.replace("\n", " "))))


def _clip(raw: str) -> str:
    return raw if len(raw) <= 40 else raw[:37] + "..."


def parse_params(
    params: Mapping[str, Any],
    docs: Sequence[str],
    questions: Mapping[str, int] | None = None,
    *,
    source: str = "Link",
) -> tuple[Settings, list[str]]:
    """Settings from query parameters, plus one notice per value that was ignored.

    ``docs`` are the sample names a link may open; ``questions`` maps a sample
    to how many gold questions it has (a missing entry means "don't check").
    ``source`` names where the values came from in the notices ("Link", "Pin").
    """
    notices: list[str] = []
    s = DEFAULTS

    def bad(key: str, raw: str, why: str, default: Any) -> None:
        notices.append(f"{source} value {key}={_short(raw)} ignored ({why}); using {default}.")

    raw = _one(params, "lab")
    if raw is not None:
        slug = lab_slug(raw)
        if slug is None:
            bad("lab", raw, f"labs are 1-{len(LABS)} or {', '.join(LAB_SLUGS)}", s.lab)
        else:
            s = replace(s, lab=slug)

    raw = _one(params, "doc")
    if raw is not None:
        if raw in docs:
            s = replace(s, doc=raw)
        else:
            bad("doc", raw, "no such sample document", s.doc)

    raw = _one(params, "q")
    if raw is not None:
        n = (questions or {}).get(s.doc)
        q = _int(raw)
        if q is None or q < 0 or (n is not None and q >= n):
            limit = f"0-{n - 1}" if n else "a question number"
            bad("q", raw, f"{s.doc} has questions {limit}", s.q)
        else:
            s = replace(s, q=q)

    raw = _one(params, "strategy")
    if raw is not None:
        if raw in STRATEGIES:
            s = replace(s, strategy=raw)
        else:
            bad("strategy", raw, f"strategies are {', '.join(STRATEGIES)}", s.strategy)

    raw = _one(params, "unit")
    if raw is not None:
        if raw in UNITS:
            size, overlap = UNIT_DEFAULTS[raw]
            s = replace(s, unit=raw, size=size, overlap=overlap)
        else:
            bad("unit", raw, f"units are {', '.join(UNITS)}", s.unit)

    lo, hi = SIZE_LIMITS[s.unit]
    raw = _one(params, "size")
    if raw is not None:
        size = _int(raw)
        if size is None or not lo <= size <= hi:
            bad("size", raw, f"size in {s.unit} must be a whole number from {lo} to {hi}", s.size)
        else:
            s = replace(s, size=size)

    raw = _one(params, "overlap")
    if raw is not None:
        overlap = _int(raw)
        if overlap is None or not 0 <= overlap < s.size:
            bad(
                "overlap",
                raw,
                f"overlap must be from 0 to {max_overlap(s.size)}, below the size",
                0,
            )
            s = replace(s, overlap=0)
        else:
            s = replace(s, overlap=overlap)
    elif s.overlap >= s.size:
        s = replace(s, overlap=clamp_overlap(s.overlap, s.size))

    raw = _one(params, "presenter")
    on = None if raw is None else presenter_value(raw)
    s = s if on is None else replace(s, presenter=on)
    if raw is not None and on is None:
        bad("presenter", raw, "presenter is 1 or 0", "0")

    unknown = sorted(k for k in params if k not in PARAM_KEYS)
    if unknown:
        names = ", ".join(md_escape(_clip(str(k))) for k in unknown)
        notices.append(f"{source} parameter(s) {names} not understood and ignored.")
    return s, notices


def presenter_value(raw: str) -> bool | None:
    """'1', 'true', 'on', 'yes' -> True; '0', 'false', 'off', 'no' -> False; else None."""
    v = raw.strip().lower()
    return True if v in _ON else False if v in _OFF else None


def to_params(settings: Settings, *, shareable_doc: bool = True) -> dict[str, str]:
    """Query parameters for a link; an uploaded document cannot travel in a link."""
    out = {
        "lab": settings.lab,
        "doc": settings.doc,
        "q": str(settings.q),
        "strategy": settings.strategy,
        "unit": settings.unit,
        "size": str(settings.size),
        "overlap": str(settings.overlap),
    }
    if settings.presenter:  # only said when on: an ordinary link stays as it was
        out["presenter"] = "1"
    if not shareable_doc:
        out.pop("doc")
        out.pop("q")
    return out


# What each lab's "set up the example" button loads (seed 002's widget for the
# lottery labs, seed 000's revenue report and tables for the BM25 labs).
LAB_PRESETS: dict[str, dict[str, Any]] = {
    "boundary": dict(doc="platform_data", q=0, strategy="fixed", unit="words", size=24, overlap=0),
    "overlap": dict(doc="platform_data", q=0, strategy="fixed", unit="words", size=24, overlap=12),
    "structure": dict(doc="support_kb", q=0, strategy="fixed", unit="words", size=50, overlap=0),
    "runts": dict(
        doc="regional_revenue", q=0, strategy="structural", unit="chars", size=1800, overlap=150
    ),
    "tables": dict(
        doc="compute_pricing", q=0, strategy="structural", unit="chars", size=600, overlap=100
    ),
    "integrity": dict(doc="support_kb", q=0, strategy="fixed", unit="words", size=50, overlap=0),
}
