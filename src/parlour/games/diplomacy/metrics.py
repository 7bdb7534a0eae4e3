"""Diplomacy's tournament metrics: centre share, solos, survival (definitions:
docs/tournaments.md), read from the finished board; and how each power played and
talked (what a persona changes, docs/diplomacy-bot.md): betrayal rate, support-given
rate, attack rate, lies, proposals and messages per movement phase.
"""

from __future__ import annotations

from collections.abc import Sequence

from parlour.core.game import Game, Result
from parlour.core.metrics import GameFacts, GameMetrics, Ratio, dense_ranks
from parlour.games.diplomacy.deals import attacks
from parlour.games.diplomacy.game import DiplomacyGame
from parlour.games.diplomacy.orders import OrderParseError, SupportHold, SupportMove, parse_order

#: the conduct counters ``conduct`` fills, per power
CONDUCT = (
    "deals_judged",
    "deals_broken",
    "lies",
    "move_orders",
    "supports",
    "attacks",
    "move_phases",
    "proposals",
    "messages",
)


def conduct(game: DiplomacyGame) -> dict[str, dict[str, float]]:
    """Per power, over the game: its deals judged and broken (a deal binds the power that
    agreed to do something), its lies (statements its own orders contradicted, not agreed
    deals), its movement orders, the supports and the attacks among them (a move into, or
    support of a foreign move into, a province with another power's unit or centre, on the
    board the order was given on), the movement phases it ordered in, and the proposal
    acts (offers and requests) and messages it sent."""
    st = game.state
    powers = game.board.game_map.powers
    out: dict[str, dict[str, float]] = {p: dict.fromkeys(CONDUCT, 0.0) for p in powers}
    for d in st.deals:
        if d.status != "open" and d.by in out:
            out[d.by]["deals_judged"] += 1
            out[d.by]["deals_broken"] += d.status == "broken"
    for lie in st.lies:
        if not lie.agreed and lie.by in out:
            out[lie.by]["lies"] += 1
    for record in st.history:
        board = game.board_at(record.phase)
        if not record.phase.endswith("M") or board is None:
            continue
        for power, texts in record.orders:
            if power not in out or not texts:
                continue
            c = out[power]
            c["move_phases"] += 1
            others = [p for p in powers if p != power]
            for text in texts:
                try:
                    order = parse_order(text)
                except (OrderParseError, ValueError):
                    continue
                c["move_orders"] += 1
                c["supports"] += isinstance(order, (SupportHold, SupportMove))
                c["attacks"] += any(attacks(board, p, [text]) for p in others)
    for event in st.log.events:
        if event.kind == "press" and event.speaker in out:
            c = out[event.speaker]
            c["messages"] += 1
            acts = event.data.get("proposals", [])
            c["proposals"] += sum(1 for a in acts if a.get("act") in ("offer", "request"))
    return out


def diplomacy_facts(game: Game, result: Result, player_seats: Sequence[str]) -> GameFacts:

    assert isinstance(game, DiplomacyGame)
    counts = game.board.centre_counts()
    total = len(game.board.game_map.supply_centres)
    gone = set(game.state.eliminated)
    solo = result.winners[0] if result.winners else None
    played = conduct(game)
    counters = {
        s: {
            "games": 1,
            "centre_share": counts.get(s, 0) / total,
            "solo": float(s == solo),
            "survived": float(s not in gone),
            **played.get(s, {}),
        }
        for s in player_seats
    }
    return GameFacts(
        roles={s: s for s in player_seats},  # the power is the role
        sides=[[s] for s in player_seats],
        ranks=dense_ranks([float(counts.get(s, 0)) for s in player_seats]),
        won={s: s == solo for s in player_seats},
        counters=counters,
        game={"solo": float(solo is not None)},
    )


METRICS = GameMetrics(
    diplomacy_facts,
    ratios=(
        Ratio("centre share", "centre_share", "games", "mean share of the supply centres"),
        Ratio("solos", "solo", "games", "games won alone"),
        Ratio("survival", "survived", "games", "games ended with the power alive"),
        Ratio(
            "betrayal rate",
            "deals_broken",
            "deals_judged",
            "deals broken of the deals binding the power that were judged",
        ),
        Ratio(
            "support-given rate",
            "supports",
            "move_orders",
            "support orders of the movement orders given",
        ),
        Ratio(
            "attack rate",
            "attacks",
            "move_orders",
            "movement orders attacking another power's unit or centre",
        ),
        Ratio(
            "lies / phase",
            "lies",
            "move_phases",
            "statements its own orders contradicted (not agreed), per movement phase",
            percent=False,
        ),
        Ratio(
            "proposals / phase",
            "proposals",
            "move_phases",
            "offers and requests sent, per movement phase",
            percent=False,
        ),
        Ratio(
            "messages / phase",
            "messages",
            "move_phases",
            "press messages sent, per movement phase",
            percent=False,
        ),
    ),
    headline=("solo", "solo rate"),
)
