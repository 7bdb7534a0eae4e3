"""Label sets are test data outside the installed package: the package ships only rooms,
``eval escape`` finds the sets in a checkout or a ``--labels-dir``, and says so in one line
when none are installed."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from benchmarks.escape_labels import LABEL_DIR, LABEL_SETS
from parlour.games.escape.labels import labels_path, read_label_index
from parlour.games.escape.loader import SCENARIO_DIR, shipped_names
from parlour.games.escape.scenario import ScenarioError
from parlour.games.escape.surface import evaluation
from tests.conftest import CliRunner


def test_the_package_ships_rooms_only_and_the_sets_live_in_benchmarks() -> None:
    assert sorted(p.name for p in SCENARIO_DIR.iterdir()) == [
        f"{name}.yaml" for name in shipped_names()
    ]
    assert len(LABEL_SETS) == 21 and LABEL_SETS[0] == "tuning"
    for name in shipped_names():
        for which in LABEL_SETS:
            assert labels_path(name, which, read_label_index(LABEL_DIR)).is_file()


def test_without_installed_sets_a_shipped_room_names_the_fix(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.setattr(evaluation, "CHECKOUT_LABELS", tmp_path / "nowhere")
    assert evaluation.label_index() is None
    with pytest.raises(ScenarioError, match=r"not installed.*--labels-dir DIR or --labels FILE"):
        evaluation.labels_for("ghost_room", "heldout")
    # A room of your own still finds the set beside its file.
    room = tmp_path / "ghost.yaml"
    shutil.copy(SCENARIO_DIR / "ghost_room.yaml", room)
    text = (LABEL_DIR / "ghost_room.labels.yaml").read_text(encoding="utf-8")
    (tmp_path / "ghost.labels.yaml").write_text(
        text.replace("scenario: ghost_room", "scenario: ghost"), encoding="utf-8"
    )
    assert evaluation.labels_for(str(room)).cases


def test_a_label_index_must_name_its_sets(tmp_path: Path) -> None:
    with pytest.raises(ScenarioError, match=r"sets\.yaml is missing"):
        read_label_index(tmp_path)
    (tmp_path / "sets.yaml").write_text("sets: [tuning]\nnot_tuned_on: [blind]\n")
    with pytest.raises(ScenarioError, match="give 'sets'"):
        read_label_index(tmp_path)


def test_eval_reads_a_labels_dir_and_refuses_an_empty_one(cli: CliRunner, tmp_path: Path) -> None:
    mine = tmp_path / "labels"
    mine.mkdir()
    (mine / "sets.yaml").write_text("sets: [tuning, extra]\nnot_tuned_on: [extra]\n")
    shutil.copy(LABEL_DIR / "ghost_room.labels.yaml", mine / "ghost_room.extra.yaml")
    base = ("eval", "escape", "--model", "scripted", "--scenario", "ghost_room")
    out = cli(*base, "--labels-dir", str(mine), "--set", "extra", "--json")
    assert out.returncode == 0, out.stderr
    assert '"set": "extra"' in out.stdout.splitlines()[-1]
    bad = cli(*base, "--labels-dir", str(mine), "--set", "heldout")
    assert bad.returncode == 2 and "--set must be one of: tuning, extra" in bad.stderr
    empty = cli(*base, "--labels-dir", str(tmp_path))
    assert empty.returncode == 2
    assert f"error: no escape label sets in {tmp_path}: sets.yaml is missing" in empty.stderr
