from __future__ import annotations

import threading

import numpy as np
import pytest

from lab.retrieval.embedders import (
    DEFAULT_EMBEDDER,
    WORDLLAMA_DIM,
    Embedder,
    EmbedderError,
    EmbeddingCache,
    load_embedder,
    wordllama_model,
)

TOY = "tests.retrieval.toy_embedder"


def error_of(spec: str, *, embed: bool = False) -> str:
    with pytest.raises(EmbedderError) as caught:
        embedder = load_embedder(spec, cache=EmbeddingCache())
        if embed:
            embedder.dimension()
    message = str(caught.value)
    assert "\n" not in message  # one line, never a traceback
    return message


# --------------------------------------------------------------------------- loading by name


def test_a_users_function_loads_by_module_and_name():
    embedder = load_embedder(f"{TOY}:embed", cache=EmbeddingCache())
    assert embedder.name == f"{TOY}:embed"
    assert embedder.dimension() == 64


def test_a_method_and_plain_lists_are_fine():
    assert load_embedder(f"{TOY}:Encoder.encode", cache=EmbeddingCache()).dimension() == 64
    vectors = load_embedder(f"{TOY}:as_lists", cache=EmbeddingCache()).embed(["a b", "c"])
    assert vectors.shape == (2, 64)


@pytest.mark.parametrize(
    ("spec", "expected"),
    [
        ("sentence_transformers", "is neither 'wordllama' nor 'package.module:function'"),
        ("tests.retrieval.toy_embedder:", "is neither 'wordllama' nor"),
        (":embed", "is neither 'wordllama' nor"),
        ("a:b:c", "is neither 'wordllama' nor"),
        ("no_such_package_here.models:embed", "no module named 'no_such_package_here'"),
        (
            "tests.retrieval.no_such_module:embed",
            "no module named 'tests.retrieval.no_such_module'",
        ),
        (f"{TOY}:embedd", f"{TOY!r} has no 'embedd'"),
        (f"{TOY}:Encoder.decode", f"{TOY!r} has no 'Encoder.decode'"),
        (f"{TOY}:NOT_CALLABLE", "'NOT_CALLABLE' is a int, not a function of a list of texts"),
        (
            "tests.retrieval.broken_embedder:embed",
            "importing 'tests.retrieval.broken_embedder' failed: ModuleNotFoundError: "
            "No module named 'a_dependency_that_is_not_installed'",
        ),
    ],
)
def test_a_bad_name_is_one_line_saying_what_is_wrong(spec, expected):
    assert expected in error_of(spec)


@pytest.mark.parametrize(
    ("name", "expected"),
    [
        ("flat", "returned shape (1,) for 1 texts: it must return one vector per text"),
        ("one_short", "returned shape (0, 64) for 1 texts"),
        ("not_numbers", "returned list, not numbers"),
        ("with_nan", "returned NaN or infinite numbers"),
        ("raises", "failed: RuntimeError: model server not reachable"),
    ],
)
def test_a_function_that_breaks_the_contract_is_one_line_when_first_used(name, expected):
    load_embedder(f"{TOY}:{name}", cache=EmbeddingCache())  # loading alone is fine
    assert expected in error_of(f"{TOY}:{name}", embed=True)


def test_a_function_whose_vector_size_changes_is_refused():
    sizes = iter([3, 4])

    def moody(texts: list[str]) -> np.ndarray:
        return np.ones((len(texts), next(sizes)))

    embedder = Embedder("moody", moody, EmbeddingCache())
    embedder.embed(["first"])
    with pytest.raises(EmbedderError, match="vectors of 3 and of 4 numbers"):
        embedder.embed(["first", "second"])


# --------------------------------------------------------------------------- vectors


def test_vectors_come_back_unit_length_and_an_empty_one_stays_zero():
    def table(texts: list[str]) -> list[list[float]]:
        return [{"a": [3.0, 4.0], "zero": [0.0, 0.0]}[t] for t in texts]

    vectors = Embedder("table", table, None).embed(["a", "zero"])
    assert vectors.tolist() == [[pytest.approx(0.6), pytest.approx(0.8)], [0.0, 0.0]]
    assert vectors.dtype == np.float32


# --------------------------------------------------------------------------- the cache


class Counting:
    """A toy embedder that records what it was asked to embed."""

    def __init__(self) -> None:
        self.calls: list[list[str]] = []

    def __call__(self, texts: list[str]) -> np.ndarray:
        self.calls.append(list(texts))
        return np.array([[len(t), 1.0] for t in texts])


def test_a_slider_step_embeds_only_the_chunks_that_changed():
    fn, cache = Counting(), EmbeddingCache()
    embedder = Embedder("counting", fn, cache)
    first = embedder.embed(["chunk one", "chunk two", "chunk three"])
    again = embedder.embed(["chunk one", "chunk two, now longer", "chunk three"])
    assert fn.calls == [["chunk one", "chunk two", "chunk three"], ["chunk two, now longer"]]
    assert (cache.hits, cache.misses) == (2, 4)
    assert np.array_equal(first[0], again[0]) and np.array_equal(first[2], again[2])


def test_a_text_twice_in_one_call_is_embedded_once():
    fn = Counting()
    vectors = Embedder("counting", fn, EmbeddingCache()).embed(["same", "other", "same"])
    assert fn.calls == [["same", "other"]]
    assert np.array_equal(vectors[0], vectors[2])


def test_the_cache_keeps_embedders_apart_and_drops_the_least_recently_used():
    fn_a, fn_b, cache = Counting(), Counting(), EmbeddingCache(maxsize=2)
    a, b = Embedder("a", fn_a, cache), Embedder("b", fn_b, cache)
    a.embed(["x"])
    b.embed(["x"])  # same text, other embedder: embedded again
    assert fn_b.calls == [["x"]]
    a.embed(["x"])  # a's "x" is now the most recent; b's is the oldest
    a.embed(["y"])  # evicts b's "x"
    b.embed(["x"])  # embedded again; evicts a's "x", keeps a's "y"
    a.embed(["y"])
    assert fn_b.calls == [["x"], ["x"]] and fn_a.calls == [["x"], ["y"]]
    assert len(cache) == 2


def test_an_embedder_without_a_cache_embeds_every_time():
    fn = Counting()
    embedder = Embedder("counting", fn, None)
    embedder.embed(["a"])
    embedder.embed(["a"])
    assert fn.calls == [["a"], ["a"]]


# --------------------------------------------------------------------------- the default


def test_the_default_is_the_bundled_wordllama_with_256_numbers():
    embedder = load_embedder()
    assert embedder.name == DEFAULT_EMBEDDER == "wordllama"
    assert embedder.dimension() == WORDLLAMA_DIM == 256


def test_the_model_is_loaded_once_for_every_thread():
    got: list[object] = []
    threads = [threading.Thread(target=lambda: got.append(wordllama_model())) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert len(got) == 4 and all(m is got[0] for m in got)


def test_wordllama_puts_a_text_nearer_its_paraphrase_than_an_unrelated_one():
    vectors = load_embedder().embed(
        [
            "how long are audit logs kept?",
            "Audit logs are retained for 400 days.",
            "The cafeteria serves lunch from noon.",
        ]
    )
    assert vectors[0] @ vectors[1] > vectors[0] @ vectors[2]
