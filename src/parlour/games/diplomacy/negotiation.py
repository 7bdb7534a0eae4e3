"""The engine's side of proposals: acts checked and put into words when a message is sent,
accepted proposals turned into deals, deals and lies judged after adjudication, trust
moved, and the betrayal table at the end.

Who sees what: a proposal travels in a private message (sender and recipient); an
agreement, a judged deal and a lie are events for the two powers concerned; a refused
act is told to its sender only. When the game is over the betrayal table of every deal
is public (as the orders always were).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any, TypeVar

from parlour.core.events import Audience
from parlour.games.diplomacy import deals as dl
from parlour.games.diplomacy.board import Board
from parlour.games.diplomacy.bot_memory import Betrayal, BotMemory, Commitment
from parlour.games.diplomacy.config import DiplomacyConfig
from parlour.games.diplomacy.proposal_words import answer, counter_opening, sentence, summary
from parlour.games.diplomacy.proposals import (
    MUTUAL,
    Proposal,
    act_of,
    act_schema,
    check,
    term_of,
)
from parlour.games.diplomacy.state import DiplomacyState
from parlour.games.diplomacy.views import power_name, surviving

#: a pledge the deception bound counts: a bot's own promise, or a deal
P = TypeVar("P")

#: trust moves: a deal kept, a deal broken, a lie (not already a broken deal)
KEPT, BROKEN, LIED = 1, -2, -1


def open_offers(st: DiplomacyState, power: str, sender: str) -> dict[str, dict[str, Any]]:
    """``sender``'s unanswered proposals to ``power`` this phase, id → the act stating it."""
    return {
        p.id: act_of(p.term, "request" if p.ask else "offer")
        for p in st.proposals.values()
        if p.sender == sender and p.to == power and p.id not in st.answered
    }


def schema_for(st: DiplomacyState, power: str, partner: str, refs: list[str]) -> dict[str, Any]:
    """The proposal acts a message from ``power`` to ``partner`` may carry."""
    units = sorted(u.text for p in (power, partner) for u in st.board.units_of(p))
    powers = [p for p in surviving(st.board) if p not in (power, partner)]
    return act_schema(units, powers, refs)


def _refuse(st: DiplomacyState, power: str, item: Mapping[str, Any], why: str) -> None:
    st.emit(
        "refused",
        f"Your proposal ({item.get('act')} {item.get('term')}) was not sent: {why}.",
        Audience.only(power),
        data={"act": dict(item), "reason": why},
    )


def _propose(
    st: DiplomacyState, sender: str, to: str, item: Mapping[str, Any], ask: bool
) -> Proposal | None:
    term = term_of(dict(item))
    if isinstance(term, str):
        _refuse(st, sender, item, term)
        return None
    doer = sender if isinstance(term, MUTUAL) or not ask else to
    why = check(term, st.board, doer, to if doer == sender else sender)
    if why is not None:
        _refuse(st, sender, item, why)
        return None
    st.proposal_seq += 1
    p = Proposal(f"P{st.proposal_seq}", sender, to, term, ask, st.board.phase.name)
    st.proposals[p.id] = p
    return p


def apply_acts(
    st: DiplomacyState, sender: str, to: str, items: list[Mapping[str, Any]]
) -> tuple[list[str], list[dict[str, Any]]]:
    """Check and record ``sender``'s acts to ``to``: (their sentences, their data)."""
    words: list[str] = []
    data: list[dict[str, Any]] = []
    for item in items:
        kind = str(item.get("act", ""))
        if kind in ("offer", "request"):
            p = _propose(st, sender, to, item, kind == "request")
            if p is not None:
                words.append(sentence(p))
                data.append({"act": kind, "id": p.id, "what": _what(p)})
            continue
        ref = str(item.get("ref", ""))
        p_ref = st.proposals.get(ref)
        if p_ref is None or p_ref.to != sender or p_ref.sender != to or ref in st.answered:
            _refuse(st, sender, item, f"'{ref}' is no open proposal of {power_name(to)} to you")
            continue
        st.answered.add(ref)
        if kind == "accept":
            st.accepted.add(ref)
            words.append(answer("accept", p_ref, sender))
            _agree(st, p_ref)
            data.append({"act": kind, "ref": ref})
            continue
        words.append(answer("reject", p_ref, sender))
        data.append({"act": "reject", "ref": ref})
        if kind == "counter":
            p = _propose(st, sender, to, item, False)
            if p is not None:
                words += [counter_opening(ref), sentence(p)]
                data.append({"act": "offer", "id": p.id, "what": _what(p), "counters": ref})
    return words, data


