"""Board pictures while a game runs: an observer writing an SVG and a PNG per phase.

Each adjudicated phase is drawn as it stood with its orders on it
(``001-S1901M.svg``/``.png``, ...), and the final board once the game ends
(``NNN-final``). Files are byte-stable for the same game (see :mod:`.render`).
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from parlour.core.events import Event
from parlour.core.game import Game, Result
from parlour.games.diplomacy.board import Board
from parlour.games.diplomacy.game import DiplomacyGame
from parlour.games.diplomacy.orders import Order, parse_order
from parlour.games.diplomacy.render import render_phase_files


class PicturesObserver:
    """A runtime observer (``on_events``/``on_finish``) for Diplomacy games."""

    def __init__(self, out_dir: str | Path) -> None:
        self.out_dir = Path(out_dir)
        self.written: list[Path] = []

    def on_events(self, game: Game, events: Sequence[Event]) -> None:
        if not isinstance(game, DiplomacyGame):
            return
        for event in events:
            if event.kind == "adjudication":
                self._phase(game, str(event.data["phase"]))

    def _phase(self, game: DiplomacyGame, phase: str) -> None:
        board = game.board_at(phase)
        history = game.state.history
        index = next((i for i, r in enumerate(history) if r.phase == phase), None)
        if board is None or index is None:
            return
        record = history[index]
        orders: list[Order] = [parse_order(text) for _, texts in record.orders for text in texts]
        # Keyed by canonical text, as the renderer looks them up (str of the parsed order).
        outcomes = {str(parse_order(r.order)): r.status for r in record.results}
        self._write(board, f"{index + 1:03d}-{phase}", orders, outcomes=outcomes)

    def on_finish(self, game: Game, result: Result) -> None:
        if not isinstance(game, DiplomacyGame):
            return
        history = game.state.history
        index = len(history) + 1
        # The board after the last adjudication already names the next phase (a game
        # ending in Winter 1910 stands at "Spring 1911"): say which phase ended it.
        last = game.board_at(history[-1].phase) if history else None
        board = game.board
        ended = last.phase.long_name if last is not None else board.phase.long_name
        won = f": {board.winner.title()} wins" if board.winner else ""
        self._write(
            board, f"{index:03d}-final", [], title="Final position", subtitle=f"After {ended}{won}"
        )

    def _write(
        self,
        board: Board,
        stem: str,
        orders: list[Order],
        title: str | None = None,
        outcomes: dict[str, str] | None = None,
        subtitle: str | None = None,
    ) -> None:
        svg, png = render_phase_files(
            board,
            board.game_map,
            self.out_dir,
            stem,
            orders=orders or None,
            title=title,
            outcomes=outcomes,
            subtitle=subtitle,
        )
        self.written += [svg, png]
