"""One validated options object for every strategy (as Unstructured does)."""

from __future__ import annotations

from dataclasses import dataclass

from .model import UNITS

SWEEPS = ("backward", "forward", "off")
RUNT_FRACTION = 0.25  # a chunk under 25% of size is a runt (seed 000)
OVERFLOW_FRACTION = 1.25  # a merge may push a chunk to 125% of size

DEFAULT_SIZE = 1800
DEFAULT_OVERLAP = 150
DEFAULT_UNIT = "chars"
DEFAULT_STRATEGY = "structural"


@dataclass(frozen=True, slots=True)
class ChunkOptions:
    size: int = DEFAULT_SIZE
    overlap: int = DEFAULT_OVERLAP
    unit: str = DEFAULT_UNIT
    sweep: str = "backward"  # structural only: the runt sweep's direction, or off
    heading_paths: bool = True  # structural only: carry the heading ancestry

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
        if self.sweep not in SWEEPS:
            raise ValueError(f"sweep must be one of {', '.join(SWEEPS)}, got {self.sweep!r}")

    @classmethod
    def sized(
        cls, size: int | None = None, overlap: int | None = None, **options: object
    ) -> ChunkOptions:
        """Options from what a caller gave. With no size, seed 000's defaults
        (1800 with 150 overlap); an explicit size without an overlap means none."""
        if size is None:
            size = DEFAULT_SIZE
            overlap = DEFAULT_OVERLAP if overlap is None else overlap
        elif overlap is None:
            overlap = 0
        return cls(size=size, overlap=overlap, **options)  # type: ignore[arg-type]

    @property
    def floor(self) -> int:
        """Runt floor: the smallest length that is not a runt (25% of size, rounded up)."""
        return max(1, -(-self.size * 25 // 100))

    @property
    def overflow_limit(self) -> int:
        """The longest a runt merge may make a chunk (125% of size)."""
        return self.size * 125 // 100

    @property
    def effective_max(self) -> int:
        """size + floor - 1: the real ceiling once runts merge (seed 000: 2,249)."""
        return self.size + self.floor - 1
