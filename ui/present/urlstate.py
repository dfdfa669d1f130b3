"""The settings a link carries, parsed and validated without Streamlit.

A teacher sends ``?lab=boundary&doc=platform_data&q=0&strategy=fixed&unit=words
&size=24&overlap=0`` and the app opens exactly that view. Every bad or missing
value falls back to its default, and each bad value yields a one-line notice
for the page to show; nothing here raises on user input.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Mapping, Sequence
from dataclasses import asdict, dataclass, replace
from typing import Any, NamedTuple

from chunkers.model import UNITS
from chunkers.registry import OFFERED
from chunkers.tokens import DEFAULT_TOKENIZER
from lab.report.markup import md_escape
from lab.retrieval.bm25 import BM25_VARIANTS, DEFAULT_VARIANT
from lab.retrieval.embedders import DEFAULT_EMBEDDER
from lab.text import clip
from ui.present.sweeps import APP_TOKENIZERS, SIZE_LIMITS


class Lab(NamedTuple):
    slug: str  # what the URL says (or the lab's number)
    title: str
    page: str  # the page module that draws it, relative to the app's folder


# The labs in teaching order: the one list the navigation, the URL and the titles read.
# A lab's number is its place here, and its page module is named for its number and
# slug (lab_pages/lab9_small_to_big.py). Lab 8 came after the notebook, and Lab 12 at
# the end, so that every older link's lab number still opens the same lab.
_SLUGS_AND_TITLES = """
boundary       Boundary lottery
overlap        Overlap as insurance
structure      Structure beats arithmetic
runts          Runts and BM25
tables         Tables, transcripts, headings
integrity      Integrity check
notebook       Notebook
compare        Compare two configurations
small-to-big   Small to big
boilerplate    Boilerplate
judges         Two judges
routing        Routing
"""
LABS: tuple[Lab, ...] = tuple(
    Lab(slug, title, f"lab_pages/lab{n}_{slug.replace('-', '_')}.py")
    for n, (slug, title) in enumerate(
        (line.split(maxsplit=1) for line in _SLUGS_AND_TITLES.strip().splitlines()), start=1
    )
)
LAB_SLUGS = tuple(lab.slug for lab in LABS)

DEFAULT_DOC = "platform_data"  # the boundary-lottery document
# Switching unit starts from that unit's classic setting: the lottery widget
# (24 words, no overlap), the structural chunker's (1,800 chars, 150 overlap), or
# what most pipelines were set to (512 tokens, 50 overlap).
UNIT_DEFAULTS = {"words": (24, 0), "chars": (1800, 150), "tokens": (512, 50)}
# How a link says presenter mode is on or off (a teacher's bookmark for the projector).
_ON, _OFF = ("1", "true", "on", "yes"), ("0", "false", "off", "no")


# -- the embedder limit the truncation lesson starts at (most embedders read 512 tokens)
EMBEDDER_LIMIT = 512
LIMIT_MAX = 100_000


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
    bm25: str = DEFAULT_VARIANT  # the BM25 variant every lab that ranks shows
    embedder: str = DEFAULT_EMBEDDER  # the dense judge's model (one of app_embedders())
    tok: str = DEFAULT_TOKENIZER  # the tokenizer, when the unit is tokens
    limit: int = EMBEDDER_LIMIT  # the embedder's limit in tokens, for the truncation lesson

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


DEFAULTS = Settings()

# -- A link may name only an embedder the server offers: naming a module in a URL
# -- must never make the server import it. The server's owner lists their own
# -- (package.module:function, comma-separated) in this variable.
EMBEDDERS_ENV = "CHUNK_LAB_EMBEDDERS"


def app_embedders() -> tuple[str, ...]:
    """The embedders this app offers: wordllama, then any the server lists in
    CHUNK_LAB_EMBEDDERS."""
    listed = (e.strip() for e in os.environ.get(EMBEDDERS_ENV, "").split(","))
    return tuple(dict.fromkeys([DEFAULT_EMBEDDER, *(e for e in listed if e)]))


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
    return md_escape(repr(clip(raw, 40)))


@dataclass(frozen=True, slots=True)
class _Known:
    """What a link's values are checked against."""

    docs: Sequence[str]  # the sample names a link may open
    questions: Mapping[str, int]  # gold questions per sample (a missing entry: don't check)
    embedders: Sequence[str] = (DEFAULT_EMBEDDER,)  # the embedders the app offers


