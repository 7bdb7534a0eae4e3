"""Prompt parts for the four seats, built only from each seat's view and decision.

Layers run from most to least stable, so a director's prefix is reused across its calls
(a provider's prompt cache, the local backend's KV cache): first what never changes in a
campaign (the rules, the campaign, the public or full PC sheet, skills and difficulties,
the NPC sheets and locations for the story director; for the scene director the scene's
place, synopsis and who is present, fixed for a scene), then the transcript (for the PC
and the game director the latest earlier sessions that fit, then this session's, which
only grows), and last the command: what changes from call to call (the speaker's sheet
and memories, HP, conditions, inventory and clocks, the player's turn). What the player
wrote is quoted as speech, never as instructions.
"""

from __future__ import annotations

import json

from parlour.core.decisions import Decision
from parlour.core.prompting import PromptParts, Utterance
from parlour.core.view import AnyView
from parlour.games.campaign.ask import CampaignAsk
from parlour.games.campaign.requests import GD_PROMPT

SCENE_SYSTEM = (
    "You are the scene director of a tabletop story. You narrate what the player character "
    "sees and hears, and you play the NPCs present, one line at a time. An NPC knows only "
    "what is on its own sheet and what it witnessed; never have it hint at anything else. "
    "Describe people only by what anyone could notice. Each request says what to write: the "
    "narration (JSON: narration, second person, present tense, two or three sentences) or "
    "one NPC's words."
)
STORY_SYSTEM = (
    "You are the story director of a tabletop campaign. You see every secret; the scene "
    "director sees only your synopsis and the sheets of the NPCs you list. Keep secrets out "
    "of the synopsis unless you reveal one on purpose with 'reveal' (then only the NPCs "
    "present learn it). Use only the NPC ids and location ids you are given."
)
GAME_SYSTEM = (
    "You are the game director of a tabletop story. For each player turn you decide the "
    "route and whether an uncertain action needs a skill check. The engine rolls the dice. "
    "Use only the listed skills, difficulties, items, conditions and clocks."
)
PLAYER_SYSTEM = (
    "You play {name} in a tabletop story: {title}. Each turn, say in one or two sentences "
    "what you do or say. Stay in character; keep your secrets unless you choose to tell."
)


def _speech(text: str) -> str:
    safe = text.replace("<", "‹").replace(">", "›")
    return f"<player_said>{safe}</player_said>"


#: An NPC sheet's fields that never change in a campaign, and those that do (a session's
#: sheet update, a secret seen revealed); the story director reads them apart, so an
#: update changes only the end of its stable layer.
_FIXED = ("id", "name", "persona", "agenda", "secrets", "relationships")
_CHANGING = ("id", "attitude", "notes", "knows")


def _sheet_lines(npcs: list[object], fields: tuple[str, ...] | None = None) -> str:
    out = []
    for s in npcs:
        d = s.model_dump() if hasattr(s, "model_dump") else {}
        if fields is not None:
            d = {k: v for k, v in d.items() if k in fields}
        out.append(json.dumps(d, ensure_ascii=False, sort_keys=True))
    return "\n".join(out)


class CampaignPrompter:
    def parts(self, view: AnyView, decision: Decision) -> PromptParts:
        if decision.seat == "scene-director":
            return scene_parts(view, decision)
        if decision.seat == "story-director":
            return story_parts(view, decision)
        if decision.seat == "game-director":
            return game_parts(view, decision)
        return player_parts(view, decision)


#: How much of earlier sessions' transcript a seat's prompt keeps (characters; whole
#: sessions, the latest first). A director then remembers the last session as it
#: happened, and its prompt changes before the current session's lines only when a session
#: starts, so its cached prefix holds. The embedded model's window is 4,096 tokens; a
#: night_school session of 5 turns is 1,900-2,600 characters framed, of 8 turns about
#: 3,000, so one earlier session fits and a prompt stays under 3,000 tokens.
EARLIER_CHARS = 3500
#: What a line's framing costs in a prompt (its speaker tag), in characters.
LINE_CHARS = 30


