"""Each lab's own controls: what a pin keeps and what a restored pin may set."""

from ui.present import controls


def test_snapshot_names_every_control_of_the_lab():
    session = {"k1": 2.0, "b": 0.3, "lab4_runt_merge": "forward", "lab6_k": 3, "bm25": "okapi"}
    assert controls.snapshot(session, "runts") == {
        "k1": 2.0,
        "b": 0.3,
        "runt_merge": "forward",
        "bm25": "okapi",
    }
    assert controls.snapshot(session, "integrity") == {
        "k": 3,
        "retriever": "bm25",
        "bm25": "okapi",
        "embedder": "wordllama",
        "budget": 0,  # off
        "context": "path",  # heading paths, as the lab has always indexed
    }
    assert controls.snapshot({}, "tables") == {"heading_path_left_out": False, "bm25": "lucene"}
    assert controls.snapshot(session, "judges") == {"bm25": "okapi", "embedder": "wordllama"}
    assert controls.snapshot(session, "boundary") == {}


def test_restore_takes_good_values_and_names_each_bad_one():
    saved = {"k1": "1.7", "b": 7, "runt_merge": "sideways", "other": 1}
    values, notices = controls.restore("runts", saved)
    assert values == {"k1": 1.7}
    assert notices == [
        "Pin value b=7 ignored; b stays as it is.",
        "Pin value runt_merge='sideways' ignored; runt_merge stays as it is.",
    ]


def test_clean_snaps_to_the_widgets_step_and_refuses_other_types():
    assert controls.K1.clean(1.23) == 1.2 and controls.B.clean(0.76) == 0.75
    assert controls.K1.clean(True) is None and controls.K1.clean("x") is None
    assert controls.NO_HEADING.clean(1) is None and controls.NO_HEADING.clean(True) is True
    assert controls.K.clean(10) == 10 and controls.K.clean(7) is None


def test_a_notebook_saved_before_the_rename_still_restores_its_runt_merge():
    values, notices = controls.restore("runts", {"sweep": "forward"})
    assert values == {"lab4_runt_merge": "forward"} and notices == []
