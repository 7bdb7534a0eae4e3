"""Who plays escape's system seats with the embedded model (``needs_capable_model``)."""

from __future__ import annotations

from pathlib import Path

from parlour.runtime.seating import PolicySpec
from parlour.runtime.session import plan
from parlour.runtime.store import Store, db_url


def test_a_small_model_leaves_the_classifier_and_the_narrator_to_scripts(tmp_path: Path) -> None:
    store = Store(db_url(str(tmp_path / "seats.sqlite")))
    planned = plan(store, "escape", seed=1, model="local", probe=False)
    assert planned.specs["classifier"] == PolicySpec("scripted")
    assert planned.specs["narrator"] == PolicySpec("scripted")
    assert planned.specs["player"] != PolicySpec("scripted")  # the player is the model
    assert any(n.startswith("Narrator: scripted (local is too small") for n in planned.notes)
    assert any("--seat narrator=local to use it anyway" in n for n in planned.notes)
    # Asked for by name, the model narrates (the narration benchmark does this).
    forced = plan(store, "escape", seed=1, model="local", seats=["narrator=local"], probe=False)
    assert forced.specs["narrator"] != PolicySpec("scripted")