def _transcript(view: AnyView, *, player: str, earlier: bool = False) -> tuple[Utterance, ...]:
    """The seat's transcript: this session's lines, and with ``earlier`` first those of the
    latest earlier sessions that fit ``EARLIER_CHARS`` together (never part of a session).
    The story director goes without: its stable layer changes at a session's start (the
    NPCs' standing, its notes), so earlier lines after it would only be evaluated again."""
    sessions: dict[str, list[Utterance]] = {}
    for e in view.events:
        if e.kind == "memory":
            continue
        said = sessions.setdefault(e.phase, [])
        if e.kind == "message":
            said.append(Utterance(speaker=player, text=_speech(e.text)))
        elif e.kind in ("narration", "line"):
            said.append(Utterance(speaker="Scene", text=e.text))
        elif e.kind in ("scene", "check", "reveal", "state", "session", "ooc", "reply"):
            said.append(Utterance(speaker="Table", text=e.text, kind="announcement"))
    kept = sessions.pop(view.phase, [])
    room = EARLIER_CHARS if earlier else 0
    for lines in reversed(sessions.values()):
        size = sum(len(u.text) + LINE_CHARS for u in lines)
        if size > room:
            break
        kept = lines + kept
        room -= size
    return tuple(kept)


def _setting(view: AnyView) -> str:
    """The scene director's stable layer: the campaign and what anyone notices of the PC
    (never HP or conditions, which change; nor who is present, which is the command's)."""
    f = view.public
    pc = f.pc
    return (
        f"Campaign: {f.title}\nPlayer character (what anyone notices): {pc.name}. {pc.looks} "
        f"Reputation: {pc.reputation}. {' '.join(pc.noticeable)}"
    )


GAME_HOW = f"How you answer: {GD_PROMPT}"


def _rest(prompt: str, stable: str) -> str:
    """What a decision's prompt adds to its stable instruction (a rewrite's reason), or the
    whole prompt when it does not start with it."""
    return prompt[len(stable) :].strip() if prompt.startswith(stable) else prompt


def _present(view: AnyView) -> str:
    present = "\n".join(f"- {n.name} ({n.id}): {n.persona}" for n in view.private.npcs)
    return f"Present (as anyone sees them):\n{present or '(nobody)'}"


def _remembered(view: AnyView) -> str:
    """What the NPC who speaks now recalls of earlier scenes it witnessed (best first)."""
    sheet = view.private.speaker
    recalled = view.private.recalled
    if sheet is None or not recalled:
        return ""
    lines = "\n".join(f"- scene {r.scene} at {r.place}: {r.name} said “{r.text}”" for r in recalled)
    return f"\n{sheet.name} remembers (earlier scenes; refer to them if it fits):\n{lines}"


def scene_parts(view: AnyView, decision: Decision) -> PromptParts:
    """The narration, or (``view.public.speaker`` set) one NPC's line. Both share the
    system text, the setting and the transcript, so the line after a narration reuses its
    prefix; what differs (the speaker's sheet and memories) is in the command."""
    f = view.public
    sheet = view.private.speaker
    scene = (
        f"Scene {f.scene} at {f.location}: {f.location_description}\nSynopsis: {f.synopsis}\n"
        f"{_present(view)}"
    )
    # The instruction itself ends the command (about 40 uncached tokens a call): with it
    # only in the stable layer and a short cue here, SmolLM2 echoed the cue ("The next
    # beat: 9:03 PM. I'm here.") instead of narrating.
    command = ""
    reminders = "Narration only: the NPCs present speak in their own turns."
    act = CampaignAsk.is_act(decision)
    if sheet is not None:
        beat = "\n".join(f.beat)
        # An act's options are the NPC's own lines: its sheet would only lengthen the
        # prompt (the embedded model has 4,096 tokens); what it recalls helps it choose.
        mine = "." if act else f"; their sheet (theirs alone): {_sheet_lines([sheet])}"
        command = f"You play {sheet.name} now{mine}{_remembered(view)}\n" + (
            f"This beat so far:\n{beat}\n" if beat else ""
        )
        reminders = f"Only {sheet.name}'s words, under {decision.max_length} characters."
    if act:
        reminders = ""  # the options are the answers; the seat says how to pick one
    return PromptParts(
        system=SCENE_SYSTEM,
        memory=f"{_setting(view)}\n\n{scene}",
        transcript=_transcript(view, player=f.pc.name),
        command=command + decision.prompt,
        reminders=reminders,
    )


