"""The runt merge, on bare lengths and on chunks alike.

A runt is a chunk under the floor (ChunkOptions.floor). The backward merge
merges each runt into the chunk before it, so small pieces coalesce with each
other before either reaches for a full-size neighbour; a merge that would pass
the overflow limit (the overflow guard) or mix trusted with transcribed text
(the trust guard) is refused. A runt the left merge refused may join the chunk
after it, and a leading runt merges forward, so the floor holds everywhere the
guards allow. The guards are one test (Guards.refusal): the merge asks it
before each merge and the packer asks it again to say why a runt was left.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Generic, TypeVar

from ..options import ChunkOptions

T = TypeVar("T")

TRUST = "trust"
OVERFLOW = "overflow"
SINGLE = "single chunk"


def _always(a: object, b: object) -> bool:
    return True


def _never(a: object) -> bool:
    return False


def _sum(length: Callable[[T], int]) -> Callable[[T, T], int]:
    return lambda a, b: length(a) + length(b)


@dataclass(frozen=True, slots=True)
class Guards(Generic[T]):
    """When a runt may merge: the limits (from ChunkOptions) and the trust test.

    Left merges may reach ``overflow_limit``; right merges (the fallback and the
    leading runt) stop at ``right_limit``, the effective maximum, so no merge
    ever makes a chunk longer than size + floor - 1 out of pieces within size.
    A merge is measured by ``joined``, the length of what it makes: the span it
    covers, with whatever lies between the two (by default, their sum; in tokens,
    the exact count of that span). A runt that ``leads`` (it ends with what
    introduces the text after it: a title, a lead-in) merges forward first, so
    that it stays with what it introduces.
    """

    floor: int
    overflow_limit: int
    right_limit: int
    length: Callable[[T], int]
    joined: Callable[[T, T], int]
    compatible: Callable[[T, T], bool] = _always
    leads: Callable[[T], bool] = _never

    @classmethod
    def of(
        cls,
        opts: ChunkOptions,
        length: Callable[[T], int],
        compatible: Callable[[T, T], bool] = _always,
        joined: Callable[[T, T], int] | None = None,
        leads: Callable[[T], bool] = _never,
    ) -> Guards[T]:
        # -- why -- 125 % of a size divisible by 4 is one past size + floor - 1, and a
        # -- chunk may already hold a whole block up to the effective maximum
        left = min(opts.overflow_limit, opts.effective_max)
        joined = joined or _sum(length)
        return cls(opts.floor, left, opts.effective_max, length, joined, compatible, leads)

    def refusal(self, a: T, b: T, limit: int) -> str:
        """Why a and b may not merge into one chunk of at most ``limit``; "" if they may."""
        if not self.compatible(a, b):
            return TRUST
        if self.joined(a, b) > limit:
            return OVERFLOW
        return ""

    def fits(self, a: T, b: T, limit: int) -> bool:
        return not self.refusal(a, b, limit)

    def is_runt(self, item: T) -> bool:
        return self.length(item) < self.floor

    def excuse(self, items: Sequence[T], i: int) -> str:
        """Why items[i], a runt the merge left, could merge with neither neighbour
        (the left one's reason first); "" when it is no runt."""
        if not self.is_runt(items[i]):
            return ""
        if len(items) == 1:
            return SINGLE
        reasons = []
        if i > 0:
            reasons.append(self.refusal(items[i - 1], items[i], self.overflow_limit))
        if i + 1 < len(items):
            reasons.append(self.refusal(items[i], items[i + 1], self.right_limit))
        return reasons[0] if all(reasons) else ""


def merge_runts(
    items: Sequence[T], direction: str, guards: Guards[T], merge: Callable[[T, T], T]
) -> list[T]:
    """Merge runts (length < floor). ``direction`` is backward, forward or off."""
    if direction == "off" or len(items) < 2:
        return list(items)
    fits, is_runt = guards.fits, guards.is_runt
    if direction == "forward":  # the counter-example: it stalls
        out: list[T] = [items[0]]
        for item in items[1:]:
            if is_runt(item) and fits(out[-1], item, guards.overflow_limit):
                out[-1] = merge(out[-1], item)
            else:
                out.append(item)
    elif direction == "backward":
        out = _backward(items, guards, merge)
    else:
        raise ValueError(f"runt_merge must be backward, forward or off, got {direction!r}")
    # a leading runt has nothing before it: it merges forward
    while len(out) > 1 and is_runt(out[0]) and fits(out[0], out[1], guards.right_limit):
        out[0:2] = [merge(out[0], out[1])]
    return out


def _backward(items: Sequence[T], guards: Guards[T], merge: Callable[[T, T], T]) -> list[T]:
    fits, is_runt, leads = guards.fits, guards.is_runt, guards.leads
    rev: list[T] = []  # finished chunks, right to left
    carry = items[-1]
    for left in reversed(items[:-1]):
        if is_runt(carry):
            if leads(carry) and rev and fits(carry, rev[-1], guards.right_limit):
                rev[-1] = merge(carry, rev[-1])  # what it introduces follows it
                carry = left
                continue
            if fits(left, carry, guards.overflow_limit):
                carry = merge(left, carry)
                continue
            if rev and fits(carry, rev[-1], guards.right_limit):
                rev[-1] = merge(carry, rev[-1])
                carry = left
                continue
        rev.append(carry)
        carry = left
    rev.append(carry)
    return rev[::-1]


def _add(a: int, b: int) -> int:
    return a + b


def _itself(n: int) -> int:
    return n


def merge_runt_lengths(lengths: Sequence[int], size: int, direction: str = "backward") -> list[int]:
    """The runt merge on bare lengths, as the runt examples state it (no overlap, no trust).

    Args:
        lengths: the chunks' lengths, in text order.
        size: the chunk size the floor and the overflow limit follow from.
        direction: "backward" (the chunker's), "forward" (the merge that stalls)
            or "off".

    Returns:
        The lengths after the merge: each merged pair summed.

    Raises:
        ValueError: an unknown direction.
    """
    guards: Guards[int] = Guards.of(ChunkOptions(size=size, overlap=0), _itself)
    return merge_runts(list(lengths), direction, guards, _add)
