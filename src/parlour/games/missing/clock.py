"""The simulated clock: how long a message takes to type, and how time is shown.

Typing time is ``base_seconds + len(text) / chars_per_second``: by default six seconds to
pick up the phone and read, plus a second per three characters (a thumb-typing pace of
about 36 words a minute). A 160-character message costs 59 s; "ok" costs 7 s. Long
messages cost the group time, so the clock rewards short texts, as a real chat does.
"""

from __future__ import annotations

import math


def typing_seconds(text: str, base_seconds: float = 6.0, chars_per_second: float = 3.0) -> float:
    return base_seconds + len(text) / chars_per_second


def mmss(seconds_left: float) -> str:
    """``87:05`` for 87 minutes 5 seconds left (rounded up: 0:00 only when time is out)."""
    whole = max(0, math.ceil(seconds_left - 1e-9))
    return f"{whole // 60:02d}:{whole % 60:02d}"
