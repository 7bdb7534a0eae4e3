"""Speech acts: day talk as a choice a small model can make well, put into words by the game.

A seat that speaks in acts (``WerewolfConfig.speech``; by default the seats a small model
plays) gets a choose-one ``speak`` decision instead of free text. Each option is a whole
move: an act, its target and a reason taken from the seat's own facts, e.g. "accuse Omar:
voted for Kenji, who was a villager". The facts are read from what the seat has seen (its
visible events) and the public table, so the engine, not the model, vouches for every
reason. The model may add a short phrase (``Choice.reason``, at most ``phrase_words``
words, guarded against loops, copying and echoes by the seat); the game renders the move
as a sentence in the character's voice (``speech_voice.py``).

Acts: accuse, defend, question (a living other player, with a reason), claim (villager,
or the seat's real seer/doctor role), reveal (the seer, one of its own results on a
living player; a wolf, the fake result its day plan claims), agree (with today's last
spoken act by another player), quiet (a pass).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from parlour.core.actions import Choice
from parlour.core.decisions import Decision, DecisionKind, Option
from parlour.core.events import Event
from parlour.games.werewolf.ask import SpeakAsk
from parlour.games.werewolf.config import WerewolfConfig
from parlour.games.werewolf.plans import plan_events
from parlour.games.werewolf.roles import Role, with_article
from parlour.games.werewolf.state import WerewolfState

ACCUSE, DEFEND, QUESTION = "accuse", "defend", "question"
CLAIM, REVEAL, AGREE, QUIET = "claim", "reveal", "agree", "quiet"
ACTS = (ACCUSE, DEFEND, CLAIM, REVEAL, QUESTION, AGREE, QUIET)
#: Reasons offered per target and act: the strongest first, so the list stays short.
REASONS_PER_TARGET = 2


@dataclass(frozen=True)
class Move:
    """One legal speech act. ``because`` is a clause about the target ("voted for Kenji,
    who was a villager"); ``role``/``reading`` serve claim and reveal.

    ``kind`` names the reason's wording family (``speech_voice.py`` has several true
    wordings of each); ``about`` is the other player the reason names (an accuser, a
    voted player, a dead seer) and ``detail`` what else it needs (a role, a day)."""

    act: str
    target: str = ""
    reason: str = ""
    because: str = ""
    role: str = ""
    reading: str = ""
    #: agree: whose act is agreed with, and that act
    with_seat: str = ""
    with_act: str = ""
    kind: str = ""
    about: str = ""
    detail: str = ""

    @property
    def id(self) -> str:
        parts = [self.act, self.target or self.role, self.reason]
        return ":".join(p for p in parts if p)

    def data(self) -> dict[str, Any]:
        out: dict[str, Any] = {"act": self.act}
        keys = ("target", "reason", "role", "reading", "with_seat", "with_act", "about", "kind")
        for key in keys:
            value = getattr(self, key)
            if value:
                out[key] = value
        return out


#: "has said nothing today" is a reason only once this many lines were spoken today:
#: before that nobody has said anything, and blaming one player for it is absurd.
QUIET_AFTER = 3


@dataclass
class SeatFacts:
    """What one seat knows that a reason may cite: public records plus its own results."""

    me: str
    names: dict[str, str]
    alive: set[str]
    #: dead players whose role is public: seat → role
    revealed: dict[str, str]
    #: ballots seen, in order: (day, voter, target)
    votes: list[tuple[int, str, str]] = field(default_factory=list)
    #: spoken acts seen today, in order: (speaker, act data)
    today: list[tuple[str, dict[str, Any]]] = field(default_factory=list)
    #: role claims seen (any day): claimer → role
    claims: dict[str, str] = field(default_factory=dict)
    #: the seer's own results: target → "evil" | "innocent"
    results: dict[str, str] = field(default_factory=dict)
    #: players who spoke today (a message, not a pass)
    spoke_today: set[str] = field(default_factory=set)
    #: lines spoken today, by anyone
    lines_today: int = 0

    def mine(self) -> list[dict[str, Any]]:
        """The acts this seat made today, in order."""
        return [d for s, d in self.today if s == self.me]

    def stance(self, act: str) -> set[str]:
        """Whom this seat took ``act`` against today, directly or by agreeing."""
        return {
            str(d.get("target"))
            for d in self.mine()
            if d.get("act") == act or (d.get("act") == AGREE and d.get("with_act") == act)
        }

    def quiet(self, target: str) -> bool:
        return target not in self.spoke_today and self.lines_today >= QUIET_AFTER


def seat_facts(st: WerewolfState, seat: str) -> SeatFacts:
    facts = SeatFacts(
        me=seat,
        names={p.id: p.name for p in st.players},
        alive={p.id for p in st.players if p.alive},
        revealed={p.id: p.role.value for p in st.players if not p.alive and p.revealed},
    )
    today = f"day {st.day}"
    for event in st.log.visible(seat):
        _read(facts, event, today)
    return facts


def _read(facts: SeatFacts, event: Event, today: str) -> None:
    data = event.data
    if event.kind == "vote":
        facts.votes.append((int(data.get("day", 0)), str(data["voter"]), str(data["target"])))
    elif event.kind == "seer_result":
        facts.results[str(data["target"])] = str(data["reading"])
    elif event.kind == "speech":
        act = data.get("act")
        if act in (CLAIM, REVEAL) or data.get("kind") == "seer_evil":
            facts.claims[event.speaker] = str(data.get("role") or Role.SEER.value)
        if event.phase == today:
            facts.spoke_today.add(event.speaker)
            facts.lines_today += 1
            if act:
                facts.today.append((event.speaker, dict(data)))


def _against_me(f: SeatFacts, target: str) -> list[Move]:
    """Today's acts of ``target`` against this seat: an accusation (only an ``accuse``
    act: a question is not one), or agreeing with someone else's accusation of it."""
    out: list[Move] = []
    for speaker, d in f.today:
        if speaker != target or d.get("target") != f.me:
            continue
        if d.get("act") == ACCUSE and not any(m.kind == "accused_me" for m in out):
            out.append(Move(ACCUSE, target, "accused_me", "accused me today", kind="accused_me"))
        elif d.get("act") == AGREE and d.get("with_act") == ACCUSE and not out:
            out.append(
                Move(
                    ACCUSE,
                    target,
                    "sided",
                    f"backed {f.names[str(d['with_seat'])]}'s case against me today",
                    kind="sided",
                    about=str(d["with_seat"]),
                )
            )
    return out[:1]


