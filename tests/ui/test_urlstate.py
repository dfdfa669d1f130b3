import pytest

from lab.inputs.samples import sample_names
from ui.present.urlstate import (
    DEFAULTS,
    EMBEDDERS_ENV,
    LAB_PRESETS,
    LAB_SLUGS,
    Settings,
    app_embedders,
    clamp_overlap,
    lab_slug,
    parse_params,
    to_params,
)

DOCS = ["platform_data", "regional_revenue"]
QUESTIONS = {"platform_data": 3, "regional_revenue": 6}


def test_empty_link_gives_lottery_article_defaults():
    s, notes = parse_params({}, DOCS, QUESTIONS)
    assert s == DEFAULTS == Settings("platform_data", 0, "fixed", "words", 24, 0, "boundary")
    assert notes == []


def test_round_trip():
    s = Settings("regional_revenue", 5, "structural", "chars", 1800, 150, "runts")
    back, notes = parse_params(to_params(s), DOCS, QUESTIONS)
    assert back == s and notes == []


def test_a_tokenizer_travels_only_in_tokens_and_only_when_not_the_default():
    s = Settings(
        "regional_revenue", 1, "semchunk", "tokens", 256, 32, "structure", tok="o200k_base"
    )
    params = to_params(s)
    assert (params["unit"], params["tok"], params["strategy"]) == (
        "tokens",
        "o200k_base",
        "semchunk",
    )
    back, notes = parse_params(params, DOCS, QUESTIONS)
    assert back == s and notes == []
    assert "tok" not in to_params(Settings(unit="tokens", size=512, overlap=50))
    assert "tok" not in to_params(Settings(unit="words", tok="o200k_base"))
    tokens, _ = parse_params({"unit": "tokens"}, DOCS, QUESTIONS)
    assert (tokens.size, tokens.overlap, tokens.tok) == (512, 50, "cl100k_base")


def test_lab_by_number_or_slug():
    assert lab_slug("2") == "overlap" and lab_slug("Runts") == "runts"
    assert lab_slug("8") == "compare" and lab_slug("Compare") == "compare"
    assert lab_slug("99") is None and lab_slug("0") is None and lab_slug("x") is None


@pytest.mark.parametrize(
    "key,value,field",
    [
        ("lab", "99", "lab"),
        ("doc", "../etc/passwd", "doc"),
        ("q", "7", "q"),
        ("q", "-1", "q"),
        ("strategy", "magic", "strategy"),
        ("unit", "lines", "unit"),
        ("tok", "../tokenizer.json", "tok"),
        ("size", "abc", "size"),
        ("size", "0", "size"),
        ("size", "100000", "size"),
        ("overlap", "24", "overlap"),
        ("overlap", "-3", "overlap"),
        ("bm25", "bm42", "bm25"),
        ("embedder", "os:system", "embedder"),
    ],
)
def test_bad_values_fall_back_with_one_notice(key, value, field):
    s, notes = parse_params({key: value}, DOCS, QUESTIONS)
    assert getattr(s, field) == getattr(DEFAULTS, field)
    assert len(notes) == 1 and notes[0].startswith(f"Link value {key}=") and "\n" not in notes[0]


def test_overlap_never_reaches_size_and_lists_are_read():
    s, notes = parse_params({"size": ["30"], "overlap": ["29"]}, DOCS, QUESTIONS)
    assert (s.size, s.overlap) == (30, 29) and not notes
    s, notes = parse_params({"size": "10", "overlap": "10"}, DOCS, QUESTIONS)
    assert s.overlap == 0 and notes
    assert clamp_overlap(50, 24) == 23


def test_unit_without_size_takes_the_units_classic_setting():
    s, _ = parse_params({"unit": "chars"}, DOCS, QUESTIONS)
    assert (s.size, s.overlap) == (1800, 150)


def test_unknown_parameters_are_reported():
    _, notes = parse_params({"evil": "<script>"}, DOCS, QUESTIONS)
    assert notes == ["Link parameter(s) evil not understood and ignored."]


def test_upload_links_leave_the_document_out():
    p = to_params(DEFAULTS, shareable_doc=False)
    assert "doc" not in p and "q" not in p and p["size"] == "24"


def test_presets_are_valid_links():
    for slug, preset in LAB_PRESETS.items():
        assert slug in LAB_SLUGS
        params = {k: str(v) for k, v in preset.items()}
        s, notes = parse_params(params, sample_names(), None)
        assert not notes, (slug, notes)


def test_the_judges_travel_in_a_link_only_when_they_are_not_the_defaults():
    assert "bm25" not in to_params(DEFAULTS) and "embedder" not in to_params(DEFAULTS)
    s = Settings(
        "regional_revenue",
        5,
        "structural",
        "chars",
        size=1800,
        overlap=150,
        lab="judges",
        bm25="okapi",
    )
    assert to_params(s)["bm25"] == "okapi"
    back, notes = parse_params(to_params(s), DOCS, QUESTIONS)
    assert back == s and notes == []


def test_a_link_names_only_an_embedder_the_server_offers(monkeypatch):
    monkeypatch.delenv(EMBEDDERS_ENV, raising=False)
    assert app_embedders() == ("wordllama",)
    mine = "tests.retrieval.toy_embedder:embed"
    s, notes = parse_params({"embedder": mine}, DOCS, QUESTIONS)
    assert s.embedder == "wordllama" and "this app offers the embedder(s) wordllama" in notes[0]
    monkeypatch.setenv(EMBEDDERS_ENV, f" {mine} , ,wordllama")
    assert app_embedders() == ("wordllama", mine)
    s, notes = parse_params({"embedder": mine}, DOCS, QUESTIONS)
    assert s.embedder == mine and notes == []
    assert to_params(s)["embedder"] == mine


def test_the_embedders_limit_travels_in_a_link_only_when_moved():
    assert "limit" not in to_params(DEFAULTS) and DEFAULTS.limit == 512
    s = Settings("regional_revenue", 0, "structural", "tokens", size=512, overlap=0, limit=256)
    assert to_params(s)["limit"] == "256"
    back, notes = parse_params(to_params(s), DOCS, QUESTIONS)
    assert back == s and notes == []
    bad, notes = parse_params({"limit": "0"}, DOCS, QUESTIONS)
    assert bad.limit == 512
    assert notes == [
        "Link value limit='0' ignored (the embedder's limit must be a whole number of tokens "
        "from 1 to 100000); using 512."
    ]
