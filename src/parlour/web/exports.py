"""Exports of the spectator page (HTML, markdown, JSONL) and a game's boards per phase,
made by the same transcript code as the CLI's so a download reads like ``parlour show``."""

from __future__ import annotations

from dataclasses import replace

from parlour.core.game import Game
from parlour.games import registry
from parlour.render.annotate import annotate
from parlour.render.pictures import phase_pictures, picture_now
from parlour.render.transcript import build, render_transcript, stored_header
from parlour.runtime.store import Store


def _visible(store: Store, game_id: str, level: str) -> set[int] | None:
    if level == "everything":
        return None
    seqs = {e.seq for e in store.spectator_events(game_id, "public")}
    if level == "teams":
        for group in store.groups(game_id):
            seqs |= {e.seq for e in store.spectator_events(game_id, f"team:{group}")}
    return seqs


def export(store: Store, game_id: str, level: str, fmt: str) -> tuple[str, str]:
    """The game as the spectator may see it now at ``level``: (body, media type)."""
    visible = _visible(store, game_id, level)
    if fmt == "jsonl":
        events = store.spectator_events(game_id, "everything")
        body = "".join(
            e.model_dump_json() + "\n" for e in events if visible is None or e.seq in visible
        )
        return body, "application/x-ndjson"
    row = store.get_game(game_id)
    log = annotate(store, game_id)
    game = log.game
    names = {s.id: s.name for s in game.seats()}
    reveal = visible is None
    # The seed is a secret while the game runs (it would give hidden roles away).
    seed = f", seed {row.seed}" if row.status in ("finished", "ended", "failed") else ""
    header = stored_header(f"{row.game} {game_id} — {level}{seed}", log, row, names, reveal=reveal)
    doc = build(log, header, mode="reveal" if reveal else "public", visible=visible)
    if fmt == "html":
        doc = replace(doc, pictures=phase_pictures(registry.load(row.game), game))
        return render_transcript(doc, "html"), "text/html; charset=utf-8"
    return render_transcript(doc, "markdown"), "text/markdown; charset=utf-8"


def boards(name: str, game: Game) -> dict[str, str]:
    """Phase label → inline SVG of the board after it (empty for a game without boards)."""
    pictures = phase_pictures(registry.load(name), game)
    out: dict[str, str] = {}
    by_seq = {e.seq: e for e in game.events}
    for seq, svg in sorted(pictures.items(), key=lambda kv: (kv[0] < 0, kv[0])):
        label = "final" if seq < 0 else str(by_seq[seq].data.get("phase", seq))
        out[label] = svg
    return out


def current_board(name: str, game: Game) -> str:
    """The board as it stands now, as inline SVG ("" for a game without one): public to
    every seat, drawn in the room so a person sees the units they give orders to."""
    return picture_now(registry.load(name), game)
