"""The ``chat`` phase, in rounds on the simulated clock.

Each AI seat is asked, concurrently and as answers arrive, a cheap choice: stay silent,
speak with an urgency 1-3, or search a free place. When the round is complete the referee
(``referee.py``) picks one speaker, who is then asked for the message. A person's seat
instead gets a standing free-text decision each round: a message takes the next slot at
once (the round's open questions are withdrawn; the next round then goes on without
waiting for them), a ``/command`` is answered privately, and an empty answer (or the wall
deadline) lets the round go on. A turn's answer may run to
``texts_per_turn`` texts (``texts.py`` splits it at sentences or words); every text costs
typing time (``clock.py``), after which due story cards fire (``story.py``). A message
may answer another: the chosen speaker is told which one (``texts.reply_target``), a
person answers one by starting with its sender's name, and the message's event carries
the reference (``reply_to``: the answered event's seq, its sender, a short quote).
"""

from __future__ import annotations

import re
from typing import Any

from parlour.core.decisions import Decision
from parlour.core.errors import IllegalAction
from parlour.core.events import Audience, Event
from parlour.games.missing import asks, story
from parlour.games.missing.clock import mmss, typing_seconds
from parlour.games.missing.commands import command
from parlour.games.missing.config import MissingConfig
from parlour.games.missing.referee import Bid, pick_speaker, quietest
from parlour.games.missing.search import mark_shared, places_for, search
from parlour.games.missing.state import MissingState
from parlour.games.missing.texts import names_in, quote, reply_target, split_texts

TURN = "turn"
MESSAGE = "message"


def pending(st: MissingState, cfg: MissingConfig) -> tuple[Decision, ...]:
    r = st.round
    if st.speaker is not None:
        seat = st.speaker
        card = st.pending_card(seat)
        about = card.about if card is not None and not card.final else ()
        reply = _reply_for(st, seat)
        answering = (
            asks.Answering(seq=reply.seq, name=st.name(reply.speaker), text=reply.text)
            if reply is not None
            else None
        )
        return (
            asks.say(
                f"r{r}:say:{seat}",
                seat,
                cfg.message_limit,
                about,
                st.speaker_why,
                texts=cfg.texts_per_turn,
                answering=answering,
            ),
        )
    out: list[Decision] = []
    free, taken = places_for(st)
    for seat in st.ais():
        if seat in st.answered:
            continue
        out.append(asks.round_choice(f"r{r}:{seat}", seat, free, taken, seat in st.card_of))
    for seat in st.persons():
        if seat in st.answered:
            continue
        k = st.asked_person[seat]
        out.append(
            asks.person_message(
                f"r{r}:p{k}:{seat}", seat, cfg.message_limit, cfg.person_wait, cfg.texts_per_turn
            )
        )
    return tuple(out)


def apply_turn(st: MissingState, cfg: MissingConfig, seat: str, option: str) -> None:
    """An AI seat's answer to the round's question; a search happens at once."""
    if option.startswith(asks.SEARCH_PREFIX):
        place = option.removeprefix(asks.SEARCH_PREFIX)
        who = st.occupant(place)
        if who is not None and who != seat:  # options never offer it; kept as a rule
            raise IllegalAction(f"{st.name(who)} is already there")
        search(st, cfg, seat, place)
    st.answered[seat] = option
    _holders_speak(st)
    _maybe_close_round(st, cfg)


def apply_message(
    st: MissingState, cfg: MissingConfig, seat: str, text: str, act: str = ""
) -> None:
    """The message of the seat the round picked, or a person's standing answer. ``act``:
    the id of the act decision whose line this is (``acts.py``), "" for the seat's words."""
    if st.is_person(seat) and st.speaker is None:
        _apply_person(st, cfg, seat, text)
        return
    reply = _reply_for(st, seat)
    spoken_to = _called(st, seat, text)
    if reply is not None and spoken_to is not None and spoken_to != reply.speaker:
        reply = None  # "Ines, how did the quarry go?" answers nobody but Ines
    st.speaker = None
    _post(st, cfg, seat, text, reply, act)
    _next_round(st, cfg)


def _apply_person(st: MissingState, cfg: MissingConfig, seat: str, text: str) -> None:
    """A person's standing answer: nothing (quiet this round), a command, or a message."""
    st.asked_person[seat] += 1
    line = text.strip()
    if not line:
        st.answered[seat] = asks.SILENT
        _maybe_close_round(st, cfg)
        return
    if line.startswith("/"):
        command(st, cfg, seat, line)
        _holders_speak(st)  # a /search costs clock time: a card may have fired
        _maybe_close_round(st, cfg)
        return
    # A person's message takes the next slot: the round's open questions are withdrawn.
    _post(st, cfg, seat, line, _person_reply(st, seat, line))
    st.silent_rounds = 0
    _next_round(st, cfg)
    # They just spoke: the next round does not wait for them to type again, so the AI
    # seats can answer at once (the round after asks them again).
    if st.phase == "chat" and st.speaker is None and seat not in st.answered:
        st.answered[seat] = asks.SILENT
        _maybe_close_round(st, cfg)


