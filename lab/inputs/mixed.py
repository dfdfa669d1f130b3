"""The mixed folder: one sample of each document type, with their gold sets, as
a routed corpus would hold them (the Routing lab measures it)."""

from __future__ import annotations

from lab.inputs.documents import read_document
from lab.inputs.gold import GoldQuestion, load_gold
from lab.inputs.samples import get_sample

# one sample per type: FAQ, API reference, transcript, contract, and prose
MIXED = ("library_faq", "api_reference", "council_transcript", "software_licence", "support_kb")


def mixed_folder() -> tuple[dict[str, str], list[GoldQuestion]]:
    """The mixed samples' texts by name, and every gold question naming its document."""
    docs: dict[str, str] = {}
    questions: list[GoldQuestion] = []
    for name in MIXED:
        sample = get_sample(name)
        docs[name] = read_document(sample.path).text
        if sample.gold_path is not None:
            questions += [
                GoldQuestion(g.question, g.answer, name, g.passages)
                for g in load_gold(sample.gold_path).questions
            ]
    return docs, questions
