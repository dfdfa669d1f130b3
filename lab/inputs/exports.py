"""Export chunks as JSONL and CSV with the chunking configuration inside, or in
the shapes LangChain and LlamaIndex load.

Store the chunking configuration with the index: every JSONL line and CSV
row carries the configuration, so a file cut from either still says how its
chunks were made; reading it back gives the same Chunk records. The LangChain
and LlamaIndex rows hold what the index reads (heading path + overlap + body,
as ``indexed_text`` builds it) as their text, and the body's source span, so
the lab's chunk importer places them back where they were cut from.
"""

from __future__ import annotations

import csv
import hashlib
import io
import json
from collections.abc import Mapping, Sequence
from dataclasses import fields
from typing import Any

from chunkers import Chunk, ChunkOptions, indexed_text
from chunkers.limit import indexed_lengths

from .documents import jsonl_lines

CHUNK_FIELDS = tuple(f.name for f in fields(Chunk))
CSV_FIELDS = ("config",) + CHUNK_FIELDS
_JSON_FIELDS = ("heading_path", "page", "last_page")  # lists and int-or-null, as JSON


class ExportError(ValueError):
    """A chunk file that cannot be read back; the message is one line."""


def chunking_config(document: str, text: str, strategy: str, opts: ChunkOptions) -> dict[str, Any]:
    """How ``document``'s chunks were made, as every exported chunk carries it: the
    options, the strategy, and the SHA-256 of the text the chunks were cut from."""
    return {
        "document": document,
        # surrogatepass: a lone surrogate (a lossy decode) still hashes, as itself
        "document_sha256": hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest(),
        "strategy": strategy,
        "size": opts.size,
        "overlap": opts.overlap,
        "unit": opts.unit,
        "runt_merge": opts.runt_merge,
        "heading_paths": opts.heading_paths,
        # -- named only in tokens: exports made in words or chars read back as before
        **({"tokenizer": opts.tokenizer} if opts.unit == "tokens" else {}),
        # -- named only when set: the embedder's limit the size was chosen for
        **({"limit": opts.limit} if opts.limit is not None else {}),
    }


def to_jsonl(chunks: Sequence[Chunk], config: Mapping[str, Any]) -> str:
    return "".join(
        json.dumps({"config": dict(config), "chunk": c.to_dict()}, ensure_ascii=False) + "\n"
        for c in chunks
    )


def _chunk(d: Any, where: str) -> Chunk:
    if not isinstance(d, dict):
        raise ExportError(f"{where}: chunk is not an object")
    missing = [k for k in ("index", "body", "start", "end", "length") if k not in d]
    if missing:
        raise ExportError(f"{where}: chunk lacks {', '.join(missing)}")
    unknown = [k for k in d if k not in CHUNK_FIELDS]
    if unknown:
        raise ExportError(f"{where}: unknown chunk field(s) {', '.join(unknown)}")
    try:
        return Chunk.from_dict(d)
    except (TypeError, ValueError) as exc:
        raise ExportError(f"{where}: {exc}") from None


def from_jsonl(text: str) -> tuple[dict[str, Any], list[Chunk]]:
    config: dict[str, Any] | None = None
    chunks: list[Chunk] = []
    for n, line in jsonl_lines(text):
        try:
            row = json.loads(line)
        except json.JSONDecodeError:
            raise ExportError(f"line {n}: not JSON") from None
        if not isinstance(row, dict) or "chunk" not in row or "config" not in row:
            raise ExportError(f"line {n}: expected an object with 'config' and 'chunk'")
        if config is None:
            config = row["config"]
        elif row["config"] != config:
            raise ExportError(f"line {n}: configuration differs from line 1")
        chunks.append(_chunk(row["chunk"], f"line {n}"))
    return config or {}, chunks


def to_csv(chunks: Sequence[Chunk], config: Mapping[str, Any]) -> str:
    return to_csv_many([(chunks, config)])


def to_csv_many(parts: Sequence[tuple[Sequence[Chunk], Mapping[str, Any]]]) -> str:
    """One CSV, one header, for the chunks of several documents (each with its config)."""
    buf = io.StringIO()
    # CRLF rows (RFC 4180): the writer then quotes every field holding a "\r" or a
    # "\n"; with "\n" rows it left a lone "\r" bare, and the reader broke the row there
    w = csv.DictWriter(buf, fieldnames=CSV_FIELDS, lineterminator="\r\n")
    w.writeheader()
    for chunks, config in parts:
        _csv_rows(w, chunks, config)
    return buf.getvalue()


def _csv_rows(w: csv.DictWriter, chunks: Sequence[Chunk], config: Mapping[str, Any]) -> None:
    cfg = json.dumps(dict(config), ensure_ascii=False, sort_keys=True)
    for c in chunks:
        d = c.to_dict()
        row = {"config": cfg}
        for k in CHUNK_FIELDS:
            v = d[k]
            row[k] = (
                json.dumps(v, ensure_ascii=False)
                if k in _JSON_FIELDS
                else (str(v).lower() if isinstance(v, bool) else v)
            )
        w.writerow(row)