def _what(p: Proposal) -> str:
    doer = p.doers()[0]
    return summary(p.term, doer, p.sender if doer == p.to else p.to, p.phase)


def _agree(st: DiplomacyState, p: Proposal) -> None:
    have = {(d.by, d.with_, d.term, d.phases) for d in st.deals if d.status == "open"}
    made = [d for d in dl.deals_of(p) if (d.by, d.with_, d.term, d.phases) not in have]
    if not made:
        return  # the same pact was agreed already (both sides offered it)
    st.deals += made
    lines = [summary(d.term, d.by, d.with_, p.phase) for d in made]
    st.emit(
        "deal",
        "Agreed: " + "; ".join(lines) + ".",
        Audience.only(p.sender, p.to),
        data={"id": p.id, "by": [d.by for d in made], "phases": list(made[0].phases)},
    )


# -- keeping one's word (the deception bound) ---------------------------------------------


def keep_word(
    st: DiplomacyState,
    cfg: DiplomacyConfig,
    memory: BotMemory,
    chosen: dict[str, str],
    options: dict[str, list[str]],
) -> dict[str, str]:
    """The deception bound on a bot's orders, for its own promises this phase and then for
    the deals binding it: a promise broken beyond the bound is restored (the promised order
    replaces the unit's); for a deal, each offending unit takes its first legal order that
    keeps it (its hold, or the promised order)."""
    power = memory.power
    board = st.board
    phase = board.phase.name
    promises = [
        c for c in memory.commitments if c.by == power and c.kind == "promise" and c.phase == phase
    ]
    deals = [d for d in st.deals if d.by == power and d.status == "open" and phase in d.phases]

    def unsaid(c: Commitment, now: Mapping[str, str]) -> bool:
        return c.what not in now.values()

    def say(c: Commitment, out: dict[str, str]) -> None:
        unit = next((u for u, opts in options.items() if c.what in opts), None)
        if unit is not None:
            out[unit] = c.what

    def breached(d: dl.Deal, now: Mapping[str, str]) -> bool:
        return bool(dl.breach(d.term, power, d.with_, board, now.values()))

    def mend(d: dl.Deal, out: dict[str, str]) -> None:
        for unit, order in list(out.items()):
            if order not in dl.breach(d.term, power, d.with_, board, out.values()):
                continue
            for text in options.get(unit, []):
                trial = {**out, unit: text}
                if text not in dl.breach(d.term, power, d.with_, board, trial.values()):
                    out[unit] = text
                    break

    kept = _within_bound(cfg, power, promises, chosen, unsaid, say)
    return _within_bound(cfg, power, deals, kept, breached, mend)


def _within_bound(
    cfg: DiplomacyConfig,
    power: str,
    pledges: Sequence[P],
    chosen: dict[str, str],
    broken: Callable[[P, Mapping[str, str]], bool],
    keep: Callable[[P, dict[str, str]], None],
) -> dict[str, str]:
    """The deception bound: of this phase's ``pledges`` binding ``power`` at most
    ``deception`` × n (rounded, ``cfg.breakable``) may stand broken in ``chosen``; ``keep``
    mends each further broken one, in order, in the copy returned."""
    if not pledges:
        return chosen
    allowed = cfg.breakable(power, len(pledges))
    out = dict(chosen)
    for p in [p for p in pledges if broken(p, out)][allowed:]:
        keep(p, out)
    return out


# -- after adjudication -------------------------------------------------------------------


