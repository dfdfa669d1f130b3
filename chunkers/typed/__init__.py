"""A chunker per document type: each cuts where its type's grain lies (units.py packs)."""

from .api import api_drafts
from .contract import contract_drafts
from .faq import faq_drafts
from .transcript import transcript_drafts

__all__ = ["api_drafts", "contract_drafts", "faq_drafts", "transcript_drafts"]
