"""Lab 10's "what conversion did": one document's versions as table rows (no Streamlit)."""

from __future__ import annotations

from lab.measure.conversion import ReadingOrder, Version


def version_rows(versions: list[Version]) -> list[dict[str, object]]:
    source = versions[0] if versions else None
    rows = []
    for v in versions:
        kept = len(source.headings) - len(v.missing_headings) if source else 0
        rows.append(
            {
                "version": v.label,
                "headings kept": f"{kept} of {len(source.headings)}" if source else "-",
                "tables": v.tables,
                "repeated on the pages": len(v.boilerplate),
                "chunks": v.chunks,
                "answers no longer as written": len(v.lost),
                "answers intact": f"{v.intact} of {v.asked}",
                "found in the top k": f"{v.found} of {v.asked}",
                "mean rank": round(v.mean_rank, 2) if v.mean_rank is not None else "-",
            }
        )
    return rows


def reading_rows(found: list[ReadingOrder]) -> list[dict[str, object]]:
    """A row per version: the source's sentences it reads whole, its headings kept."""
    return [
        {
            "version": r.label,
            "sentences whole": f"{r.sentences_whole} of {r.sentences}",
            "headings kept": f"{r.headings_kept} of {r.headings}",
        }
        for r in found
    ]


def first_lines(text: str, lines: int = 14) -> str:
    """The opening of a version, as the lesson shows it side by side."""
    return "\n".join(text.splitlines()[:lines])
