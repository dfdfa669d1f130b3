"""Embedders for the dense judge: the bundled wordllama model, or a callable a user brings.

An embedder is a function of a list of texts returning one vector per text, an
array-like of shape (n, d). ``load_embedder`` names one: ``"wordllama"``, the
default, or ``"package.module:function"`` for any callable importable here
(the user's own model). Vectors are scaled to unit length, so a dot product is
the cosine; a text with no vector (all zeros) has cosine 0 with everything.

-- once per process --
The wordllama model loads on first use and is kept for the process, shared by
every user of the app (a lock keeps two first uses from loading it twice).
Vectors are kept in an LRU keyed by (embedder name, text): a slider step embeds
only the chunks whose text changed.

-- offline --
wordllama's weights (16 MB, 256 dimensions) ship inside its wheel. Its
``WordLlama.load()`` looks for the tokenizer under ``<package>/tokenizer/``
while the wheel keeps it in ``<package>/tokenizers/``, and then downloads it.
Loading with ``cache_dir=<package>`` makes its second place to look,
``<cache_dir>/tokenizers/``, the right one, and ``disable_download=True`` turns
anything missing into an error instead of a download. Nothing here opens a
connection; the tests load the model with the network blocked.

-- licences --
* The wordllama package (code): MIT, copyright 2024 Lee Miller, per the wheel's
  metadata (its License field and ``licenses/LICENSE``) and the project's README.
* Its weights (``l2_supercat``, the 256-dimension file inside the wheel): the
  author publishes them under MIT too (the model card of
  ``dleemiller/word-llama-l2-supercat`` on Hugging Face says ``license: mit``).
  They are not independent of Meta's Llama 2, though: the README says
  l2_supercat was trained from the token-embedding tables of several models
  sharing Llama 2's tokenizer (Llama 2 70B and phi-3 medium among them), and
  the tokenizer file shipped beside the weights is Llama 2's. Llama 2's own
  terms (the Llama 2 Community License and its acceptable use policy) may
  therefore reach the weights as derived material. The lab does not ship the
  weights itself (pip installs the package), and teaching with them is not a
  use either licence forbids; whoever ships them in a product should read
  Meta's licence for themselves.
"""

from __future__ import annotations

import importlib
import logging
import threading
from collections import OrderedDict
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from .tokenize import cjk_share, has_cjk

WORDLLAMA = "wordllama"
DEFAULT_EMBEDDER = WORDLLAMA
WORDLLAMA_CONFIG = "l2_supercat"  # the model the wheel carries
WORDLLAMA_DIM = 256  # its one shipped size; the others are downloads
# -- 16,384 vectors of 256 float32s are 16 MB: every chunk of several documents at
# -- a few sizes each, so sliding back to a size seen before embeds nothing
CACHE_SIZE = 16_384


class EmbedderError(ValueError):
    """An embedder that cannot be loaded or returned something unusable (one line)."""


def _one_line(exc: BaseException) -> str:
    lines = str(exc).strip().splitlines()
    return f"{type(exc).__name__}: {lines[0]}" if lines else type(exc).__name__


# --------------------------------------------------------------------------- the cache


class EmbeddingCache:
    """Unit vectors by (embedder name, text), least recently used dropped first; thread-safe."""

    def __init__(self, maxsize: int = CACHE_SIZE) -> None:
        if maxsize < 0:
            raise ValueError(f"maxsize must be >= 0, got {maxsize}")
        self.maxsize = maxsize
        self.hits = 0
        self.misses = 0
        self._vectors: OrderedDict[tuple[str, str], np.ndarray] = OrderedDict()
        self._lock = threading.Lock()

    def __len__(self) -> int:
        return len(self._vectors)

    def lookup(self, name: str, texts: Sequence[str]) -> list[np.ndarray | None]:
        """The cached vector of each text, None where there is none (counted as a miss)."""
        found: list[np.ndarray | None] = []
        with self._lock:
            for t in texts:
                v = self._vectors.get((name, t))
                if v is None:
                    self.misses += 1
                else:
                    self._vectors.move_to_end((name, t))
                    self.hits += 1
                found.append(v)
        return found

    def store(self, name: str, texts: Sequence[str], vectors: np.ndarray) -> None:
        with self._lock:
            for t, v in zip(texts, vectors, strict=True):
                self._vectors[(name, t)] = v
                self._vectors.move_to_end((name, t))
            while len(self._vectors) > self.maxsize:
                self._vectors.popitem(last=False)

    def clear(self) -> None:
        with self._lock:
            self._vectors.clear()
            self.hits = self.misses = 0


