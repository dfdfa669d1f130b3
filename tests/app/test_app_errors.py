"""An unexpected failure inside a lab is one line for the reader, never a traceback."""

import ui.present.sweeps
from tests.app.app_harness import open_app, verdicts


def test_unexpected_error_is_one_line(monkeypatch):
    def broken(curve):
        raise RuntimeError("curve exploded\nTraceback (most recent call last): ...")

    monkeypatch.setattr(ui.present.sweeps, "flips", broken)
    at = open_app()
    errors = [e.value for e in at.error]
    assert "Something went wrong in this lab: curve exploded" in errors
    assert not any("Traceback" in e for e in errors)
    assert verdicts(at)  # what ran before the failure is still there
    assert not at.exception
