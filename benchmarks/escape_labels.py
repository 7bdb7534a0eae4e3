"""The escape classifier's label sets for the shipped scenarios: test and benchmark data,
kept out of the installed package (``escape/labels/``, indexed by its ``sets.yaml``).

Tests and benchmarks read them through this module; ``parlour eval escape`` finds the same
folder in a checkout (or takes ``--labels-dir``).
"""

from __future__ import annotations

from pathlib import Path

from parlour.games.escape import labels
from parlour.games.escape.labels import LabelIndex, LabelSet

LABEL_DIR = Path(__file__).resolve().parent / "escape" / "labels"
INDEX: LabelIndex = labels.read_label_index(LABEL_DIR)
#: The set names, oldest first (``tuning`` chose the keyword classifier's thresholds).
LABEL_SETS: tuple[str, ...] = INDEX.sets
#: The newest sets, scored once at a frozen classifier and never read for tuning.
NOT_TUNED_ON: tuple[str, ...] = INDEX.not_tuned_on


def labels_path(scenario: str | Path, which: str = "tuning") -> Path:
    """Where a shipped scenario's ``which`` set is (a scenario file: beside it)."""
    return labels.labels_path(scenario, which, INDEX)


def load_labels(scenario: str | Path, which: str = "tuning") -> LabelSet:
    return labels.load_labels(scenario, which, INDEX)