def _read_lab(raw: str, s: Settings, known: _Known) -> Settings | None:
    slug = lab_slug(raw)
    return None if slug is None else replace(s, lab=slug)


def _read_doc(raw: str, s: Settings, known: _Known) -> Settings | None:
    return replace(s, doc=raw) if raw in known.docs else None


def _read_q(raw: str, s: Settings, known: _Known) -> Settings | None:
    n, q = known.questions.get(s.doc), _int(raw)
    if q is None or q < 0 or (n is not None and q >= n):
        return None
    return replace(s, q=q)


def _why_q(s: Settings, known: _Known) -> str:
    n = known.questions.get(s.doc)
    return f"{s.doc} has questions {f'0-{n - 1}' if n else 'a question number'}"


def _read_strategy(raw: str, s: Settings, known: _Known) -> Settings | None:
    return replace(s, strategy=raw) if raw in OFFERED else None


def _read_unit(raw: str, s: Settings, known: _Known) -> Settings | None:
    if raw not in UNITS:
        return None
    size, overlap = UNIT_DEFAULTS[raw]  # a unit starts from its classic setting
    return replace(s, unit=raw, size=size, overlap=overlap)


def _read_tok(raw: str, s: Settings, known: _Known) -> Settings | None:
    v = raw.strip()
    return replace(s, tok=v) if v in APP_TOKENIZERS else None


def _read_size(raw: str, s: Settings, known: _Known) -> Settings | None:
    lo, hi = SIZE_LIMITS[s.unit]
    size = _int(raw)
    return replace(s, size=size) if size is not None and lo <= size <= hi else None


def _why_size(s: Settings, known: _Known) -> str:
    lo, hi = SIZE_LIMITS[s.unit]
    return f"size in {s.unit} must be a whole number from {lo} to {hi}"


def _read_overlap(raw: str, s: Settings, known: _Known) -> Settings | None:
    overlap = _int(raw)
    return replace(s, overlap=overlap) if overlap is not None and 0 <= overlap < s.size else None


def _read_presenter(raw: str, s: Settings, known: _Known) -> Settings | None:
    on = presenter_value(raw)
    return None if on is None else replace(s, presenter=on)


def _read_bm25(raw: str, s: Settings, known: _Known) -> Settings | None:
    v = raw.strip().lower()
    return replace(s, bm25=v) if v in BM25_VARIANTS else None


def _read_embedder(raw: str, s: Settings, known: _Known) -> Settings | None:
    return replace(s, embedder=raw.strip()) if raw.strip() in known.embedders else None


def _read_limit(raw: str, s: Settings, known: _Known) -> Settings | None:
    limit = _int(raw)
    return replace(s, limit=limit) if limit is not None and 1 <= limit <= LIMIT_MAX else None


class _Param(NamedTuple):
    """One query parameter: how to read it, what to say when it is bad, and
    what stands in for it then (the settings so far, unless ``fallback`` says)."""

    key: str
    read: Callable[[str, Settings, _Known], Settings | None]  # None: the value is bad
    why: Callable[[Settings, _Known], str]
    fallback: Callable[[Settings], Settings] = lambda s: s
    show: Callable[[Any], str] = str  # the value that stands in, as a notice says it


# In order: a later parameter is read against the settings the earlier ones made
# (q against its doc, size against its unit, overlap against its size).
PARAMS: tuple[_Param, ...] = (
    _Param("lab", _read_lab, lambda s, k: f"labs are 1-{len(LABS)} or {', '.join(LAB_SLUGS)}"),
    _Param("doc", _read_doc, lambda s, k: "no such sample document"),
    _Param("q", _read_q, _why_q),
    _Param("strategy", _read_strategy, lambda s, k: f"strategies are {', '.join(OFFERED)}"),
    _Param("unit", _read_unit, lambda s, k: f"units are {', '.join(UNITS)}"),
    _Param(
        "tok", _read_tok, lambda s, k: f"this app counts tokens with {', '.join(APP_TOKENIZERS)}"
    ),
    _Param("size", _read_size, _why_size),
    _Param(
        "overlap",
        _read_overlap,
        lambda s, k: f"overlap must be from 0 to {max_overlap(s.size)}, below the size",
        lambda s: replace(s, overlap=0),
    ),
    _Param(
        "presenter",
        _read_presenter,
        lambda s, k: "presenter is 1 or 0",
        show=lambda on: "1" if on else "0",
    ),
    _Param(
        "limit",
        _read_limit,
        lambda s, k: f"the embedder's limit must be a whole number of tokens from 1 to {LIMIT_MAX}",
    ),
    _Param("bm25", _read_bm25, lambda s, k: f"BM25 variants are {', '.join(BM25_VARIANTS)}"),
    _Param(
        "embedder",
        _read_embedder,
        lambda s, k: f"this app offers the embedder(s) {', '.join(k.embedders)}",
    ),
)


