# cython: language_level=3, boundscheck=False, wraparound=False, initializedcheck=False
"""Compiled twins of the structural chunker's hottest steps (see speedups.py).

``scan`` is the twin of ``parse._Parser.run_python``: the same blocks and
sections, found in C. It walks the text once, line by line, and appends plain
blocks (prose, lists, code) to the parser's lists itself. One set of rules is
written here a second time: how lines are classified (blank, fence, ATX
heading, list marker). Everything else with a rule of its own goes back to the
parser's Python methods, so it lives in one place: the section stack and what
a heading means (``_Parser.heading``: levels, demotion, trust, pages), tables
(the GFM separator check, rows, captions), paragraphs that may be linearised
table rows. Character
classes follow Python's ``re``: ``\\s`` is ``str.isspace`` and ``\\d`` is
``str.isdecimal``.

``finish`` is the twin of ``spans.finish_python``: the same Chunk records,
with their fields set through the slot descriptors, which skips the frozen
dataclass's __init__ (a Python call per field: most of finish's time).

``surrogates_and_returns`` is the twin of ``text.surrogates_and_returns_python``:
the two checks every chunking call makes, in one pass instead of a UTF-8 copy
of the text and a search.

tests/chunkers/test_speedups.py holds every twin to its Python reference.
"""

cimport cython
from cpython.unicode cimport Py_UNICODE_ISDECIMAL, Py_UNICODE_ISSPACE
from libc.string cimport memchr
from libc.stddef cimport wchar_t
from libc.stdint cimport uint16_t, uint32_t


cdef extern from "wchar.h":
    wchar_t* wmemchr(const wchar_t* s, wchar_t c, size_t n)


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


cdef Py_UCS4 NL = 10


def scan(parser, str text):
    """Append ``text``'s blocks and sections to ``parser`` (a parse._Parser), in
    text order."""
    cdef _Scanner scanner = _Scanner(parser, text)
    scanner.run()


