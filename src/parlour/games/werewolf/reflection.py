"""End-of-day diaries (private memory) and the end-of-game debrief (public)."""

from __future__ import annotations

from parlour.core.actions import Action, Text
from parlour.core.asks import Hints, contexts
from parlour.core.decisions import Decision
from parlour.core.events import Audience
from parlour.games.werewolf.ask import DiaryAsk, free_text
from parlour.games.werewolf.config import WerewolfConfig
from parlour.games.werewolf.speech_acts import speaks_in_acts
from parlour.games.werewolf.state import Stage, WerewolfState

DIARY, DEBRIEF = "diary", "debrief"
DIARY_SECTIONS: tuple[str, ...] = (
    "Allies",
    "Suspects",
    "Role knowledge",
    "Social threads",
    "Plan for tomorrow",
)


def enter_diaries(st: WerewolfState, cfg: WerewolfConfig) -> None:
    st.stage = Stage.DIARY
    st.phase = f"evening {st.day}"
    sections = ", ".join(DIARY_SECTIONS)
    for p in st.living():
        if speaks_in_acts(cfg, p.id):
            # A seat that speaks in acts has the engine's exact records in its memory
            # already; a small model's diary would only restate them, with loops.
            continue
        st.open(
            free_text(
                f"d{st.day}:diary:{p.id}",
                p.id,
                DIARY,
                f"Day {st.day} is over. Write your private diary: only you will ever read "
                f"it, and it stays in your memory. Use these sections: {sections}. "
                f"At most {cfg.diary_max_length} characters.",
                max_tokens=160,
                max_length=cfg.diary_max_length,
                context=contexts(
                    DiaryAsk(day=st.day, sections=list(DIARY_SECTIONS)), Hints(multiline=True)
                ),
                checks=("prompt_copy", "repetition"),
            )
        )


def apply_diary(st: WerewolfState, cfg: WerewolfConfig, decision: Decision, action: Action) -> None:
    assert isinstance(action, Text)
    text = action.text.strip()
    if not text:
        return
    marker = st.markers.plant(decision.id, [decision.seat])
    st.emit(
        "diary",
        text + marker,
        Audience.only(decision.seat),
        speaker=decision.seat,
        data={"day": st.day},
    )


def enter_debrief(st: WerewolfState, cfg: WerewolfConfig) -> None:
    st.stage = Stage.DEBRIEF
    assert st.outcome is not None
    for p in st.players:
        st.open(
            free_text(
                f"end:debrief:{p.id}",
                p.id,
                DEBRIEF,
                f"The game is over. {st.outcome.summary} Every role is now revealed. "
                "Say a few words to the whole table about how the game went, or nothing.",
                max_tokens=80,
                max_length=cfg.debrief_max_length,
            )
        )


def apply_debrief(st: WerewolfState, decision: Decision, action: Action) -> None:
    assert isinstance(action, Text)
    text = action.text.strip()
    if text:
        st.emit("debrief", text, Audience.everyone(), speaker=decision.seat)
