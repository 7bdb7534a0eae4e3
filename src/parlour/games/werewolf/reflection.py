"""End-of-day diaries (private memory) and the end-of-game debrief (public)."""

from __future__ import annotations

from parlour.core.actions import Action, Text
from parlour.core.asks import Hints, contexts
from parlour.core.decisions import Decision, DecisionKind
from parlour.core.events import Audience
from parlour.games.werewolf.ask import DiaryAsk
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
            Decision(
                id=f"d{st.day}:diary:{p.id}",
                seat=p.id,
                kind=DecisionKind.FREE_TEXT,
                purpose=DIARY,
                checks=("prompt_copy", "repetition"),
                max_tokens=160,
                prompt=(
                    f"Day {st.day} is over. Write your private diary: only you will ever read "
                    f"it, and it stays in your memory. Use these sections: {sections}. "
                    f"At most {cfg.diary_max_length} characters."
                ),
                max_length=cfg.diary_max_length,
                allow_empty=True,
                context=contexts(
                    DiaryAsk(day=st.day, sections=list(DIARY_SECTIONS)), Hints(multiline=True)
                ),
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
            Decision(
                id=f"end:debrief:{p.id}",
                seat=p.id,
                kind=DecisionKind.FREE_TEXT,
                purpose=DEBRIEF,
                checks=("prompt_copy", "repetition", "echo"),
                max_tokens=80,
                prompt=(
                    f"The game is over. {st.outcome.summary} Every role is now revealed. "
                    "Say a few words to the whole table about how the game went, or nothing."
                ),
                max_length=cfg.debrief_max_length,
                allow_empty=True,
            )
        )


def apply_debrief(st: WerewolfState, decision: Decision, action: Action) -> None:
    assert isinstance(action, Text)
    text = action.text.strip()
    if text:
        st.emit("debrief", text, Audience.everyone(), speaker=decision.seat)