EMBEDDING_CACHE = EmbeddingCache()  # the process's one cache, shared by every user


# --------------------------------------------------------------------------- an embedder


def _unit_rows(raw: Any, n: int, name: str) -> np.ndarray:
    """``raw`` checked to be n finite vectors, each scaled to length 1 (zero stays zero)."""
    want = f"it must return one vector per text, an array of shape ({n}, d)"
    try:
        arr = np.asarray(raw, dtype=np.float64)
    except (TypeError, ValueError):
        raise EmbedderError(
            f"embedder {name} returned {type(raw).__name__}, not numbers: {want}"
        ) from None
    if arr.ndim != 2 or arr.shape[0] != n or arr.shape[1] == 0:
        raise EmbedderError(
            f"embedder {name} returned shape {tuple(arr.shape)} for {n} texts: {want}"
        )
    if not np.isfinite(arr).all():
        raise EmbedderError(f"embedder {name} returned NaN or infinite numbers")
    norms = np.linalg.norm(arr, axis=1, keepdims=True)
    unit = np.divide(arr, norms, out=np.zeros_like(arr), where=norms > 0)
    return unit.astype(np.float32)


@dataclass(frozen=True, eq=False)
class Embedder:
    """A named function of texts -> vectors, with the cache its vectors go through."""

    name: str  # "wordllama" or the "package.module:function" it was loaded from
    function: Callable[[list[str]], Any]
    cache: EmbeddingCache | None = field(default=EMBEDDING_CACHE, repr=False)
    # -- False for wordllama (see ``reading_note``); a user's own model is taken at its word
    reads_cjk: bool = True

    def embed(self, texts: Sequence[str]) -> np.ndarray:
        """Unit vectors, one row per text (float32, shape (len(texts), d)).

        Only texts the cache does not hold reach the function, each once.
        EmbedderError (one line) when the function fails or returns the wrong shape.
        """
        texts = list(texts)
        if not texts:
            return np.zeros((0, 0), dtype=np.float32)
        cache = self.cache
        found = cache.lookup(self.name, texts) if cache is not None else [None] * len(texts)
        missing = list(dict.fromkeys(t for t, v in zip(texts, found, strict=True) if v is None))
        new: dict[str, np.ndarray] = {}
        if missing:
            fresh = self._call(missing)
            if cache is not None:
                cache.store(self.name, missing, fresh)
            new = dict(zip(missing, fresh, strict=True))
        vectors = [new[t] if v is None else v for t, v in zip(texts, found, strict=True)]
        dims = sorted({v.shape[0] for v in vectors})
        if len(dims) > 1:
            raise EmbedderError(
                f"embedder {self.name} returned vectors of {dims[0]} and of {dims[-1]} "
                "numbers: it must always return the same size"
            )
        return np.stack(vectors)

    def dimension(self) -> int:
        """The vectors' size, found by embedding one short text (an early check of the shape)."""
        return int(self.embed(["dimension check"]).shape[1])

    def _call(self, texts: list[str]) -> np.ndarray:
        try:
            raw = self.function(texts)
        except EmbedderError:
            raise
        except Exception as exc:
            raise EmbedderError(f"embedder {self.name} failed: {_one_line(exc)}") from None
        return _unit_rows(raw, len(texts), self.name)


# --------------------------------------------------------------------------- wordllama


def _import_wordllama() -> Any:
    root = logging.getLogger()
    handlers, level = list(root.handlers), root.level
    try:
        import wordllama
    except ImportError as exc:
        raise EmbedderError(
            f"the {WORDLLAMA} embedder needs the wordllama package "
            f"(pip install -r requirements.txt): {_one_line(exc)}"
        ) from None
    finally:
        # -- wordllama's inference module calls logging.basicConfig(level=INFO) when
        # -- imported, switching on INFO logs for the whole process; undo that
        for h in root.handlers[:]:
            if h not in handlers:
                root.removeHandler(h)
        root.setLevel(level)
    return wordllama


def load_wordllama() -> Any:
    """A fresh wordllama model from the weights inside the installed package; never downloads.

    Most callers want ``wordllama_model()``, the process's one copy.
    """
    wordllama = _import_wordllama()
    package = Path(wordllama.__file__).parent
    try:
        return wordllama.WordLlama.load(
            config=WORDLLAMA_CONFIG, dim=WORDLLAMA_DIM, cache_dir=package, disable_download=True
        )
    except FileNotFoundError as exc:
        raise EmbedderError(
            f"the {WORDLLAMA} model files are not inside the installed package "
            f"({_one_line(exc)}); reinstall it: pip install -r requirements.txt"
        ) from None


