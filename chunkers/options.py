"""One validated options object for every strategy (as Unstructured does)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from .model import UNITS
from .tokens import DEFAULT_TOKENIZER, Tokenizer, tokenizer_for

RUNT_MERGES = ("backward", "forward", "off")
_TOKENS = " tokens"


def unit_name(unit: str, tokenizer: str = DEFAULT_TOKENIZER) -> str:
    """A unit as a reader names it: chars, words, or a tokenizer's tokens
    ("cl100k_base tokens"): the tokens of two tokenizers are two units."""
    return f"{tokenizer}{_TOKENS}" if unit == "tokens" else unit


@dataclass(frozen=True, slots=True)
class Unit:
    """A unit of length: words, chars or tokens, and (in tokens) whose tokens.

    Written as its name (``str(unit)``, unit_name) wherever it is shown or travels
    as text (a link, a cache key); ``Unit.named`` reads the name back."""

    base: str  # words, chars or tokens
    tokenizer: str = DEFAULT_TOKENIZER  # whose tokens; words and chars ignore it

    @classmethod
    def named(cls, name: str) -> Unit:
        """The unit a name says ("tokens" alone is the default tokenizer's)."""
        if name.endswith(_TOKENS) and len(name) > len(_TOKENS):
            return cls("tokens", name[: -len(_TOKENS)])
        return cls(name)

    def __str__(self) -> str:
        return unit_name(self.base, self.tokenizer)


DEFAULT_SIZE = 1800
DEFAULT_OVERLAP = 150
DEFAULT_UNIT = "chars"
DEFAULT_STRATEGY = "structural"


@dataclass(frozen=True, slots=True)
class ChunkOptions:
    """Size, overlap and unit, and the limits that follow from the size.

    ``tokenizer`` names what counts tokens when the unit is tokens (an OpenAI
    encoding, or the path of a tokenizer.json; see chunkers.tokens). It is a
    name, not a loaded tokenizer, so options stay frozen, hashable and comparable.

    The runt rule's two fractions are defined here and nowhere else: the floor,
    the overflow limit and the effective maximum are read from these properties
    by the packer, the runt merge on bare lengths and the lab.
    """

    # -- a chunk under a quarter of size is a runt; a merge may reach 125 % of size --
    RUNT_PERCENT: ClassVar[int] = 25
    OVERFLOW_PERCENT: ClassVar[int] = 125

    size: int = DEFAULT_SIZE
    overlap: int = DEFAULT_OVERLAP
    unit: str = DEFAULT_UNIT
    runt_merge: str = "backward"  # structural only: the runt merge's direction, or off
    heading_paths: bool = True  # structural only: carry the heading ancestry
    tokenizer: str = DEFAULT_TOKENIZER  # unit tokens only
    # the embedder's hard limit, in the unit: no chunk's indexed text (heading path +
    # overlap + body) passes it; the size is then the largest that keeps to it
    # (chunkers.limit), at most ``size``
    limit: int | None = None

    def __post_init__(self) -> None:
        if isinstance(self.size, bool) or not isinstance(self.size, int) or self.size < 1:
            raise ValueError(f"size must be an integer >= 1, got {self.size!r}")
        if isinstance(self.overlap, bool) or not isinstance(self.overlap, int) or self.overlap < 0:
            raise ValueError(f"overlap must be an integer >= 0, got {self.overlap!r}")
        if self.overlap >= self.size:
            raise ValueError(
                f"overlap must be smaller than size (0 to {self.size - 1}), got {self.overlap}"
            )
        if self.unit not in UNITS:
            raise ValueError(f"unit must be one of {', '.join(UNITS)}, got {self.unit!r}")
        if self.unit == "tokens":
            tokenizer_for(self.tokenizer)  # loads it once per process; a one-line ValueError
        elif self.tokenizer != DEFAULT_TOKENIZER:
            # -- two options that chunk alike must compare equal (caches, pins, the diff)
            raise ValueError(
                f"a tokenizer ({self.tokenizer!r}) applies only to the unit tokens, "
                f"not {self.unit}: choose unit tokens or leave the tokenizer out"
            )
        if self.limit is not None:
            if isinstance(self.limit, bool) or not isinstance(self.limit, int) or self.limit < 1:
                raise ValueError(f"limit must be an integer >= 1, got {self.limit!r}")
            if self.limit <= self.overlap:
                # -- an overlap prefix alone would fill what the embedder reads
                raise ValueError(
                    f"limit ({self.limit}) must be larger than overlap ({self.overlap}): "
                    "a chunk's overlap and at least one unit of its own must fit"
                )
        if self.runt_merge not in RUNT_MERGES:
            raise ValueError(
                f"runt_merge must be one of {', '.join(RUNT_MERGES)}, got {self.runt_merge!r}"
            )

    @classmethod
    def sized(
        cls, size: int | None = None, overlap: int | None = None, **options: object
    ) -> ChunkOptions:
        """Options from what a caller gave. With no size, the defaults
        (1800 with 150 overlap); an explicit size without an overlap means none."""
        if size is None:
            size = DEFAULT_SIZE
            overlap = DEFAULT_OVERLAP if overlap is None else overlap
        elif overlap is None:
            overlap = 0
        return cls(size=size, overlap=overlap, **options)  # type: ignore[arg-type]

    @property
    def unit_name(self) -> str:
        """The unit as a reader names it (unit_name)."""
        return unit_name(self.unit, self.tokenizer)

    @property
    def counter(self) -> Tokenizer | None:
        """The tokenizer that measures lengths in tokens; None in words and chars."""
        return tokenizer_for(self.tokenizer) if self.unit == "tokens" else None

    @property
    def floor(self) -> int:
        """Runt floor: the smallest length that is not a runt (RUNT_PERCENT of size,
        rounded up)."""
        return max(1, -(-self.size * self.RUNT_PERCENT // 100))

    @property
    def overflow_limit(self) -> int:
        """The longest a left runt merge may make a chunk (OVERFLOW_PERCENT of size)."""
        return self.size * self.OVERFLOW_PERCENT // 100

    @property
    def effective_max(self) -> int:
        """size + floor - 1: the real ceiling once runts merge (2,249 at size 1,800)."""
        return self.size + self.floor - 1