def story_parts(view: AnyView, decision: Decision) -> PromptParts:
    """Stable first (the campaign, the full PC sheet, the NPC sheets, locations and
    threads, which change only between sessions; then the who-knows table and the notes,
    which change only when a secret comes out or a note is added), then the session's
    transcript, which only grows; the command last."""
    f = view.public
    memory = (
        f"Campaign: {f.title}\nPC full sheet: {f.pc_sheet.model_dump_json()}\n"
        f"NPCs: {_sheet_lines(f.npcs, _FIXED)}\nLocations: {json.dumps(f.locations)}\n"
        f"Threads: {'; '.join(f.threads)}\n"
        f"How the NPCs stand now: {_sheet_lines(f.npcs, _CHANGING)}\n"
        f"Who knows which revealed secret: {json.dumps(f.who_knows)}\n"
        f"Your notes: {'; '.join(f.notes_for_self) or '(none)'}"
    )
    command = f"Session {f.session}, turn {f.turn}. Now at {f.location} with {f.present}.\n"
    reminders = "Answer with JSON matching the schema."
    if decision.purpose == "ooc":
        question = CampaignAsk.of(decision).message
        command += f"The player asks, out of character: {_speech(question)}\n"
        reminders = f"Plain text, out of character, under {decision.max_length} characters."
    if decision.purpose == "review":
        command += f"Draft:\n{f.draft}\n"
    command += decision.prompt
    if CampaignAsk.is_act(decision):
        reminders = ""
    return PromptParts(
        system=STORY_SYSTEM,
        memory=memory,
        transcript=_transcript(view, player=f.pc.name),
        command=command,
        reminders=reminders,
    )


def game_parts(view: AnyView, decision: Decision) -> PromptParts:
    """Stable first (the PC as anyone sees them, skills, difficulties), then the transcript
    (earlier sessions that fit, this session's); HP, conditions, inventory and clocks,
    which change, are in the command."""
    f = view.public
    pc = f.pc
    memory = (
        f"Player character: {pc.name}. {pc.looks} Reputation: {pc.reputation}. "
        f"{' '.join(pc.noticeable)}\nSkills (modifiers): {json.dumps(f.skills)}\n"
        f"Difficulties (DC): {json.dumps(f.difficulties)}\n\n{GAME_HOW}"
    )
    ask = CampaignAsk.of(decision)
    message = str(f.message or ask.message)
    risk = ""
    if ask.risk_skill and ask.answers:
        # an act's options carry the rule's check already
        risk = f"This action can fail ({ask.risk_reason}).\n"
    elif ask.risk_skill:
        risk = (
            f"This action can fail ({ask.risk_reason}): ask for a {ask.risk_skill} check "
            f"({ask.risk_difficulty} unless another fits better).\n"
        )
    state = (
        f"{pc.name} now: HP {pc.hp}; conditions: {', '.join(pc.conditions) or 'none'}; "
        f"inventory: {'; '.join(f.inventory) or 'nothing'}; clocks: {json.dumps(f.clocks)}\n"
    )
    return PromptParts(
        system=GAME_SYSTEM,
        memory=memory,
        transcript=_transcript(view, player=f.pc.name, earlier=True),
        command=f"{state}The player's turn: {_speech(message)}\n{risk}"
        + (_rest(decision.prompt, GD_PROMPT) or "Route this turn."),
        reminders="" if ask.answers else "Answer with JSON matching the schema.",
    )


def player_parts(view: AnyView, decision: Decision) -> PromptParts:
    f = view.public
    act = CampaignAsk.is_act(decision)
    return PromptParts(
        system=PLAYER_SYSTEM.format(name=f.pc.name, title=f.title),
        memory=f"Your secrets: {'; '.join(view.private.secrets)}\nGoals: "
        f"{'; '.join(view.private.goals)}",
        transcript=_transcript(view, player="You", earlier=True),
        command=f"Turn {f.turn} of {f.turns_per_session} at {f.location}. "
        + (decision.prompt if act else "What do you do?"),
        reminders="" if act else f"One or two sentences, under {decision.max_length} characters.",
    )
