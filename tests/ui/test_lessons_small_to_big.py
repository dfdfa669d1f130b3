"""Lab 9's table of hits: what the small-to-big lab shows of each child."""

from __future__ import annotations

from lab.measure.diff import parse_config
from lab.measure.small_to_big import SmallToBig, parse_tiers
from ui.present.lessons import hit_rows

# -- sections whose list fits a child of its own but not beside its heading and
# -- lead-in: the child that holds the list's first items opens with both
SECTIONS = {
    "Restarting the feed pump": ("valve", "pump"),
    "Draining the condenser": ("drain cock", "condenser"),
    "Purging the fuel line": ("purge port", "fuel line"),
}


def _manual() -> str:
    parts = ["# Boiler plant manual"]
    for title, (part, unit) in SECTIONS.items():
        lead = f"Before the {unit} is brought back into service, the crew checks each of these:"
        items = "\n".join(f"- The {part} number {i} is closed and tagged." for i in range(4))
        parts += [f"## {title}", lead, items]
    return "\n\n".join(parts) + "\n"


def test_small_to_big_children_open_with_their_heading_and_lead_in() -> None:
    s2b = SmallToBig(
        {"": _manual()},
        parse_tiers("structural:chars:200:0/structural:chars:1800:0"),
        parse_config("structural:chars:200:0"),
    )
    res = s2b.resolve("drain cock number 0 closed and tagged", 3)
    rows = hit_rows(res, None)
    # the row of the child that holds the list's first item
    (row,) = [r for r, h in zip(rows, res.hits, strict=True) if "cock number 0" in h.child.body]
    assert row["child text"].startswith("## Draining the condenser Before the condenser")
    assert row["child's headings"] == "Boiler plant manual > Draining the condenser"
    # no child ends with a heading or a lead-in while its parent goes on
    children = s2b.trees[""].children
    assert [c.body for c in children if c.body.rstrip().endswith(("these:", "condenser"))] == []