def _accusations(f: SeatFacts, target: str) -> list[Move]:
    n = f.names
    out = _against_me(f, target)
    for day, voter, voted in f.votes:
        role = f.revealed.get(voted)
        # Blaming a vote the speaker cast too would be absurd ("Omar voted for Aiko, a
        # villager", said by one of Aiko's voters).
        also_mine = (day, f.me, voted) in f.votes
        if (
            voter == target
            and role is not None
            and role not in ("werewolf", "maniac")
            and not also_mine
        ):
            out.append(
                Move(
                    ACCUSE,
                    target,
                    f"vote{day}",
                    f"voted for {n[voted]}, who was {with_article(Role(role))}",
                    kind="vote_dead",
                    about=voted,
                    detail=with_article(Role(role)),
                )
            )
        elif voter == target and voted == f.me:
            out.append(
                Move(
                    ACCUSE,
                    target,
                    f"vote{day}",
                    f"voted against me on day {day}",
                    kind="vote_me",
                    detail=str(day),
                )
            )
    claimed = f.claims.get(target)
    seer_dead = [s for s, r in f.revealed.items() if r == "seer"]
    if claimed == "seer" and seer_dead:
        out.append(
            Move(
                ACCUSE,
                target,
                "false_claim",
                f"claimed the seer, but {n[seer_dead[0]]} was",
                kind="false_claim",
                about=seer_dead[0],
            )
        )
    if f.quiet(target):
        out.append(Move(ACCUSE, target, "quiet", "has said nothing today", kind="quiet"))
    seen = f.results.get(target)
    if seen == "evil":
        # The seer's own night result is the strongest reason it has: it comes first and
        # says what was seen, never "a bad feeling" about a player it knows is evil.
        out.insert(
            0, Move(ACCUSE, target, "seen", "showed as evil when I checked", kind="seer_evil")
        )
    elif not out and seen is None:
        # a stated hunch only when no fact speaks against the target (and not about a
        # player the seer saw as innocent: it knows better than a feeling)
        out.append(
            Move(
                ACCUSE,
                target,
                "hunch",
                "gives me a bad feeling, though I have no proof",
                kind="hunch",
            )
        )
    return out[:REASONS_PER_TARGET]


