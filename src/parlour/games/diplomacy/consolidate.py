"""Step 4 of the bot protocol, done by the engine: after each adjudicated phase a bot's
commitments are reconciled with the revealed orders, trust and betrayals updated, the
phase's press folded into one journal line; once a game year the journal is compressed.
A bot that starts mid-game (a takeover) first bootstraps its journal from the public
record and the press its power saw."""

from __future__ import annotations

from parlour.core.events import Audience
from parlour.games.diplomacy.board import Board, PhaseType
from parlour.games.diplomacy.bot_memory import BotMemory, compress_year, journal_line, reconcile
from parlour.games.diplomacy.bot_protocol import attacks_on
from parlour.games.diplomacy.negotiation import deal_lines
from parlour.games.diplomacy.state import DiplomacyState
from parlour.games.diplomacy.views import power_name

#: characters of each message kept in a journal line
QUOTE = 60


def _heard(st: DiplomacyState, power: str, phase: str) -> list[str]:
    out = []
    for e in st.log.visible(power):
        if e.kind == "press" and e.phase == phase:
            who = "we" if e.speaker == power else power_name(e.speaker)
            out.append(f"{who}: {e.text[:QUOTE]}")
    return out


def start(st: DiplomacyState, power: str) -> None:
    """A new bot memory; with history behind it, bootstrapped from the record."""
    memory = BotMemory(power=power)
    st.bots[power] = memory
    if not st.history:
        return
    boards = st.boards
    for record, board in zip(st.history, boards, strict=False):
        if board.phase.type is not PhaseType.MOVEMENT:
            continue
        orders = dict(record.orders)
        attacks = attacks_on(board, power, orders)
        for other, moves in attacks.items():
            if moves:
                memory.trust[other] = max(1, memory.trust_of(other) - 1)
        memory.journal.append(
            journal_line(record.phase, _heard(st, power, record.phase), [], attacks)
        )
    for year in sorted({b.phase.year for b in boards}):
        if year < st.board.phase.year:  # finished years are compressed, as if played
            compress_year(memory, year)
    memory.bootstrapped = True
    st.emit(
        "journal",
        f"You take over {power_name(power)}: your journal is rebuilt from "
        f"{len(st.history)} completed phases of the public record and your power's press.",
        Audience.only(power),
        data={"lines": len(memory.journal)},
    )


def after_phase(
    st: DiplomacyState,
    power: str,
    board: Board,
    submitted: dict[str, tuple[str, ...]],
    after: Board,
) -> None:
    memory = st.bots[power]
    phase = board.phase.name
    if board.phase.type is PhaseType.MOVEMENT:
        attacks = attacks_on(board, power, submitted)
        settled = reconcile(memory, phase, submitted, attacks)
        memory.journal.append(
            journal_line(
                phase, _heard(st, power, phase), settled, attacks, deal_lines(st, power, phase)
            )
        )
        broken = [c for c in settled if c.status == "broken" and c.by != power]
        if settled:
            st.emit(
                "commitments",
                "Commitments settled: " + "; ".join(c.line() for c in settled) + ".",
                Audience.only(power),
                data={
                    "settled": [
                        {"by": c.by, "what": c.what, "kind": c.kind, "status": c.status}
                        for c in settled
                    ],
                    "betrayals": [c.by for c in broken],
                },
            )
    if after.phase.year > board.phase.year:
        compress_year(memory, board.phase.year)
