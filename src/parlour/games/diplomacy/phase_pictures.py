"""The board per phase as SVG, for transcripts and the web (``GameModule.pictures``):
each adjudicated phase as it stood with its orders drawn, and the final position, drawn
by the game's own renderer exactly as ``watch diplomacy --pictures`` draws them."""

from __future__ import annotations

from parlour.core.game import Game
from parlour.games.diplomacy.game import DiplomacyGame
from parlour.games.diplomacy.orders import parse_order
from parlour.games.diplomacy.render import render_svg


def phase_pictures(game: Game) -> dict[int, str]:
    """Event seq of each adjudication → its board as SVG; key -1 is the final board."""
    if not isinstance(game, DiplomacyGame):
        return {}
    history = {record.phase: record for record in game.state.history}
    out: dict[int, str] = {}
    for event in game.events:
        if event.kind != "adjudication":
            continue
        phase = str(event.data.get("phase", ""))
        board, record = game.board_at(phase), history.get(phase)
        if board is None or record is None:
            continue
        orders = [parse_order(text) for _, texts in record.orders for text in texts]
        out[event.seq] = render_svg(board, board.game_map, orders=orders or None)
    if game.is_terminal():
        out[-1] = render_svg(game.board, game.board.game_map, title="Final position")
    return out


def board_now(game: Game) -> str:
    """The board as it stands now, titled with its phase ("" for another game)."""
    if not isinstance(game, DiplomacyGame):
        return ""
    return render_svg(game.board, game.board.game_map, title=str(game.board.phase))
