"""The parlour source tree as the structure tests read it (layers, import circles, the
store's ownership of SQL), and small planted trees that show each check can fail."""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path

#: The installed package's sources in this checkout.
SRC = Path(__file__).resolve().parents[2] / "src" / "parlour"


def plant(root: Path, files: Iterable[tuple[str, str]]) -> Path:
    """Write ``(relative path, text)`` files under ``root/parlour``, a stand-in package
    for a check to scan; returns that package folder."""
    src = root / "parlour"
    for name, text in files:
        (src / name).parent.mkdir(parents=True, exist_ok=True)
        (src / name).write_text(text)
    return src
