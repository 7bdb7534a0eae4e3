"""Missing as a table of people: texts split at words, threaded replies (typed, shown),
scripted friends that answer, react, accuse and ask without repeating themselves, decks
shuffled by seed, story cards whose slots the game fills from what the addressee knows,
and clues that only the later part of the clock brings."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from parlour.cli.render import event_line
from parlour.core.actions import Choice, Text
from parlour.core.rng import Rng
from parlour.games.missing import MODULE, MissingGame
from parlour.games.missing.asks import MissingAsk
from parlour.games.missing.loader import CONTENT_DIR
from parlour.games.missing.texts import quote, split_texts
from parlour.games.missing.validate import validate_file
from tests.missing.helpers import full, scripted, small

_WORDS = st.text(alphabet="abcdefghij.?! ", min_size=1, max_size=12)


@given(st.lists(_WORDS, min_size=1, max_size=80), st.integers(min_value=40, max_value=200))
def test_split_texts_keeps_every_word_whole_and_every_text_within_the_limit(
    words: list[str], limit: int
) -> None:
    text = " ".join(words)
    parts = split_texts(text, limit)
    assert all(0 < len(p) <= limit for p in parts)
    assert " ".join(parts).split() == text.split()  # no word cut, none lost
    if len(" ".join(text.split())) <= limit:
        assert len(parts) <= 1


def test_split_texts_prefers_sentences_and_line_breaks() -> None:
    first = "I was at the boathouse all evening and the boat was dry, oars gone."
    second = "Whoever took them knew where the key was kept, which is not many people."
    third = "Call me."
    assert split_texts(f"{first} {second} {third}", 100) == [first, f"{second} {third}"]
    assert split_texts("On my way.\nCall me.", 160) == ["On my way.", "Call me."]
    assert quote("Has anyone heard from Tamsin since this afternoon? Bram?") == (
        "Has anyone heard from Tamsin since this…"
    )


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_scripted_replies_name_an_earlier_public_message_and_show_in_the_terminal(
    seed: int,
) -> None:
    game = scripted(full(), seed)
    by_seq = {e.seq: e for e in game.events}
    turns = [e for e in game.events if e.kind == "message" and e.data.get("part", 1) == 1]
    replies = [e for e in turns if "reply_to" in e.data]
    assert len(replies) >= len(turns) // 3, (len(replies), len(turns))
    names = {s.id: s.name for s in game.seats()}
    for reply in replies:
        answered = by_seq[reply.data["reply_to"]]
        assert answered.seq < reply.seq and answered.kind == "message"
        assert answered.audience.kind == "all" and answered.speaker != reply.speaker
        assert reply.data["reply_to_seat"] == answered.speaker
        assert answered.text.startswith(reply.data["quote"].removesuffix("…"))
        # a reply that opens by calling a friend by name speaks to its sender
        called = [n for s, n in names.items() if reply.text.startswith(f"{n.split()[0]},")]
        assert not called or called == [names[answered.speaker]], reply.text
    line = event_line(replies[0], names)
    assert f"→ {names[replies[0].data['reply_to_seat']]} (" in line


@pytest.mark.parametrize("seed", range(1, 9))
def test_no_scripted_line_comes_more_than_twice_a_game(seed: int) -> None:
    game = scripted(full() if seed % 2 else small(), seed)
    said = Counter(e.text for e in game.events if e.kind == "message")
    assert said and max(said.values()) <= 2, said.most_common(3)
    # several texts in some turns, and the scripted friends do more than one kind of act
    assert any(e.data.get("parts", 1) > 1 for e in game.events if e.kind == "message")


def test_answer_to_a_question_put_to_a_seat_draws_on_its_own_finds() -> None:
    """A seat asked by name answers the asker, from what it found (its own view)."""
    game = scripted(full(people=["p1"]), 8, until="chat")
    searcher = "p2"
    turn = next(d for d in game.pending() if d.seat == searcher and d.purpose == "turn")
    game.apply(turn.id, Choice(option="search:pub"))
    title = game.state.finds[searcher][0].title
    name = game.state.name(searcher)
    person = next(d for d in game.pending() if d.seat == "p1")
    game.apply(person.id, Text(text=f"{name}, what did you find at the pub?"))
    asked = game.events[-1]
    for _ in range(40):
        pending = game.pending()
        say = next((d for d in pending if d.purpose == "message" and d.seat == searcher), None)
        if say is not None:
            break
        d = next((d for d in pending if d.seat != "p1"), pending[0])
        if d.seat == "p1":
            game.apply(d.id, Text(text=""))  # the person stays quiet this round
        else:
            game.apply(d.id, Choice(option="speak3" if d.seat == searcher else "silent"))
    assert say is not None

    answering = MissingAsk.of(say).answering
    assert answering is not None and answering.seq == asked.seq
    answer = MODULE.policy(game.view(searcher), say, Rng(1))
    # the title may open the line's sentence, capitalised
    assert isinstance(answer, Text) and title.casefold() in answer.text.casefold()
    game.apply(say.id, answer)
    reply = next(e for e in game.events[asked.seq + 1 :] if e.kind == "message")
    assert reply.speaker == searcher and reply.data["reply_to"] == asked.seq


def test_a_person_answers_a_message_by_starting_with_its_senders_name() -> None:
    game = scripted(small(people=["p1"]), 6, until="chat")
    other = "p2"
    name = game.state.name(other)
    # let the AI seats speak until p2 has texted
    for _ in range(60):
        if any(e.kind == "message" and e.speaker == other for e in game.events):
            break
        pending = game.pending()
        d = next((d for d in pending if d.seat != "p1"), pending[0])
        if d.seat == "p1":
            game.apply(d.id, Text(text=""))
        elif d.purpose == "turn":
            game.apply(d.id, Choice(option="speak3"))
        else:
            game.apply(d.id, Text(text=f"Hi all, round {len(game.events)}."))
    theirs = [e for e in game.events if e.kind == "message" and e.speaker == other][-1]
    person = next(d for d in game.pending() if d.seat == "p1")
    game.apply(person.id, Text(text=f"{name}, where are you now?"))
    mine = game.events[-1]
    assert mine.speaker == "p1" and mine.data["reply_to"] == theirs.seq
    # Having spoken, the person is not asked in the next round: the AI seats answer first.
    assert all(d.seat != "p1" for d in game.pending())
    while all(d.seat != "p1" for d in game.pending()):
        d = game.pending()[0]
        answer = Choice(option="silent") if d.purpose == "turn" else Text(text="Right here.")
        game.apply(d.id, answer)
    person = next(d for d in game.pending() if d.seat == "p1")
    game.apply(person.id, Text(text="Where is everyone?"))
    assert "reply_to" not in game.events[-1].data


def test_decks_are_shuffled_by_seed() -> None:
    config = full()
    orders = {tuple(tuple(v) for v in MissingGame(config, s).state.deck.values()) for s in range(8)}
    assert len(orders) > 1
    again = MissingGame(config, 3).state.deck
    assert MissingGame(config, 3).state.deck == again
    for loc in config.town.locations:
        assert sorted(again[loc.id]) == sorted(c.id for c in loc.clues)


def test_story_card_slots_are_filled_only_with_what_the_addressee_knows() -> None:
    config = full()
    titles_used = 0
    for seed in range(1, 7):
        game = scripted(config, seed)
        assert len(game.state.card_words) == len(config.town.story_cards)
        for event in (e for e in game.events if e.kind == "story_card"):
            assert "{" not in event.text and "}" not in event.text
            seat = event.to[0]
            before = game.events[: event.seq]
            template = config.town.story_cards[event.data["card"]].prompt
            for clue in (c for loc in config.town.locations for c in loc.clues):
                if clue.title not in event.text or clue.title in template:
                    continue
                titles_used += 1
                own = any(
                    e.kind == "found" and e.to == (seat,) and e.data.get("clue") == clue.id
                    for e in before
                )
                told = any(
                    e.kind == "message" and clue.title[:12].casefold() in e.text.casefold()
                    for e in before
                )
                assert own or told, (seed, event.text, clue.id)
    assert titles_used > 0  # the {found} slot was filled with a find at least once


def test_the_last_third_of_the_clock_still_brings_clues() -> None:
    config = full()
    late = 0
    for seed in range(1, 5):
        game = scripted(config, seed)
        found = [e for e in game.events if e.kind == "found" and e.data.get("clue")]
        late += any(int(str(e.data["clock"]).split(":")[0]) < 30 for e in found)
        early = [e for e in found if int(str(e.data["clock"]).split(":")[0]) >= 60]
        marked = {c.id for loc in config.town.locations for c in loc.clues if c.available_at}
        assert not marked & {str(e.data["clue"]) for e in early}
    assert late >= 3


def test_a_search_before_a_clue_is_available_says_so_and_a_later_one_finds_it() -> None:
    game = scripted(full(), 2, until="chat")
    st_ = game.state
    st_.deck["lighthouse"] = ["map_note"]  # available from 22 minutes left
    turn = next(d for d in game.pending() if d.purpose == "turn")
    game.apply(turn.id, Choice(option="search:lighthouse"))
    said = [e for e in game.events if e.kind == "found"][-1]
    assert said.data["later"] is True and "under water" in said.text
    st_.left = 22 * 60  # the clock moved on (set directly: a test of the draw alone)
    st_.busy.clear()
    game._pending = None  # the state changed behind the game's back: ask afresh
    turn = next(d for d in game.pending() if d.purpose == "turn")
    game.apply(turn.id, Choice(option="search:lighthouse"))
    found = [e for e in game.events if e.kind == "found"][-1]
    assert found.data["clue"] == "map_note"


def test_validator_names_unknown_slots_and_marks_off_the_clock(tmp_path: Path) -> None:
    text = (CONTENT_DIR / "small_hours.yaml").read_text(encoding="utf-8")
    text = text.replace("Why would he? Tell the others.", "Why would {culprit}? Tell the others.")
    text = text.replace(
        "        text: A crumpled ticket",
        "        available_at: 45\n        text: A crumpled ticket",
    )
    path = tmp_path / "town.yaml"
    path.write_text(text, encoding="utf-8")
    problems, code = validate_file(path)
    codes = {p.code for p in problems}
    assert code == 1 and {"E010", "E011"} <= codes
    assert any("culprit" in p.message for p in problems if p.code == "E010")


def test_a_card_topic_is_a_name_as_written_or_a_thing_never_a_number_or_the_friend() -> None:
    from parlour.games.missing.talk import _topic

    tess = "Tess Marlow texts you: 'Is he with you?' What do you answer? Tell the others."
    assert _topic(tess, ("tess", "marlow"), "Arlo") == "Tess Marlow"  # opens the sentence
    hale = "You remember Mr Hale counting the till twice tonight. Tell the others."
    assert _topic(hale, ("hale", "till"), "Arlo") == "Mr Hale"
    wake = "You remember Arlo asking you to wake him at one, 'whatever happens'."
    assert _topic(wake, ("one", "wake", "arlo"), "Arlo") == "the wake"  # not "the one"
    dog = "You remember a dog's lead on Tamsin's door, though she has no dog."
    assert _topic(dog, ("dog", "lead"), "Tamsin") == "the dog"
    assert _topic("Nothing here names it.", ("one",), "Arlo") == "all this"


@pytest.mark.parametrize("seed", [1, 2])
def test_a_find_told_once_is_named_by_its_handles_after(seed: int) -> None:
    """A find's full title goes out when it is told; after that the chat names it by the
    town's handles ("the loan book page"), not its whole title every time."""
    game = scripted(full(), seed)
    chat = [e.text.casefold() for e in game.events if e.kind == "message"]
    clues = [c for loc in game.state.town.locations for c in loc.clues]
    assert all(c.handles for c in clues)
    told = [c for c in clues if any(c.title.casefold() in t for t in chat)]
    assert told
    for clue in told:
        assert sum(clue.title.casefold() in t for t in chat) <= 2, clue.title
    handled = [c for c in told if any(h.casefold() in t for t in chat for h in c.handles)]
    assert len(handled) >= len(told) // 2


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_a_line_that_calls_another_friend_answers_nobody_else(seed: int) -> None:
    """A seat asked to answer a message may speak to someone else instead ("Ines, how did
    the quarry go?" while answering Caspar): then the line is not threaded to Caspar."""
    game = scripted(full(), seed, until="chat")
    names = {s.id: s.name.split()[0] for s in game.seats()}
    checked = 0
    for _ in range(400):
        if game.is_terminal() or checked == 2:
            break
        decision = game.pending()[0]
        answering = MissingAsk.of(decision).answering if decision.purpose == "message" else None
        if answering is None:
            rng = Rng(seed)
            game.apply(decision.id, MODULE.policy(game.view(decision.seat), decision, rng))
            continue
        sender = next(s for s, n in names.items() if answering.name.startswith(n))
        other = next(s for s in names if s not in (sender, decision.seat))
        text = (
            f"{names[other]}, where were you at eight?"
            if checked == 0
            else (f"{names[sender]}, I was at home.")
        )
        game.apply(decision.id, Text(text=text))
        sent = next(e for e in reversed(game.events) if e.kind == "message")
        if checked == 0:
            assert "reply_to" not in sent.data, sent.text
        else:
            assert sent.data["reply_to"] == answering.seq, sent.text
        checked += 1
    assert checked == 2
