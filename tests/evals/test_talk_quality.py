"""The talk-quality rules on hand-made lines: each fires where it should and only there."""

from __future__ import annotations

from parlour.evals.talk_quality import (
    Line,
    identical_to_other_seat,
    instruction_text,
    names_as_if_alive,
    prompt_copy,
    repeated_ngram,
    score_lines,
    shares,
    tokens,
)


def test_tokens_drop_punctuation_and_case() -> None:
    assert tokens("Stay. Stay! I'm  sure, 2 of us.") == [
        "stay",
        "stay",
        "i'm",
        "sure",
        "2",
        "of",
        "us",
    ]


def test_repeated_4gram_fires_on_a_loop() -> None:
    line = "You are a werewolf. You are a werewolf."
    assert repeated_ngram(line) == ("you", "are", "a", "werewolf")
    # overlapping repeats count: one word said five times is a 4-gram twice
    assert repeated_ngram("Stay stay stay stay stay") == ("stay",) * 4


def test_repeated_4gram_does_not_fire_on_plain_talk() -> None:
    assert repeated_ngram("I suspect Aiko because she voted for Tomas, and Aiko dodged.") is None
    # a repeated 3-gram is not a repeated 4-gram
    assert repeated_ngram("I think so. I think not.") is None
    assert repeated_ngram("") is None


def test_prompt_copy_fires_on_eight_tokens_of_the_prompt() -> None:
    prompt = "## Reminders\nLiving players: Kenji, Aiko, Maya. Stay in your playstyle (provoker)."
    line = "Living players: Kenji, Aiko, Maya. Stay in your playstyle, friends."
    assert prompt_copy(line, prompt) == (
        "living",
        "players",
        "kenji",
        "aiko",
        "maya",
        "stay",
        "in",
        "your",
    )


def test_prompt_copy_does_not_fire_below_eight_tokens() -> None:
    prompt = "Living players: Kenji, Aiko, Maya. Stay in your playstyle (provoker)."
    # seven shared tokens in a row, then a different word
    assert prompt_copy("Living players: Kenji, Aiko, Maya. Stay in trouble.", prompt) is None
    assert prompt_copy("I think Maya lied about the vote yesterday, honestly.", prompt) is None


def test_dead_player_named_as_if_alive() -> None:
    assert names_as_if_alive("I suspect Tomas. Vote with me.", dead=["Tomas"], absent=[]) == [
        "Tomas"
    ]


def test_dead_player_named_about_their_death_is_fine() -> None:
    line = "Tomas was found dead this morning. I suspect Aiko."
    assert names_as_if_alive(line, dead=["Tomas"], absent=[]) == []
    # a living player, or a dead name inside another word, is never counted
    assert (
        names_as_if_alive("Aiko, answer me. Tomasz is not here.", dead=["Tomas"], absent=[]) == []
    )


def test_death_cue_only_covers_its_own_sentence() -> None:
    line = "Tomas was killed. Tomas should speak up now!"
    assert names_as_if_alive(line, dead=["Tomas"], absent=[]) == ["Tomas"]


def test_absent_name_counts_anywhere() -> None:
    assert names_as_if_alive("Omar: Reminders. Live.", dead=[], absent=["Omar", "Lena"]) == ["Omar"]
    assert names_as_if_alive("No one called Omaria here.", dead=[], absent=["Omar"]) == []


def test_identical_lines_between_seats() -> None:
    lines = [
        ("p1", "The game begins at dawn."),
        ("p2", "the game begins at DAWN"),  # same tokens, other seat
        ("p3", "The game begins at dusk."),
        ("p3", "The game begins at dusk."),  # a seat repeating itself is not another seat
        ("p4", ""),
        ("p5", "  "),
    ]
    assert identical_to_other_seat(lines) == [True, True, False, False, False, False]


def test_score_lines_skips_silence_and_counts_each_defect() -> None:
    def line(seq: int, seat: str, text: str, prompt: str | None = None) -> Line:
        return Line(seq, "speech", seat, text, prompt, prompt, dead=("Tomas",), absent=("Omar",))

    prompt = "Write only what Maya says now, in the first person, as plain text."
    scores = score_lines(
        [
            line(1, "p1", "I suspect Tomas and Omar."),
            line(2, "p2", "Write only what Maya says now, in the first person please.", prompt),
            line(3, "p3", "Aiko lies. Aiko lies. Aiko lies."),
            line(4, "p4", "I suspect Tomas and Omar."),
            line(5, "p5", ""),
        ]
    )
    counted = shares(scores)
    assert (
        counted.lines,
        counted.repeated,
        counted.copied,
        counted.as_if_alive,
        counted.identical,
    ) == (
        4,
        1,
        1,
        2,
        2,
    )
    assert counted.share(counted.copied) == 0.25


def test_instruction_text_leaves_out_quoted_speech_and_own_answers() -> None:
    messages = [
        {"role": "system", "content": "You are Maya, an ordinary villager with no night power."},
        {"role": "assistant", "content": "I have been watching Kenji very closely all day long."},
        {
            "role": "user",
            "content": '<speech from="Aiko">The game begins at dawn and the pack talks.</speech>\n'
            "## Now\nWrite only what Maya says now, in the first person.",
        },
    ]
    rules = instruction_text(messages)
    echo = "The game begins at dawn and the pack talks, I agree."
    assert prompt_copy(echo, rules) is None  # echoing Aiko is not copying the rules
    assert prompt_copy(echo, " ".join(m["content"] for m in messages)) is not None
    assert prompt_copy("I have been watching Kenji very closely all day long.", rules) is None
    copied = "Write only what Maya says now, in the first person."
    assert prompt_copy(copied, rules) == tuple(tokens(copied)[:8])