def _cause(d: dict[str, Any]) -> str:
    """What an accusation rested on, as a defence may truthfully describe it."""
    reason = str(d.get("reason", ""))
    if reason == "quiet":
        return "quiet"
    if reason in ("accused_me", "sided"):
        return "payback"
    if reason == "hunch":
        return "hunch"
    return "fact"  # a vote record or a false claim: a defence may not call it baseless


def _defences(f: SeatFacts, target: str) -> list[Move]:
    n = f.names
    for day, voter, voted in f.votes:
        if voter == target and f.revealed.get(voted) == "werewolf":
            return [
                Move(
                    DEFEND,
                    target,
                    f"vote{day}",
                    f"voted for {n[voted]}, who was a werewolf",
                    kind="vote_wolf",
                    about=voted,
                )
            ]
    for speaker, d in reversed(f.today):
        if d.get("act") == ACCUSE and d.get("target") == target and speaker != f.me:
            cause = _cause(d)
            because = {
                "quiet": f"was accused by {n[speaker]} only for being quiet",
                "payback": f"was accused by {n[speaker]} only in return for an accusation",
                "hunch": f"was accused by {n[speaker]} on a hunch",
                "fact": f"was accused by {n[speaker]}, and I am not convinced",
            }[cause]
            return [
                Move(DEFEND, target, "accused", because, kind=f"accused_{cause}", about=speaker)
            ]
    return []


def _question(f: SeatFacts, target: str) -> Move:
    n = f.names
    if f.quiet(target):
        return Move(QUESTION, target, "quiet", "has said nothing today", kind="q_quiet")
    for speaker, d in reversed(f.today):
        if speaker == target and d.get("act") == ACCUSE and d.get("target") in n:
            accused = str(d["target"])
            who = "me" if accused == f.me else n[accused]
            return Move(
                QUESTION,
                target,
                "accusation",
                f"accused {who}",
                kind="q_accusation",
                about=accused,
            )
    # "has not named a suspect yet" is true whether or not the target spoke; the wording
    # family says which ("you have talked but accused no one" only after it talked).
    kind = "q_read" if target in f.spoke_today else "q_open"
    return Move(QUESTION, target, "read", "has not named a suspect yet", kind=kind)


def legal_moves(st: WerewolfState, seat: str, lies: bool = False) -> list[Move]:
    """Every act this seat may make now, in a stable order; ``lies``: a wolf may say the
    fake seer claim its plan holds (``WerewolfConfig.acts_follow_plan``)."""
    f = seat_facts(st, seat)
    me = st.player(seat)
    others = [p.id for p in st.players if p.alive and p.id != seat]
    moves: list[Move] = []
    # No turning on a player this seat stood up for today, or the reverse, and no saying
    # the same act with the same reason twice in a day (a person would not).
    accused, defended = f.stance(ACCUSE), f.stance(DEFEND)
    made = {
        Move(str(d["act"]), str(d.get("target", "")), str(d.get("reason", ""))).id
        for d in f.mine()
        if d.get("act") in (ACCUSE, DEFEND, QUESTION)
    }
    for t in others:
        if t not in defended:
            moves.extend(m for m in _accusations(f, t) if m.id not in made)
    for t in others:
        if t not in accused:
            moves.extend(m for m in _defences(f, t) if m.id not in made)
    moves.extend(m for m in (_question(f, t) for t in others) if m.id not in made)
    own = f.claims.get(seat)
    roles = ["villager"]
    if me.role in (Role.SEER, Role.DOCTOR):
        roles.insert(0, me.role.value)
    moves.extend(Move(CLAIM, role=r, reason="claim") for r in roles if r != own)
    said = {d.get("target") for s, d in f.today if s == seat and d.get("act") == REVEAL}
    if me.role is Role.SEER:
        moves.extend(
            Move(REVEAL, t, "result", role="seer", reading=r)
            for t, r in f.results.items()
            # living players only: a dead player's role is announced at death, and "X
            # is evil" about the dead would speak of them as if alive
            if t not in said and t in f.alive
        )
    elif me.is_wolf and lies:
        # A wolf's plan may hold a fake seer claim (``plans._wolf_plans``): it says it as
        # the seer would, so a wolf that speaks in acts can keep to its lie.
        lie = _planned_claim(st, seat)
        if lie is not None and lie[0] in f.alive and lie[0] not in said:
            moves.append(Move(REVEAL, lie[0], "result", role="seer", reading=lie[1]))
    last = next(((s, d) for s, d in reversed(f.today) if s != seat), None)
    if last is not None:
        speaker, d = last
        target = str(d.get("target", ""))
        act = str(d.get("act"))
        against = defended if act == ACCUSE else accused
        agreed = any(
            m.get("act") == AGREE and m.get("with_seat") == speaker and m.get("target") == target
            for m in f.mine()
        )
        if (
            act in (ACCUSE, DEFEND)
            and target in f.alive
            and target != seat
            and target not in against
            and not agreed
        ):
            moves.append(
                Move(AGREE, target, speaker, with_seat=speaker, with_act=str(d.get("act")))
            )
    moves.append(Move(QUIET))
    return moves


