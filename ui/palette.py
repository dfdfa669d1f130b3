"""Colour-blind safe colours (Okabe-Ito), one fixed colour per strategy.

Every chart in the app takes its colours from here, so "structural" is the
same blue in the survival curves, the gold-set bars and the histogram.
"""

from __future__ import annotations

from ui.present import ranking

OKABE_ITO = {
    "black": "#000000",
    "orange": "#E69F00",
    "sky_blue": "#56B4E9",
    "bluish_green": "#009E73",
    "yellow": "#F0E442",
    "blue": "#0072B2",
    "vermillion": "#D55E00",
    "reddish_purple": "#CC79A7",
}

STRATEGY_COLOURS = {
    "structural": OKABE_ITO["blue"],
    "fixed": OKABE_ITO["vermillion"],
    "sentence": OKABE_ITO["bluish_green"],
    "recursive": OKABE_ITO["reddish_purple"],
}
FALLBACK = OKABE_ITO["black"]

INTACT = OKABE_ITO["bluish_green"]  # answer held whole
SPLIT = OKABE_ITO["vermillion"]  # answer cut by a boundary
# What a chart's words call its colours: vermillion reads as orange-red on screen
# and on a projector, so no title may call it plain "red".
COLOUR_WORDS = {INTACT: "green", SPLIT: "orange-red"}
ANSWER = OKABE_ITO["orange"]  # bars/points of chunks holding the answer
RUNT = OKABE_ITO["reddish_purple"]  # chunks below the runt floor
OTHER = "#9A9A9A"  # every other chunk
CURRENT = OKABE_ITO["black"]  # the current setting marked on a chart
THEORY = OKABE_ITO["sky_blue"]  # the theoretical BM25 curve
CATEGORY_COLOURS = {  # the BM25 charts' chunk kinds
    ranking.HOLDS: ANSWER,
    ranking.HOLDS_RUNT: RUNT,
    ranking.RUNT: OKABE_ITO["sky_blue"],
    ranking.OTHER: OTHER,
}

# The two judges (and their fusion), and the two topics of one chunk
JUDGE_COLOURS = {
    "bm25": OKABE_ITO["blue"],
    "dense": OKABE_ITO["reddish_purple"],
    "hybrid": OKABE_ITO["bluish_green"],
}
TOPIC_COLOURS = (OKABE_ITO["blue"], OKABE_ITO["orange"])

# The chunk view: two light shades alternate chunk by chunk, overlap is hatched
# yellow, the answer is underlined in orange (distinguishable without hue too).
CHUNK_SHADES = ("#DCEBF7", "#F3E6D3")
OVERLAP_SHADE = "#F0E442"


def strategy_colour(name: str) -> str:
    return STRATEGY_COLOURS.get(name, FALLBACK)


def chunk_shade(index: int) -> str:
    return CHUNK_SHADES[index % len(CHUNK_SHADES)]
