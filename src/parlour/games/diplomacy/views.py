"""Views: the public board and record every power shares, and each power's private facts.

Diplomacy has perfect information about the board: units, centres and (after each phase)
every order are public. The only secrets are private press (bilateral messages) and each
power's own briefing; both reach a view only through events addressed to that power.
"""

from __future__ import annotations

import json
from functools import lru_cache

from pydantic import Field

from parlour.core.game import Result
from parlour.core.view import Facts, NoFacts, View
from parlour.games.diplomacy.board import Board
from parlour.games.diplomacy.config import DiplomacyConfig
from parlour.games.diplomacy.deals import statements
from parlour.games.diplomacy.proposals import Term, act_of
from parlour.games.diplomacy.state import DiplomacyState

GAME = "diplomacy"


class DislodgedFacts(Facts):
    power: str
    unit: str
    attacker_from: str
    via_convoy: bool
    retreats: list[str]


class BoardFacts(Facts):
    """The board as ``Board.to_dict`` writes it (``Board.from_dict`` reads it back)."""

    map: str
    phase: str
    units: dict[str, list[str]]
    centres: dict[str, list[str]]
    dislodged: list[DislodgedFacts]
    finished: bool
    winner: str | None


class PowerFacts(Facts):
    id: str
    name: str
    centres: int
    units: int
    eliminated: bool


class OutcomeFacts(Facts):
    power: str
    order: str
    status: str
    dislodged: bool


class PhaseFacts(Facts):
    """A completed phase: every power's orders as submitted, and what became of them."""

    phase: str
    orders: dict[str, list[str]]
    results: list[OutcomeFacts]
    dislodged: list[str]


class CentreYear(Facts):
    year: int
    counts: dict[str, int]


class DiplomacyRules(Facts):
    end_year: int
    victory_centres: int
    supply_centres: int
    press_rounds: int
    press_max_messages: int
    press_max_length: int


class DiplomacyPublic(Facts):
    map: str
    phase: str
    phase_long: str
    year: int
    season: str
    phase_type: str
    stage: str
    press_round: int
    board: BoardFacts
    centre_counts: dict[str, int]
    powers: list[PowerFacts]
    history: list[PhaseFacts]
    centre_history: list[CentreYear]
    rules: DiplomacyRules
    result: Result | None


class CommitmentFacts(Facts):
    by: str
    with_: str
    what: str
    phase: str
    kind: str
    status: str


class DealFacts(Facts):
    """A deal this power is party to (it saw the agreement): ``by`` is bound, towards
    ``with_``, by ``term`` (the act that states it) over ``phases``."""

    by: str
    with_: str
    term: dict[str, str | int]
    phases: list[str]
    status: str


class BotFacts(Facts):
    """A bot power's own memory (docs/diplomacy-bot.md); only that power sees it."""

    persona: str
    deception: float
    read: str
    floor: dict[str, str]
    agenda: list[tuple[str, str]]
    commitments: list[CommitmentFacts]
    trust: dict[str, int]
    betrayals: list[str]
    journal: list[str]
    guards: dict[str, int]
    bootstrapped: bool
    deals: list[DealFacts] = Field(default_factory=list)
    #: what this power said it would do this phase (its offers, the requests it
    #: accepted), agreed or not: orders that contradict one are a lie
    said: list[DealFacts] = Field(default_factory=list)


class DiplomacyPrivate(Facts):
    power: str
    power_name: str
    home_centres: list[str]
    #: powers this one may press privately (empty without press)
    press_to: list[str]
    bot: BotFacts | None = None


DiplomacyView = View[DiplomacyPublic, DiplomacyPrivate]
SpectatorView = View[DiplomacyPublic, NoFacts]


@lru_cache(maxsize=16)
def _board(key: str) -> Board:
    return Board.from_dict(json.loads(key))


def board_of(view: DiplomacyView) -> Board:
    """The view's board. Boards are immutable values and cache their legal orders, so
    the seven powers of one phase share one rebuilt board (and its enumeration)."""
    return _board(json.dumps(view.public.board.model_dump(mode="json"), sort_keys=True))


def power_name(power: str) -> str:
    """``FRANCE`` → ``France`` (the map names powers in capitals)."""
    return power.capitalize()


def surviving(board: Board) -> list[str]:
    return [p for p in board.game_map.powers if not board.is_eliminated(p)]


def counts_line(board: Board) -> str:
    counts = board.centre_counts()
    return ", ".join(f"{power_name(p)} {counts.get(p, 0)}" for p in board.game_map.powers)


def units_line(board: Board, power: str) -> str:
    units = [str(u) for u in board.units_of(power)]
    return ", ".join(units) or "none"