def _planned_claim(st: WerewolfState, seat: str) -> tuple[str, str] | None:
    """(target, reading) of the seer claim in the seat's plan for today, if it holds one."""
    kept = plan_events(st.log.events, seat, st.day)
    if not kept:
        return None
    data = kept[-1].data
    target, reading = str(data.get("claim_target", "")), str(data.get("claim_reading", ""))
    if data.get("claim") != "seer" or not target or reading not in ("evil", "innocent"):
        return None
    return target, reading


def label(move: Move, names: dict[str, str]) -> str:
    """What the model reads and picks: the act, its target and its reason."""
    t = names.get(move.target, move.target)
    if move.act in (ACCUSE, DEFEND, QUESTION):
        because = "a hunch, no proof" if move.reason == "hunch" else move.because
        return f"{move.act} {t}: {because}"
    if move.act == CLAIM:
        return f"claim to be {with_article(Role(move.role))}"
    if move.act == REVEAL:
        return f"reveal that {t} is {'evil' if move.reading == 'evil' else 'not evil'}"
    if move.act == AGREE:
        return f"agree with {names[move.with_seat]} ({move.with_act} {t})"
    return "stay quiet"


#: Reason kinds whose fact is about the speaker ("accused me") or is the speaker's own
#: feeling or result: another seat saying the same words states a different fact, so
#: these are never back-referenced.
PERSONAL_KINDS = frozenset({"accused_me", "sided", "vote_me", "hunch", "seer_evil"})
#: Kinds whose fact about one player may be said of another "too" (``Echo.other``): a
#: record that stays true (a ballot, an accusation made), not a state that can change
#: (silence).
SHARED_KINDS = frozenset(
    {"vote_wolf", "vote_dead", "accused_hunch", "accused_quiet", "accused_payback", "accused_fact"}
)


@dataclass(frozen=True)
class Echo:
    """An earlier line today, seen by the speaker, that already said a move's reason.

    ``other`` empty: ``speaker`` stated the same fact about the same player (the line
    says "for the reason Omar gave" instead of the clause again). ``other`` set:
    ``speaker`` (possibly the speaker of the new line) said the same kind of fact, with
    the same other player, about ``other`` (the line says "voted for Kenji too, like
    Hiroshi")."""

    speaker: str
    other: str = ""


def earlier_statement(f: SeatFacts, move: Move) -> Echo | None:
    """The line today that already stated ``move``'s reason, if any (see ``Echo``).

    Only lines that stated a reason in their own words count: a line that was itself a
    back-reference (``ref`` in its data) did not state the fact, so it is never cited.
    The latest such line is cited; the same fact is preferred over a like one."""
    if move.act not in (ACCUSE, DEFEND) or not move.kind or move.kind in PERSONAL_KINDS:
        return None
    stated = [(s, d) for s, d in reversed(f.today) if not d.get("ref") and d.get("kind")]
    for speaker, d in stated:
        if (
            speaker != f.me
            and d.get("act") == move.act
            and d.get("target") == move.target
            and d.get("reason") == move.reason
            and d.get("kind") == move.kind
            and d.get("about", "") == move.about
        ):
            return Echo(speaker)
    if move.kind not in SHARED_KINDS:
        return None
    for speaker, d in stated:
        other = str(d.get("target", ""))
        if (
            d.get("act") == move.act
            and d.get("kind") == move.kind
            and d.get("about", "") == move.about
            and other
            and other != move.target
        ):
            return Echo(speaker, other)
    return None


