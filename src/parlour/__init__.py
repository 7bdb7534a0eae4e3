"""parlour: an engine for games played by and with LLM agents.

``parlour.play`` and ``parlour.run_tournament`` run games from Python (``parlour/api.py``);
they are imported on first use, so ``import parlour`` stays cheap for the CLI.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # type checkers see the real signatures; the import stays lazy
    from parlour.api import PlayResult, TournamentResult, play, play_async, run_tournament

__all__ = ["PlayResult", "TournamentResult", "play", "play_async", "run_tournament"]


def __getattr__(name: str) -> Any:
    if name in __all__:
        from parlour import api

        return getattr(api, name)
    raise AttributeError(f"module 'parlour' has no attribute {name!r}")
