"""Generated stand-ins for text users bring that has no sentence punctuation to cut at.

Both are made here from a seeded random generator (no download), in the shape
the real thing has:

- ``chat_log``: an exported team chat, one ``[hh:mm] name: message`` line per
  message, lowercase, almost no full stops, with mentions, links, commands,
  emoji and now and then a long message that runs on with commas.
- ``tokenised_wiki``: WikiText-style articles, where every token is separated by
  a space (``word , word . Next``, ``2 @,@ 000``, ``role @-@ playing``) under
  ``= = Section = =`` lines.
"""

from __future__ import annotations

import random

_NAMES = ("alice", "bob", "carol", "dmitri", "priya", "wen", "oluwaseun", "marta")
_OPENERS = (
    "ok so",
    "hey",
    "fyi",
    "hmm",
    "lol",
    "wait",
    "yeah",
    "nope",
    "+1",
    "so",
    "",
    "",
    "",
)
_PHRASES = (
    "the deploy is stuck on the migration step again",
    "did anyone touch the helm values for staging",
    "i think its the redis cache not the db",
    "restarting the worker pods now",
    "works for me on main",
    "can you check the logs for request id 7f3a",
    "one sec pulling it up",
    "thats the flaky test from last week",
    "pinging @bob since he wrote that handler",
    "see https://ci.example.com/runs/48213 for the failure",
    "ran `kubectl rollout restart deploy/api -n prod` and it came back",
    "p95 latency is back under 300ms",
    "ill open a ticket for it",
    "nobody panic its only the canary",
    "merged, thanks for the review",
    "the dashboard still shows the old version 🙃",
    "standup moved to 10:30 today",
    "is the feature flag on for eu customers",
    "rolling back to v3.2 just in case",
    "coffee first then the incident doc ☕",
)
_QUESTIONS = ("anyone around?", "is it just me?", "whats the status?", "who owns this?")


def _message(rng: random.Random) -> str:
    if rng.random() < 0.08:  # a question, its mark at the line's end
        return rng.choice(_QUESTIONS)
    if rng.random() < 0.06:  # a long message that runs on with commas
        parts = [rng.choice(_PHRASES) for _ in range(rng.randint(6, 12))]
        return ", ".join(parts) + ", anyway " + rng.choice(_PHRASES)
    words = [rng.choice(_OPENERS)] + [rng.choice(_PHRASES) for _ in range(rng.randint(1, 2))]
    return " ".join(w for w in words if w)


def chat_log(target_chars: int = 40_000, seed: int = 11) -> str:
    """About ``target_chars`` of chat, one message a line, as one markdown paragraph."""
    rng = random.Random(seed)
    lines: list[str] = []
    minute = 9 * 60 + 2
    total = 0
    while total < target_chars:
        minute += rng.choice((0, 0, 1, 1, 2, 5))
        line = f"[{minute // 60 % 24:02d}:{minute % 60:02d}] {rng.choice(_NAMES)}: {_message(rng)}"
        lines.append(line)
        total += len(line) + 1
    return "\n".join(lines)


_SUBJECTS = (
    "The game",
    "Valkyria Chronicles III",
    "The development team",
    "Sega",
    "The soundtrack",
    "Critics",
    "The story",
    "The battle system",
)
_CLAUSES = (
    "was released in January 2011 in Japan",
    "sold over 2 @,@ 000 copies in its first week",
    "is a tactical role @-@ playing video game developed by Sega and Media.Vision",
    'follows the " Nameless " , a penal military unit serving the nation of Gallia',
    "retained the standard features of the series",
    "underwent multiple adjustments to make the game more forgiving for newcomers",
    "received a score of 7 @.@ 5 / 10 from Famitsu",
    "was composed by Hitoshi Sakimoto , who had worked on the earlier entries",
    "runs parallel to the first game",
    "was praised for its art direction ( though not for its pacing )",
    "ran on the PlayStation Portable",
    "carried over a large portion of the work done on Valkyria Chronicles II",
)
_JOINERS = (", and", ", while it", "; it", ", but", ": it", ", which")


def _wiki_sentence(rng: random.Random) -> str:
    # most sentences have one or two clauses; some run on for six to ten
    count = rng.choice((1, 1, 2, 2, 3)) if rng.random() < 0.8 else rng.randint(6, 10)
    parts = [rng.choice(_SUBJECTS), rng.choice(_CLAUSES)]
    for _ in range(count - 1):
        parts += [rng.choice(_JOINERS), rng.choice(_CLAUSES)]
    return " ".join(parts) + " ."


def tokenised_wiki(sections: int = 8, seed: int = 5) -> str:
    """A WikiText-style article: heading lines and one-line paragraphs, blank lines between."""
    rng = random.Random(seed)
    out = [" = Valkyria Chronicles III = ", ""]
    for n in range(sections):
        out += [f" = = Section {n + 1} = = ", ""]
        for _ in range(rng.randint(1, 3)):
            sentences = [_wiki_sentence(rng) for _ in range(rng.randint(3, 9))]
            out += [" " + " ".join(sentences) + " ", ""]
    return "\n".join(out)