def speaks_in_acts(cfg: WerewolfConfig, seat: str) -> bool:
    if cfg.speech == "free" or seat in cfg.open_mic:
        return False
    return cfg.speech == "acts" or seat in cfg.act_seats


def _todays_plan(st: WerewolfState, seat: str) -> tuple[str, str] | None:
    """(vote, defend) of the seat's plan for today, or None when it holds none."""
    disc = st.discussion
    key = disc.plan_keys.get(seat) if disc is not None and disc.day == st.day else None
    if not key:
        return None
    vote, defend = key.split("|")[:2]
    return vote, defend


def _accused(m: Move) -> str:
    """The player a move accuses (an accusation, or agreeing with one), else ""."""
    return m.target if m.act == ACCUSE or (m.act == AGREE and m.with_act == ACCUSE) else ""


def _follow_plan(st: WerewolfState, seat: str, moves: list[Move]) -> list[Move]:
    """With a day plan (``plans.py``): no move that defends the plan's vote target or
    accuses the player it defends, and the moves that carry the plan out first (reveal,
    then accuse the target, then defend the trusted player)."""
    plan = _todays_plan(st, seat)
    if plan is None:
        return moves
    vote, defend = plan
    kept = [
        m
        for m in moves
        if not (m.act == DEFEND and m.target == vote)
        and not (defend and m.act == ACCUSE and m.target == defend)
    ]

    def rank(m: Move) -> int:
        if m.act == REVEAL:
            return 0
        if m.act == ACCUSE and m.target == vote:
            return 1
        if defend and m.act == DEFEND and m.target == defend:
            return 2
        return 3

    return sorted(kept or moves, key=rank)


def _engine_planned(st: WerewolfState, seat: str, moves: list[Move]) -> list[Move]:
    """The accusations a seat whose plan the engine keeps (a small model) is offered:
    only of the player its plan votes for (the engine casts its vote by the plan, so an
    accusation of anyone else would be words its vote then contradicts), and, for a wolf,
    never of a packmate (for a small model a slip, not a bluff; a capable model may
    still bus a packmate in its own words). Joining an accusation counts as making it."""
    pack = {w.id for w in st.wolves() if w.id != seat} if st.player(seat).is_wolf else set()
    plan = _todays_plan(st, seat)
    vote = plan[0] if plan is not None else ""
    return [
        m
        for m in moves
        if not (target := _accused(m)) or (target not in pack and (not vote or target == vote))
    ]


def act_decision(
    st: WerewolfState,
    cfg: WerewolfConfig,
    seat: str,
    decision_id: str,
    prompt: str,
    ask: SpeakAsk,
) -> Decision:
    names = {p.id: p.name for p in st.players}
    moves = legal_moves(st, seat, lies=cfg.acts_follow_plan)
    if seat in cfg.engine_plans and cfg.acts_follow_plan:
        moves = _engine_planned(st, seat, moves)
    moves = _follow_plan(st, seat, moves)
    return Decision(
        id=decision_id,
        seat=seat,
        kind=DecisionKind.CHOOSE_ONE,
        purpose="speak",
        # The choice (a label of at most ~16 tokens) comes first and a phrase of at most
        # phrase_words words after it; a cut-off "why" is closed by the backend.
        max_tokens=28 + 2 * cfg.speech_phrase_words,
        prompt=prompt,
        options=tuple(Option(id=m.id, label=label(m, names)) for m in moves),
        phrase_words=cfg.speech_phrase_words,
        checks=("prompt_copy", "repetition", "echo") if cfg.speech_phrase_words else (),
        context=ask.model_copy(update={"acts": True}).context(),
    )


def move_of(st: WerewolfState, decision: Decision, action: Choice) -> Move:
    """The legal move an answer picked (recomputed: the state has not changed since; the
    answer was checked against the decision's own options, so lies may be among them)."""
    for move in legal_moves(st, decision.seat, lies=True):
        if move.id == action.option:
            return move
    raise KeyError(action.option)