_MODEL: dict[str, Any] = {}
_MODEL_LOCK = threading.Lock()


def wordllama_model() -> Any:
    """The wordllama model, loaded on first use and then shared by the whole process."""
    model = _MODEL.get(WORDLLAMA)
    if model is None:
        with _MODEL_LOCK:
            model = _MODEL.get(WORDLLAMA)
            if model is None:
                model = _MODEL[WORDLLAMA] = load_wordllama()
    return model


def embed_wordllama(texts: list[str]) -> np.ndarray:
    """wordllama's average-pooled token vectors, (len(texts), 256), not yet normalised."""
    return wordllama_model().embed(list(texts), norm=False)


# --------------------------------------------------------------------------- what it can read

# -- a document this much Chinese, Japanese or Korean (of its letters and digits) is
# -- one the embedder must read: the FastAPI release notes' few Chinese names are not
UNREAD_SHARE = 0.2


def reading_note(embedder: Embedder, question: str, texts: Sequence[str] = ()) -> str:
    """The one line saying ``embedder`` cannot read ``question`` or ``texts``; "" when it can.

    The lab's one rule for it. wordllama's vocabulary is Llama 2's: a few hundred
    single Han characters and kana, every other one split into its UTF-8 bytes, and
    no Chinese or Japanese word at all. Two Chinese texts on unrelated topics get a
    cosine of 0.3 to 0.6 from the characters and bytes they share, so its verdict on
    such text is noise. It applies when the question holds any Han, kana or Hangul,
    or when ``UNREAD_SHARE`` of the texts' letters are.
    """
    if embedder.reads_cjk:
        return ""
    if not has_cjk(question) and cjk_share("\n".join(texts)) < UNREAD_SHARE:
        return ""
    return (
        f"dense ({embedder.name}) cannot read Chinese, Japanese or Korean: its vocabulary "
        "holds single characters and bytes, not words, so its cosines here are noise; "
        "hybrid falls back to BM25."
    )


# --------------------------------------------------------------------------- by name


def resolve_callable(spec: str) -> Callable[[list[str]], Any]:
    """The function named ``"package.module:function"`` (a dotted path after the colon
    reaches a method); EmbedderError, one line, naming what is wrong."""
    module_name, sep, attr = spec.partition(":")
    if not sep or not module_name or not attr or ":" in attr:
        raise EmbedderError(
            f"embedder {spec!r} is neither {WORDLLAMA!r} nor 'package.module:function'"
        )
    try:
        obj: Any = importlib.import_module(module_name)
    except ModuleNotFoundError as exc:
        missing = exc.name or ""
        if missing and (module_name == missing or module_name.startswith(missing + ".")):
            raise EmbedderError(
                f"embedder {spec!r}: no module named {missing!r} "
                "(is it installed, or on PYTHONPATH?)"
            ) from None
        raise EmbedderError(
            f"embedder {spec!r}: importing {module_name!r} failed: {_one_line(exc)}"
        ) from None
    except Exception as exc:
        raise EmbedderError(
            f"embedder {spec!r}: importing {module_name!r} failed: {_one_line(exc)}"
        ) from None
    for part in attr.split("."):
        try:
            obj = getattr(obj, part)
        except AttributeError:
            raise EmbedderError(f"embedder {spec!r}: {module_name!r} has no {attr!r}") from None
    if not callable(obj):
        raise EmbedderError(
            f"embedder {spec!r}: {attr!r} is a {type(obj).__name__}, "
            "not a function of a list of texts"
        )
    return obj


def load_embedder(spec: str = DEFAULT_EMBEDDER, *, cache: EmbeddingCache | None = None) -> Embedder:
    """The embedder ``spec`` names: "wordllama" or "package.module:function".

    Nothing is embedded or loaded yet (wordllama loads on first use); call
    ``dimension()`` to check a user's function returns the right shape early.
    ``cache`` defaults to the process's shared one.

    Raises:
        EmbedderError: one line, when ``spec`` names no function that can be
            imported.
    """
    spec = spec.strip()
    function = embed_wordllama if spec == WORDLLAMA else resolve_callable(spec)
    return Embedder(
        spec, function, EMBEDDING_CACHE if cache is None else cache, reads_cjk=spec != WORDLLAMA
    )
