"""Lab 7, the notebook: pin, list, restore, export, re-import."""

import json

from tests.app.app_harness import all_text, click, open_app, open_lab, rerun, set_widget, verdicts
from ui.present.notebook import make_pin, to_json


def test_pin_then_restore_from_the_notebook():
    at = open_app()
    set_widget(at, "slider", "size", 22)
    at.text_input(key="pin_note_boundary").input("22 works")
    click(at, "pin_boundary")
    assert "Pinned: 1 pin(s) in the notebook." in all_text(at)
    assert len(at.session_state["pins"]) == 1
    pin = at.session_state["pins"][0]
    assert pin.config["size"] == 22 and pin.verdict.startswith("✓") and pin.note == "22 works"
    assert pin.numbers["chunks"] == 9

    at.switch_page("lab_pages/lab7_notebook.py")
    rerun(at)
    assert at.title[0].value == "7. Notebook"
    assert "1 pin(s) in this session's notebook." in all_text(at)
    assert "> 22 works" in [m.value for m in at.markdown] or "22 works" in all_text(at)
    set_widget(at, "slider", "size", 40)  # move away, then restore
    click(at, "restore_0")
    assert at.title[0].value == "1. Boundary lottery"
    assert at.slider(key="size").value == 22 and verdicts(at)[0].startswith("✓")


def test_export_buttons_and_import():
    at = open_lab("notebook")
    labels = [b.proto.label for b in at.get("download_button")]
    assert labels == ["Export notebook (Markdown)", "Export notebook (JSON)"]
    assert "0 pin(s) in this session's notebook." in all_text(at)
    good = to_json(
        [
            make_pin(
                "runts",
                "Runts and BM25",
                {"doc": "regional_revenue", "size": 1800},
                "✓ answer intact in chunk 4",
                {"k1": 1.2},
            )
        ]
    ).encode()
    at.file_uploader(key="nb_import").upload("nb.json", good, "application/json")
    rerun(at)
    click(at, "nb_add")
    assert "1 pin(s) in this session's notebook." in all_text(at)
    assert "✓ answer intact in chunk 4" in all_text(at)


def test_bad_notebook_file_is_one_line():
    at = open_lab("notebook")
    at.file_uploader(key="nb_import").upload(
        "nb.json", json.dumps({"pins": []}).encode(), "application/json"
    )
    rerun(at)
    assert [e.value for e in at.error] == [
        "not a notebook: expected a 'chunk-lab-notebook' JSON file"
    ]


def _view(at):
    """What a restored view must match: the settings in the sidebar and the verdict."""
    settings = {
        "doc": at.selectbox(key="doc").value,
        "q": at.selectbox(key="question").value,
        "strategy": at.selectbox(key="strategy").value,
        "unit": at.radio(key="unit").value,
        "size": at.slider(key="size").value,
        "overlap": at.slider(key="overlap").value,
    }
    return at.title[0].value, settings, verdicts(at)[-1]


def test_two_pins_exported_cleared_imported_and_restored_give_the_same_views(downloads):
    at = open_app()
    set_widget(at, "slider", "size", 22)
    click(at, "pin_boundary")
    first = _view(at)
    at.switch_page("lab_pages/lab3_structure.py")
    rerun(at)
    click(at, "preset_structure")  # support_kb, fixed, 50 words
    set_widget(at, "selectbox", "question", 2)
    click(at, "pin_structure")
    second = _view(at)
    assert first != second and second[0] == "3. Structure beats arithmetic"
    pinned = list(at.session_state["pins"])
    assert [p.verdict for p in pinned] == [first[2], second[2]]

    at.switch_page("lab_pages/lab7_notebook.py")
    rerun(at)
    exported = downloads.of(at, "Export notebook (JSON)")
    click(at, "remove_0")
    click(at, "remove_0")
    assert "0 pin(s) in this session's notebook." in all_text(at)
    at.file_uploader(key="nb_import").upload(
        "chunk-lab-notebook.json", exported, "application/json"
    )
    rerun(at)
    click(at, "nb_add")
    assert list(at.session_state["pins"]) == pinned

    for i, want in enumerate([first, second]):
        at.switch_page("lab_pages/lab7_notebook.py")
        set_widget(at, "slider", "size", 40)  # move away first
        click(at, f"restore_{i}")
        assert _view(at) == want


def test_an_imported_notebook_is_added_once():
    at = open_lab("notebook")
    two = to_json([make_pin("boundary", "Boundary lottery", {"size": n}) for n in (22, 24)])
    at.file_uploader(key="nb_import").upload("nb.json", two.encode(), "application/json")
    rerun(at)
    assert [b.label for b in at.button if b.key == "nb_add"] == ["Add the 2 pin(s) from nb.json"]
    click(at, "nb_add")
    assert "2 pin(s) in this session's notebook." in all_text(at)
    # the file is still in its box: the button is gone and a rerun adds nothing
    assert [b for b in at.button if b.key == "nb_add"] == []
    assert "Added the 2 pin(s) from nb.json." in all_text(at)
    rerun(at)
    assert len(at.session_state["pins"]) == 2
    # a new file (even the same name) can be added
    at.file_uploader(key="nb_import").upload("nb.json", two.encode(), "application/json")
    rerun(at)
    click(at, "nb_add")
    assert len(at.session_state["pins"]) == 4