def settle(st: DiplomacyState, board: Board, submitted: dict[str, tuple[str, ...]]) -> None:
    """Judge the deals this phase covers and the phase's statements; tell the powers
    concerned; move the bots' trust."""
    st.deals, now = dl.settle(st.deals, board, submitted)
    found = dl.lies(st.proposals.values(), st.accepted, board, submitted)
    st.lies += found
    phase = board.phase.name
    for d in now:
        verdict = (
            "kept"
            if d.status == "kept"
            else f"broken by {power_name(d.by)}: {', '.join(d.evidence)}"
        )
        st.emit(
            "deal_judged",
            f"{summary(d.term, d.by, d.with_, d.phases[0])}, agreed with "
            f"{power_name(d.with_)}: {verdict}.",
            Audience.only(d.by, d.with_),
            data={
                "id": d.id,
                "by": d.by,
                "with": d.with_,
                "status": d.status,
                "evidence": list(d.evidence),
                "phases": list(d.phases),
            },
        )
        partner = st.bots.get(d.with_)
        _bump(partner, d.by, KEPT if d.status == "kept" else BROKEN)
        if partner is not None and d.status == "broken":
            what = summary(d.term, d.by, d.with_, d.phases[0]).split(": ", 1)[1]
            partner.betrayals.append(Betrayal(phase, d.by, what))
    for lie in found:
        st.emit(
            "lie",
            f"{power_name(lie.by)} told {power_name(lie.to)} "
            f"'{summary(lie.term, lie.by, lie.to, phase)}' and then ordered "
            f"{', '.join(lie.evidence)}.",
            Audience.only(lie.by, lie.to),
            data={
                "by": lie.by,
                "to": lie.to,
                "evidence": list(lie.evidence),
                "agreed": lie.agreed,
            },
        )
        if not lie.agreed:  # an agreed one moved trust as a broken deal already
            _bump(st.bots.get(lie.to), lie.by, LIED)


def _bump(memory: BotMemory | None, power: str, delta: int) -> None:
    if memory is None or memory.power == power:
        return
    memory.trust[power] = max(1, min(5, memory.trust_of(power) + delta))


def deal_lines(st: DiplomacyState, power: str, phase: str) -> list[str]:
    """This phase's judged deals concerning ``power``, one short line each (journal)."""
    return [
        f"{summary(d.term, d.by, d.with_, d.phases[0])}: {d.status}"
        for d in st.deals
        if d.settled == phase and power in (d.by, d.with_)
    ]


def table(st: DiplomacyState) -> str:
    """The betrayal table: every deal, who promised what to whom, and what they did."""
    rows = [("promised by", "to", "what", "outcome", "what they did")]
    for d in st.deals:
        did = ", ".join(d.evidence) if d.status == "broken" else ""
        rows.append(
            (
                power_name(d.by),
                power_name(d.with_),
                summary(d.term, d.by, d.with_, d.phases[0]).split(": ", 1)[1],
                d.status if d.status != "open" else "open at the end",
                did,
            )
        )
    for lie in [x for x in st.lies if not x.agreed]:
        rows.append(
            (
                power_name(lie.by),
                power_name(lie.to),
                summary(lie.term, lie.by, lie.to, lie.phase).split(": ", 1)[1],
                "lie (said, not agreed)",
                ", ".join(lie.evidence),
            )
        )
    widths = [max(len(r[i]) for r in rows) for i in range(4)]
    return "\n".join(
        " | ".join(c.ljust(w) for c, w in zip(r[:4], widths, strict=True)) + " | " + r[4]
        for r in rows
    )


def final_table(st: DiplomacyState) -> None:
    if not st.deals and not st.lies:
        return
    kept = sum(d.status == "kept" for d in st.deals)
    broken = sum(d.status == "broken" for d in st.deals)
    st.emit(
        "betrayals",
        f"Deals of the game: {len(st.deals)} agreed, {kept} kept, {broken} broken; "
        f"{len(st.lies)} lie(s).\n" + table(st),
        Audience.everyone(),
        data={
            "deals": [
                {
                    "id": d.id,
                    "by": d.by,
                    "with": d.with_,
                    "what": summary(d.term, d.by, d.with_, d.phases[0]),
                    "status": d.status,
                    "evidence": list(d.evidence),
                }
                for d in st.deals
            ],
            "lies": [
                {"by": x.by, "to": x.to, "phase": x.phase, "evidence": list(x.evidence)}
                for x in st.lies
            ],
        },
    )