@cython.final  # direct calls, not through a method table: at() runs once per character
cdef class _Scanner:
    cdef object parser
    cdef str text
    cdef Py_ssize_t n
    cdef int kind
    cdef void* data
    cdef list kinds, starts, ends

    def __cinit__(self, parser, str text):
        self.parser = parser
        self.text = text
        self.n = len(text)
        self.kind = PyUnicode_KIND(text)
        self.data = PyUnicode_DATA(text)
        self.kinds = parser.kinds
        self.starts = parser.starts
        self.ends = parser.ends

    cdef inline Py_UCS4 at(self, Py_ssize_t i) noexcept:
        return PyUnicode_READ(self.kind, self.data, i)

    cdef inline bint blank(self, Py_ssize_t i) noexcept:
        """text[i] is whitespace other than a newline (re's [^\\S\\n])."""
        cdef Py_UCS4 c = self.at(i)
        return c != NL and Py_UNICODE_ISSPACE(c)

    cdef inline Py_ssize_t find(self, Py_UCS4 c, Py_ssize_t s, Py_ssize_t end) noexcept:
        """The first ``c`` (ASCII) in s:end, else -1: the C library's search per
        storage width (an API call per line cost more than the scan)."""
        cdef const char* p
        cdef const wchar_t* w
        cdef const uint16_t* u
        if s >= end:
            return -1
        if self.kind == 1:
            p = <const char*>memchr(<const char*>self.data + s, c, end - s)
            return -1 if p == NULL else p - <const char*>self.data
        if self.kind == 4 and sizeof(wchar_t) == 4:
            w = wmemchr(<const wchar_t*>self.data + s, c, end - s)
            return -1 if w == NULL else w - <const wchar_t*>self.data
        if self.kind == 2:
            u = <const uint16_t*>self.data
            while s < end and u[s] != c:
                s += 1
            return s if s < end else -1
        while s < end and self.at(s) != c:
            s += 1
        return s if s < end else -1

    cdef inline Py_ssize_t line_end(self, Py_ssize_t s, Py_ssize_t end) noexcept:
        """The first newline in s:end, else end."""
        cdef Py_ssize_t e = self.find(NL, s, end)
        return end if e < 0 else e

    cdef bint has_row_pipe(self, Py_ssize_t s, Py_ssize_t end) noexcept:
        """" | " occurs in s:end (every linearised table row holds one)."""
        cdef Py_ssize_t i = self.find(u'|', s + 1, end - 1)
        while i >= 0:
            if self.at(i - 1) == u' ' and self.at(i + 1) == u' ':
                return True
            i = self.find(u'|', i + 1, end - 1)
        return False

    cdef Py_ssize_t blank_line_end(self, Py_ssize_t s) noexcept:
        """Where the line starting at s ends if it is blank (the text's end counts
        as an empty line), else -1."""
        cdef Py_ssize_t i = s
        cdef Py_UCS4 c
        while i < self.n:
            c = self.at(i)
            if c == NL:
                return i
            if not Py_UNICODE_ISSPACE(c):
                return -1
            i += 1
        return self.n

    cdef int add(self, str kind, Py_ssize_t s, Py_ssize_t e) except -1:
        self.kinds.append(kind)
        self.starts.append(s)
        self.ends.append(e)
        return 0

    cdef run(self):
        cdef Py_ssize_t n = self.n, i = 0, pos, start, end, ls, le, be, nb, resume = 0
        while i < n and Py_UNICODE_ISSPACE(self.at(i)):
            i += 1
        if i == n:
            return
        pos = PyUnicode_FindChar(self.text, NL, 0, i, -1) + 1  # the first group's first line
        while pos < n:
            # a group: non-blank lines from pos up to a blank line or the end
            start = ls = pos
            while True:
                le = self.line_end(ls, n)
                if le == n:
                    end = pos = n
                    break
                be = self.blank_line_end(le + 1)
                if be < 0:
                    ls = le + 1
                    continue
                end = le
                while be < n:  # every blank line after it
                    nb = self.blank_line_end(be + 1)
                    if nb < 0:
                        break
                    be = nb
                pos = be + 1 if be < n else n
                break
            if start < resume:
                if end <= resume:
                    continue  # inside a fence that ran past its group
                start = resume + 1  # the line after a closing fence
            while start < end:
                resume = self.lines(start, end)
                start = resume + 1  # a fence closed inside the group: go on after it

    cdef Py_ssize_t lines(self, Py_ssize_t start, Py_ssize_t end) except -1:
        """parse._Parser.lines: the group line by line; returns where to go on."""
        cdef Py_ssize_t ps = start, count = 0, s = start, e, j, k, t, table_end
        cdef int level
        cdef Py_UCS4 c
        while s < end:
            e = self.line_end(s, end)
            # a fence opens: [ \t]* then 3+ backticks (no backtick after them) or tildes
            j = s
            while j < e and (self.at(j) == u' ' or self.at(j) == u'\t'):
                j += 1
            if j < e:
                c = self.at(j)
                if c == u'`' or c == u'~':
                    k = j
                    while k < e and self.at(k) == c:
                        k += 1
                    if k - j >= 3 and not (c == u'`' and self.find(c, k, e) >= 0):
                        if count:
                            self.flush(ps, s - 1)
                        return self.fence(s, e, c, k - j)
            # an ATX heading: up to 3 spaces, 1-6 hashes, then the end or blanks and a title
            level = 0
            j = s
            while j < e and self.at(j) == u' ':
                j += 1
            if j - s <= 3:
                k = j
                while k < e and self.at(k) == u'#':
                    k += 1
                if 1 <= k - j <= 6 and (k == e or self.at(k) == u' ' or self.at(k) == u'\t'):
                    level = k - j
            if level:
                if count:
                    self.flush(ps, s - 1)
                    count = 0
                t = k
                while t < e and (self.at(t) == u' ' or self.at(t) == u'\t'):
                    t += 1
                self.heading(s, e, level, t)
            else:
                table_end = -1
                if e < end and self.find(u'|', s, e) >= 0 and self.maybe_separator(e + 1, end):
                    table_end = self.parser.table(s, e, end, ps, count)
                if table_end >= 0:
                    count = 0
                    s = table_end + 1
                    continue
                if not count:  # the line joins the paragraph
                    ps = s
                count += 1
            s = e + 1
        if count:
            self.flush(ps, end)
        return end

    cdef bint maybe_separator(self, Py_ssize_t s, Py_ssize_t end) noexcept:
        """The line at s could be a table's |---| separator: only [ \\t|:-], a pipe
        and a dash. The parser's table() makes the exact check."""
        cdef bint pipe = False, dash = False
        cdef Py_UCS4 c
        while s < end:
            c = self.at(s)
            if c == NL:
                break
            if c == u'|':
                pipe = True
            elif c == u'-':
                dash = True
            elif not (c == u' ' or c == u'\t' or c == u':'):
                return False
            s += 1
        return pipe and dash

    cdef bint list_start(self, Py_ssize_t s, Py_ssize_t end) noexcept:
        """parse._LIST_START.match(text, s, end)."""
        cdef Py_ssize_t i = s, d
        cdef Py_UCS4 c
        while i < end and (self.at(i) == u' ' or self.at(i) == u'\t'):
            i += 1
        if i >= end:
            return False
        c = self.at(i)
        if c == u'-' or c == u'*' or c == u'+':
            i += 1
        elif Py_UNICODE_ISDECIMAL(c):
            d = i
            while i < end and Py_UNICODE_ISDECIMAL(self.at(i)):
                i += 1
            if i - d > 9 or i >= end or not (self.at(i) == u'.' or self.at(i) == u')'):
                return False
            i += 1
        else:
            return False
        return i == end or self.at(i) == u' ' or self.at(i) == u'\t' or self.at(i) == NL

    cdef int flush(self, Py_ssize_t ps, Py_ssize_t pe) except -1:
        """parse._Parser.flush; only a paragraph that may hold linearised table rows
        goes back to Python."""
        if self.list_start(ps, pe):
            self.add("list", ps, pe)
        elif not self.has_row_pipe(ps, pe):
            self.add("prose", ps, pe)
        else:
            self.parser.flush(ps, pe)
        return 0

    cdef Py_ssize_t fence(self, Py_ssize_t s, Py_ssize_t e, Py_UCS4 c, Py_ssize_t width) except -1:
        """parse._Parser.fence: through the first line of only blanks and at least
        ``width`` ``c``s, else to the end of the text."""
        cdef Py_ssize_t n = self.n, p = e, nl, i, k, end = -1
        while True:
            nl = self.find(NL, p, n)
            if nl < 0:
                break
            i = nl + 1
            while i < n and self.blank(i):
                i += 1
            k = i
            while k < n and self.at(k) == c:
                k += 1
            if k - i >= width:
                while k < n and self.blank(k):
                    k += 1
                if k == n or self.at(k) == NL:
                    end = k
                    break
            p = nl + 1
        if end < 0:  # an unclosed fence runs to the end of the last line
            end = n - 1 if n and self.at(n - 1) == NL else n
        self.add("code", s, end)
        return end

    cdef int heading(self, Py_ssize_t s, Py_ssize_t e, int level, Py_ssize_t t) except -1:
        """An ATX heading whose title starts at t (after the blanks that follow the
        hashes): the section stack is parse._Parser.heading's alone."""
        self.parser.heading(s, e, level, self.text[t:e])
        return 0


# Chunk's fields in the order finish fills them, checked against the class once
CHUNK_FIELDS = ("index", "body", "start", "end", "length", "kind", "heading_path",
                "overlap_prefix", "overlap_start", "overlap_end", "transcribed", "page",
                "header_repeated", "runt_excuse", "last_page", "seam")
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
                               draft.runt_excuse, draft.last_page, draft.seam)))
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
