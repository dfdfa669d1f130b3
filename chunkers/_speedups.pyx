# cython: language_level=3, boundscheck=False, wraparound=False, initializedcheck=False
"""Compiled twins of the structural chunker's hottest steps (see speedups.py).

Block recognition has no twin: it is the CommonMark engine's (structural/engine.py).

``finish`` is the twin of ``spans.finish_python``: the same Chunk records,
with their fields set through the slot descriptors, which skips the frozen
dataclass's __init__ (a Python call per field: most of finish's time).

``surrogates_and_returns`` is the twin of ``text.surrogates_and_returns_python``:
the two checks every chunking call makes, in one pass instead of a UTF-8 copy
of the text and a search.

tests/chunkers/test_speedups.py holds every twin to its Python reference.
"""
from libc.string cimport memchr
from libc.stdint cimport uint16_t, uint32_t


cdef extern from "Python.h":
    int PyUnicode_KIND(object)
    void* PyUnicode_DATA(object)
    Py_UCS4 PyUnicode_READ(int kind, void* data, Py_ssize_t index)
    Py_ssize_t PyUnicode_FindChar(object, Py_UCS4 ch, Py_ssize_t start, Py_ssize_t end,
                                  int direction) except -2


cdef extern from *:
    """
    static PyObject *chunklab_new(PyObject *cls, PyObject *empty) {
        return ((PyTypeObject *)cls)->tp_new((PyTypeObject *)cls, empty, NULL);
    }
    static int chunklab_set(PyObject *descr, PyObject *obj, PyObject *value) {
        return Py_TYPE(descr)->tp_descr_set(descr, obj, value);
    }
    """
    object chunklab_new(object cls, tuple empty)
    int chunklab_set(object descr, object obj, object value) except -1


# Chunk's fields in the order finish fills them, checked against the class once
CHUNK_FIELDS = ("index", "body", "start", "end", "length", "kind", "heading_path",
                "overlap_prefix", "overlap_start", "overlap_end", "transcribed", "page",
                "header_repeated", "runt_excuse", "sentence_cut", "last_page",
                "seam")
cdef object _chunk_class = None
cdef tuple _slots = ()


cdef int _use_chunk_class(cls) except -1:
    global _chunk_class, _slots
    import dataclasses
    names = tuple(f.name for f in dataclasses.fields(cls))
    if names != CHUNK_FIELDS:
        raise RuntimeError(f"Chunk's fields changed; update _speedups.finish: {names}")
    slots = tuple(cls.__dict__.get(name) for name in names)
    # finish writes through each field's slot descriptor: anything else would crash it
    if any(type(d).__name__ != "member_descriptor" for d in slots):
        raise RuntimeError("Chunk is no longer a slots dataclass; update _speedups.finish")
    _slots = slots
    _chunk_class = cls
    return 0


cdef object _new_chunk(tuple values):
    cdef object chunk = chunklab_new(_chunk_class, ())
    cdef Py_ssize_t i
    for i in range(len(_slots)):
        chunklab_set(_slots[i], chunk, values[i])
    return chunk


def finish(src, list drafts, str unit, chunk_class, count_units):
    """spans.finish_python: slice bodies from the caller's text and number the chunks."""
    if chunk_class is not _chunk_class:
        _use_chunk_class(chunk_class)
    cdef list out = []
    cdef str orig = src.original, norm = src.norm
    cdef str header, norm_header, body, prefix
    cdef bint chars = unit == "chars"
    cdef Py_ssize_t index = 0, ds, de, s, e, hs, he, os_, oe, length
    # no CR was dropped (the usual case): offsets map to themselves
    to_src = src.to_source if len(orig) != len(norm) else None
    for draft in drafts:
        ds, de = draft.start, draft.end
        if to_src is None:
            s, e = ds, de
        else:
            s, e = to_src(ds), to_src(de)
        header = norm_header = ""
        span = draft.header
        if span is not None:
            hs, he = span
            norm_header = norm[hs:he]
            # copied from the caller's text by span, so CRLF stays CRLF (and a lone
            # surrogate stays itself: norm holds U+FFFD there)
            header = orig[hs:he] if to_src is None else orig[to_src(hs):to_src(he)]
        body = header + orig[s:e] if header else orig[s:e]
        os_, oe = draft.overlap_start, draft.overlap_end
        if oe > os_:
            if to_src is not None:
                os_, oe = to_src(os_), to_src(oe)
            prefix = orig[os_:oe]
        else:
            os_ = oe = s
            prefix = ""
        if chars:
            length = len(norm_header) + de - ds
        else:
            length = count_units(norm_header + norm[ds:de], unit)
        out.append(_new_chunk((index, body, s, e, length, draft.kind, draft.heading_path, prefix,
                               os_, oe, draft.transcribed, draft.page, span is not None,
                               draft.runt_excuse, draft.sentence_cut,
                               draft.last_page, draft.seam)))
        index += 1
    return out


def surrogates_and_returns(str text):
    """text.surrogates_and_returns_python: (a lone surrogate U+D800-U+DFFF is in
    the text, a carriage return is), in one pass over it."""
    cdef int kind = PyUnicode_KIND(text)
    cdef Py_ssize_t i, n = len(text)
    cdef const uint16_t* u
    cdef const uint32_t* w
    cdef uint32_t high = 0xFFFFF800u  # (typed: a bare literal this large is a Python int)
    cdef bint surrogate = False, cr = False
    if kind == 1:  # every character is below U+0100: no surrogates
        return False, memchr(PyUnicode_DATA(text), 13, n) != NULL
    # no early exit: a branch-free loop the compiler vectorises
    if kind == 2:
        u = <const uint16_t*>PyUnicode_DATA(text)
        for i in range(n):
            surrogate |= (u[i] & 0xF800) == 0xD800
            cr |= u[i] == 13
    else:
        w = <const uint32_t*>PyUnicode_DATA(text)
        for i in range(n):
            surrogate |= (w[i] & high) == 0xD800
            cr |= w[i] == 13
    return surrogate, cr