def board_summary(board: Board, power: str | None = None, heading: bool = True) -> str:
    """A few lines for people and prompts: centres per power, units, dislodged units.

    ``heading=False`` leaves out the phase and centre counts, for screens that show the
    public ``phase`` event just before (which says the same)."""
    gm = board.game_map
    total = len(gm.supply_centres)
    head = f"{board.phase.long_name}. Supply centres: {counts_line(board)} (of {total})."
    lines = [head] if heading else []
    for p in gm.powers:
        if board.is_eliminated(p):
            continue
        mark = " (you)" if p == power else ""
        centres = ", ".join(board.centres_of(p)) or "none"
        lines.append(f"{power_name(p)}{mark}: units {units_line(board, p)}; centres {centres}.")
    if board.dislodged:
        lines.append(
            "Dislodged: "
            + ", ".join(f"{d.unit} ({power_name(d.unit.power)})" for d in board.dislodged)
            + "."
        )
    return "\n".join(lines)


def public_facts(st: DiplomacyState, cfg: DiplomacyConfig) -> DiplomacyPublic:
    board = st.board
    gm = board.game_map
    counts = board.centre_counts()
    return DiplomacyPublic(
        map=gm.name,
        phase=board.phase.name,
        phase_long=board.phase.long_name,
        year=board.phase.year,
        season=board.phase.season.value,
        phase_type=board.phase.type.value,
        stage=st.stage,
        press_round=st.press_round,
        board=BoardFacts.model_validate(board.to_dict()),
        centre_counts=counts,
        powers=[
            PowerFacts(
                id=p,
                name=power_name(p),
                centres=counts.get(p, 0),
                units=len(board.units_of(p)),
                eliminated=p in st.eliminated,
            )
            for p in gm.powers
        ],
        history=[PhaseFacts.model_validate(r.as_dict()) for r in st.history],
        centre_history=[CentreYear(year=y, counts=c) for y, c in st.centre_history],
        rules=DiplomacyRules(
            end_year=cfg.end_year,
            victory_centres=cfg.victory_centres or gm.victory_centres,
            supply_centres=len(gm.supply_centres),
            press_rounds=cfg.press_rounds,
            press_max_messages=cfg.press_max_messages,
            press_max_length=cfg.press_max_length,
        ),
        result=st.outcome,
    )


def seat_view(
    st: DiplomacyState, cfg: DiplomacyConfig, power: str, public: DiplomacyPublic
) -> DiplomacyView:
    gm = st.board.game_map
    private = DiplomacyPrivate(
        power=power,
        power_name=power_name(power),
        home_centres=list(gm.home_centres.get(power, ())),
        press_to=[p for p in surviving(st.board) if p != power] if cfg.press_rounds else [],
        bot=_bot_facts(st, cfg, power),
    )
    return DiplomacyView(
        game=GAME,
        seat=power,
        seat_name=power_name(power),
        phase=st.board.phase.name,
        public=public,
        private=private,
        events=tuple(st.log.visible(power)),
    )


def _bot_facts(st: DiplomacyState, cfg: DiplomacyConfig, power: str) -> BotFacts | None:
    memory = st.bots.get(power)
    if memory is None:
        return None
    return BotFacts(
        persona=cfg.personas.get(power, ""),
        deception=cfg.deception_of(power),
        read=memory.read,
        floor=dict(memory.floor),
        agenda=list(memory.agenda),
        commitments=[
            CommitmentFacts(
                by=c.by, with_=c.with_, what=c.what, phase=c.phase, kind=c.kind, status=c.status
            )
            for c in memory.commitments
        ],
        trust={p: memory.trust_of(p) for p in st.board.game_map.powers if p != power},
        betrayals=[f"{b.phase} {b.power}: {b.what}" for b in memory.betrayals],
        journal=list(memory.journal),
        guards=dict(memory.guards),
        bootstrapped=memory.bootstrapped,
        deals=[
            _deal_facts(d.by, d.with_, d.term, list(d.phases), d.status)
            for d in st.deals
            if d.status == "open" and power in (d.by, d.with_)
        ],
        said=[
            _deal_facts(by, to, p.term, [p.phase], "open")
            for by, to, p in statements(st.proposals.values(), st.accepted)
            if by == power
        ],
    )


def spectator(st: DiplomacyState, public: DiplomacyPublic, reveal: bool) -> SpectatorView:
    return SpectatorView.spectator(
        GAME, st.board.phase.name, public, NoFacts(), st.log.for_spectator(reveal)
    )


def _deal_facts(by: str, with_: str, term: Term, phases: list[str], status: str) -> DealFacts:
    """A deal or a statement as the bound power's view holds it: the term as its act's
    fields (``proposals.term_of`` reads it back)."""
    fields = {k: v for k, v in act_of(term).items() if k not in ("act", "ref")}
    return DealFacts(by=by, with_=with_, term=fields, phases=phases, status=status)
