"""The runt sweep (seed 000), on bare lengths and on chunks alike.

A runt is a chunk under 25% of size. The backward sweep merges each runt into
the chunk before it, so small pieces coalesce with each other before either
reaches for a full-size neighbour; a merge that would pass 125% of size (the
overflow guard) or mix trusted with transcribed text (the trust guard) is
refused. Beyond the seed's loop, a runt the left merge refused may join the
chunk after it, and a leading runt merges forward, so the floor holds
everywhere the guards allow.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TypeVar

T = TypeVar("T")


def sweep(
    items: Sequence[T],
    *,
    direction: str,
    floor: int,
    overflow_limit: int,
    right_limit: int,
    length: Callable[[T], int],
    merge: Callable[[T, T], T],
    compatible: Callable[[T, T], bool] = lambda a, b: True,
) -> list[T]:
    """Merge runts (length < floor). ``direction`` is backward, forward or off.

    Left merges may reach ``overflow_limit``; right merges (the fallback and the
    leading runt) stop at ``right_limit``, the effective maximum, so no merge
    ever makes a chunk longer than size + floor - 1 out of pieces within size.
    """
    if direction == "off" or len(items) < 2:
        return list(items)

    def fits(a: T, b: T, limit: int) -> bool:
        return compatible(a, b) and length(a) + length(b) <= limit

    if direction == "forward":  # the seed's counter-example: it stalls
        out: list[T] = [items[0]]
        for item in items[1:]:
            if length(item) < floor and fits(out[-1], item, overflow_limit):
                out[-1] = merge(out[-1], item)
            else:
                out.append(item)
    elif direction == "backward":
        rev: list[T] = []  # finished chunks, right to left
        carry = items[-1]
        for left in reversed(items[:-1]):
            if length(carry) < floor and fits(left, carry, overflow_limit):
                carry = merge(left, carry)
                continue
            if length(carry) < floor and rev and fits(carry, rev[-1], right_limit):
                rev[-1] = merge(carry, rev[-1])
            else:
                rev.append(carry)
            carry = left
        rev.append(carry)
        out = rev[::-1]
    else:
        raise ValueError(f"sweep must be backward, forward or off, got {direction!r}")
    # a leading runt has nothing before it: it merges forward
    while len(out) > 1 and length(out[0]) < floor and fits(out[0], out[1], right_limit):
        out[0:2] = [merge(out[0], out[1])]
    return out


def sweep_lengths(lengths: Sequence[int], size: int, direction: str = "backward") -> list[int]:
    """The sweep on bare lengths, as seed 000 states its examples."""
    floor = max(1, -(-size * 25 // 100))
    return sweep(
        list(lengths),
        direction=direction,
        floor=floor,
        overflow_limit=size * 125 // 100,
        right_limit=size + floor - 1,
        length=lambda n: n,
        merge=lambda a, b: a + b,
    )
