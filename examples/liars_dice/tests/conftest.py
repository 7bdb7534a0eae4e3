"""Run the example's tests from a checkout too: import the package from ``src/`` when it
is not installed (installed, the installed copy is the one tested)."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

if importlib.util.find_spec("parlour_liars_dice") is None:
    sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "src"))