def parse_params(
    params: Mapping[str, Any],
    docs: Sequence[str],
    questions: Mapping[str, int] | None = None,
    *,
    source: str = "Link",
    embedders: Sequence[str] | None = None,
) -> tuple[Settings, list[str]]:
    """Settings from query parameters, plus one notice per value that was ignored.

    ``docs`` are the sample names a link may open; ``questions`` maps a sample
    to how many gold questions it has (a missing entry means "don't check").
    ``source`` names where the values came from in the notices ("Link", "Pin").
    ``embedders`` are those a link may name (default: ``app_embedders()``).
    """
    known = _Known(docs, questions or {}, app_embedders() if embedders is None else embedders)
    notices: list[str] = []
    s = DEFAULTS
    for param in PARAMS:
        raw = _one(params, param.key)
        if raw is None:
            continue
        read = param.read(raw, s, known)
        if read is None:
            why = param.why(s, known)
            s = param.fallback(s)
            notices.append(
                f"{source} value {param.key}={_short(raw)} ignored ({why}); "
                f"using {param.show(getattr(s, param.key))}."
            )
        else:
            s = read
    if _one(params, "overlap") is None and s.overlap >= s.size:
        s = replace(s, overlap=clamp_overlap(s.overlap, s.size))

    unknown = sorted(k for k in params if k not in PARAM_KEYS)
    if unknown:
        names = ", ".join(md_escape(clip(str(k), 40)) for k in unknown)
        notices.append(f"{source} parameter(s) {names} not understood and ignored.")
    return s, notices


PARAM_KEYS = tuple(param.key for param in PARAMS)


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
    if settings.unit == "tokens" and settings.tok != DEFAULT_TOKENIZER:
        out["tok"] = settings.tok  # the default tokenizer goes unsaid
    if settings.strategy not in OFFERED:  # your chunks cannot travel in a link either
        out.pop("strategy")
    if settings.presenter:  # only said when on: an ordinary link stays as it was
        out["presenter"] = "1"
    # -- the judges, too, only when they are not the defaults
    if settings.bm25 != DEFAULT_VARIANT:
        out["bm25"] = settings.bm25
    if settings.embedder != DEFAULT_EMBEDDER:
        out["embedder"] = settings.embedder
    if settings.limit != EMBEDDER_LIMIT:  # -- the lesson's limit, only when moved
        out["limit"] = str(settings.limit)
    if not shareable_doc:
        out.pop("doc")
        out.pop("q")
    return out


# What each lab's "set up the example" button loads (the lottery widget for the
# lottery labs, the revenue report and the price tables for the BM25 labs).
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
    "small-to-big": dict(
        doc="api_reference", q=0, strategy="structural", unit="chars", size=400, overlap=0
    ),
    "boilerplate": dict(
        doc="warehouse_manual", q=0, strategy="sentence", unit="chars", size=500, overlap=0
    ),
    "judges": dict(
        doc="support_kb", q=0, strategy="structural", unit="chars", size=1000, overlap=100
    ),
    "routing": dict(
        doc="council_transcript", q=0, strategy="routed", unit="chars", size=600, overlap=0
    ),
}


# The settings a link may carry that pick a view (presenter mode alone opens no example).
SETTING_KEYS = tuple(k for k in PARAM_KEYS if k != "presenter")


def example_for(lab: str, *, upload: bool = False, own_chunks: bool = False) -> dict[str, Any]:
    """What a first visit to ``lab`` loads: its example's settings; nothing when the user
    has their own document or chunks open (an example's size and strategy are chosen for
    its own document and say nothing in particular about another, so theirs carry)."""
    return {} if upload or own_chunks else dict(LAB_PRESETS.get(lab, {}))
