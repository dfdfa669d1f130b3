"""First run and offline: no usage statistics, no first-run prompt, the stated upload limit."""

import tomllib

from tests.app.app_harness import APP, all_text, open_app
from ui.sidebar import MAX_UPLOAD_MB


def test_streamlit_config_is_offline_headless_and_states_the_upload_limit():
    cfg = tomllib.loads((APP.parent / ".streamlit" / "config.toml").read_text())
    assert cfg["browser"]["gatherUsageStats"] is False
    assert cfg["server"]["headless"] is True
    assert cfg["server"]["maxUploadSize"] == MAX_UPLOAD_MB
    assert cfg["server"]["fileWatcherType"] == "none"  # no watching per new session
    assert not (APP.parent / ".streamlit" / "credentials.toml").exists()
    # a class's steps: no full collection after every run, and a new value stops the old run
    assert cfg["runner"] == {"postScriptGC": False, "fastReruns": True}


def test_every_lab_opens_with_what_to_try():
    for lab, phrase in [
        ("boundary", "Drag the chunk size slowly upward from 22"),
        ("overlap", "set overlap to half the chunk size"),
        ("structure", "removes the lottery"),
        ("runts", "what fraction of this chunk is about your query?"),
        ("tables", "A table fragment repeats its header"),
        ("integrity", "assert the answer text"),
        ("notebook", "Every lab can pin its current result"),
        ("compare", "diff the chunk populations"),
    ]:
        at = open_app(lab=lab)
        assert phrase in all_text(at), lab
        assert (
            f"Uploads: .md or .txt, UTF-8, up to {MAX_UPLOAD_MB} MB; "
            ".pdf, .html and .docx are converted to markdown."
        ) in all_text(at)