_INTS = ("index", "start", "end", "length", "overlap_start", "overlap_end")
_BOOLS = ("transcribed", "header_repeated")


def from_csv(text: str) -> tuple[dict[str, Any], list[Chunk]]:
    reader = csv.DictReader(io.StringIO(text, newline=""))
    if reader.fieldnames is None or tuple(reader.fieldnames) != CSV_FIELDS:
        raise ExportError("not a chunk CSV: the header row does not match")
    config: dict[str, Any] | None = None
    chunks: list[Chunk] = []
    for n, row in enumerate(reader, start=2):
        try:
            cfg = json.loads(row["config"])
            d: dict[str, Any] = {k: row[k] for k in CHUNK_FIELDS}
            for k in _INTS:
                d[k] = int(d[k])
            for k in _BOOLS:
                if d[k] not in ("true", "false"):
                    raise ValueError(f"{k} must be true or false")
                d[k] = d[k] == "true"
            for k in _JSON_FIELDS:
                d[k] = json.loads(d[k])
        except (ValueError, TypeError, KeyError) as exc:
            raise ExportError(f"row {n}: {exc}".splitlines()[0]) from None
        if config is None:
            config = cfg
        elif cfg != config:
            raise ExportError(f"row {n}: configuration differs from the first row")
        chunks.append(_chunk(d, f"row {n}"))
    return config or {}, chunks


# -- the shapes other libraries load ------------------------------------------------------
EXPORT_FORMATS = ("jsonl", "csv", "langchain", "llamaindex")


def _metadata(
    document: str, c: Chunk, length: int, config: Mapping[str, Any], opts: ChunkOptions
) -> dict[str, Any]:
    return {
        "source": document,  # what LangChain's loaders name a document by
        "start": c.start,  # the body's source span; the text indexed ends with it
        "end": c.end,
        "heading_path": list(c.heading_path),
        "page": c.page,  # of its first character
        "last_page": c.last_page,  # of its last: another page when the chunk spans pages
        "kind": c.kind,
        "length": length,  # of the text indexed (heading path + overlap + body)
        "unit": opts.unit_name,
        "config": dict(config),
    }


def to_langchain(
    document: str, chunks: Sequence[Chunk], config: Mapping[str, Any], opts: ChunkOptions
) -> str:
    """JSON Lines of LangChain Documents, as ``Document.model_dump_json()`` writes them:
    ``page_content`` is the text indexed; ``Document(**json.loads(line))`` loads one."""
    rows = zip(chunks, indexed_lengths(chunks, opts), strict=True)
    return "".join(
        json.dumps(
            {
                "id": None,
                "metadata": _metadata(document, c, n, config, opts),
                "page_content": indexed_text(c),
                "type": "Document",
            },
            ensure_ascii=False,
        )
        + "\n"
        for c, n in rows
    )


def to_llamaindex(
    document: str, chunks: Sequence[Chunk], config: Mapping[str, Any], opts: ChunkOptions
) -> str:
    """JSON Lines of LlamaIndex TextNodes, as ``TextNode.to_json()`` writes them
    (``TextNode.from_json(line)`` loads one): ``text`` is the text indexed, and every
    metadata key is kept out of what the embedder and the LLM read, so the node
    embeds exactly that text."""
    rows = zip(chunks, indexed_lengths(chunks, opts), strict=True)
    out = []
    for c, n in rows:
        meta = _metadata(document, c, n, config, opts)
        node = {
            "id_": f"{document}#{c.index}",
            "embedding": None,
            "metadata": meta,
            "excluded_embed_metadata_keys": list(meta),
            "excluded_llm_metadata_keys": list(meta),
            "relationships": {},
            "metadata_template": "{key}: {value}",
            "metadata_separator": "\n",
            "text": indexed_text(c),
            "mimetype": "text/plain",
            "start_char_idx": c.start,
            "end_char_idx": c.end,
            "text_template": "{metadata_str}\n\n{content}",
            "class_name": "TextNode",
        }
        out.append(json.dumps(node, ensure_ascii=False) + "\n")
    return "".join(out)


def export_chunks(
    fmt: str, parts: Sequence[tuple[str, Sequence[Chunk], Mapping[str, Any]]], opts: ChunkOptions
) -> str:
    """The chunks of every (document, chunks, config) in ``parts``, one a line (CSV:
    one header), in one of EXPORT_FORMATS.

    Args:
        parts: per document, its name, its chunks and its ``chunking_config``.
        opts: the options the chunks were made with (LangChain and LlamaIndex
            records carry each indexed text's length in their unit).

    Raises:
        ValueError: ``fmt`` is not one of EXPORT_FORMATS.
    """
    if fmt not in EXPORT_FORMATS:
        raise ValueError(f"format must be one of {', '.join(EXPORT_FORMATS)}, got {fmt!r}")
    if fmt == "csv":
        return to_csv_many([(chunks, config) for _, chunks, config in parts])
    if fmt == "jsonl":
        return "".join(to_jsonl(chunks, config) for _, chunks, config in parts)
    write = to_langchain if fmt == "langchain" else to_llamaindex
    return "".join(write(doc, chunks, config, opts) for doc, chunks, config in parts)