def _maybe_close_round(st: MissingState, cfg: MissingConfig) -> None:
    """Once every seat answered, the referee picks a speaker; two silent rounds in a row
    make the quietest AI seat speak."""
    if st.phase != "chat" or any(s not in st.answered for s in st.seats):
        return
    bids = [Bid(seat=s, urgency=int(o[-1])) for s, o in st.answered.items() if o in asks.SPEAK]
    best = pick_speaker(
        bids,
        history=st.history,
        addressed=_addressed(st),
        cap=cfg.max_in_a_row,
        seed=st.seed,
        round_no=st.round,
    )
    if best is not None:
        st.silent_rounds = 0
        st.speaker = best
        st.speaker_why = "It is your turn to text the group."
        return
    st.silent_rounds += 1
    story.advance(st, cfg.silence_seconds)
    if st.phase != "chat":
        return
    ais = st.ais()
    if st.silent_rounds >= 2 and ais:
        st.silent_rounds = 0
        st.speaker = quietest(ais, st.messages, st.history)
        st.speaker_why = "Nobody has said anything for a while: say something."
        return
    _next_round(st, cfg)


def _next_round(st: MissingState, cfg: MissingConfig) -> None:
    if st.phase != "chat":
        return
    st.round += 1
    st.answered = {}
    _holders_speak(st)
    if st.answered and all(s in st.answered for s in st.seats):
        _maybe_close_round(st, cfg)


def _holders_speak(st: MissingState) -> None:
    """Calls whose answer the engine already knows are not made: an AI seat holding an
    unanswered story card asks to speak now (the rules make it answer next). A card may
    fire in the middle of a round too, when a search costs the clock its time."""
    for seat in st.ais():
        if seat in st.card_of and seat not in st.answered:
            st.answered[seat] = asks.SPEAK[-1]


def _addressed(st: MissingState) -> set[str]:
    """The seats the last message names."""
    words = set(re.findall(r"[a-z]+", st.last_text.casefold()))
    return {s for s in st.seats if st.name(s).casefold() in words}


def _messages(st: MissingState) -> list[Event]:
    return [e for e in st.log.events if e.kind == "message"]


def _first_names(st: MissingState) -> dict[str, str]:
    return {s: st.name(s) for s in st.seats}


def _reply_for(st: MissingState, seat: str) -> Event | None:
    """The message the chosen speaker answers (None when it holds a story card: its
    answer is the card's)."""
    if seat in st.card_of:
        return None
    return reply_target(_messages(st), seat, _first_names(st))


def _called(st: MissingState, seat: str, line: str) -> str | None:
    """The other friend a line opens by calling by name ("Bram, ..." or "@Bram ..."), if
    any: whom the line speaks to."""
    first = line.split(maxsplit=1)[0].lstrip("@") if line.split() else ""
    others = {s: n for s, n in _first_names(st).items() if s != seat}
    named = names_in(first, others)
    if len(named) != 1 or first.strip(",:;!?").casefold() != others[next(iter(named))].casefold():
        return None
    return next(iter(named))


def _person_reply(st: MissingState, seat: str, line: str) -> Event | None:
    """A person answers a message by starting theirs with its sender's name: the latest
    message that player sent."""
    sender = _called(st, seat, line)
    if sender is None:
        return None
    return next((e for e in reversed(_messages(st)) if e.speaker == sender), None)


def _post(
    st: MissingState,
    cfg: MissingConfig,
    seat: str,
    text: str,
    reply: Event | None = None,
    act: str = "",
) -> None:
    """A turn's message: one text or several, each costing typing time, after each of
    which due story cards fire; the first text carries what it answers."""
    index = st.card_of.get(seat)
    card = st.pending_card(seat)
    parts = split_texts(text, cfg.message_limit) or [text]
    for n, part in enumerate(parts):
        story.run_clock(st, typing_seconds(part, cfg.base_seconds, cfg.chars_per_second))
        data: dict[str, Any] = {"clock": mmss(st.left), "seconds_left": round(st.left, 1)}
        if n == 0 and index is not None:
            data["answers_card"] = index
            data["news"] = True
        if n == 0 and reply is not None:
            data["reply_to"] = reply.seq
            data["reply_to_seat"] = reply.speaker
            data["quote"] = quote(reply.text)
        if act:
            data["act"] = act
        if len(parts) > 1:
            data["part"] = n + 1
            data["parts"] = len(parts)
        if mark_shared(st, seat, part):
            data["news"] = True
        st.log.emit("message", "chat", part, Audience.everyone(), speaker=seat, data=data)
        if n + 1 < len(parts):
            story.after_time(st)
            if st.phase != "chat":
                return
    st.messages[seat] += 1
    st.history.append(seat)
    st.last_text = text
    if card is not None and st.card_of.get(seat) == index:
        del st.card_of[seat]
        if card.final:
            story.announce(st)
            return
    story.after_time(st)
