"""The campaign's gates: what each audience may not know, and the screen every engine
role's text passes before it goes on to a less-entitled context.

``hidden_from`` lists, as ``core.gate.Secret``s built from the secret texts themselves,
what an audience may not know now (``knowledge.facts`` and ``may_know``, the very rules
the leak markers follow); ``known_to`` lists the texts the audience's view holds, whose
words never count as evidence. A secret whose planted marker the audience's view already
holds (a player's own disclosure, quoted back) is not hidden from it.

``screen`` routes each answer's text fields to the audiences they reach:

* synopsis text → the scene director narrating the NEW cast (every context of its scene
  sees the synopsis, so it may hold only what every NPC present knows); ``ooc_reply`` and
  the answer to the player's ``/ooc`` question → the player; ``notes_for_self`` stays
  with the story director;
* narration and each NPC's line → the player, and the scene director narrating this scene
  (the beat becomes events every context of the scene sees);
* the game director's check reason → the player and the scene director narrating;
* a review's rewrite reason → the scene director narrating;
* a session-end sheet's attitude and note → the scene director playing that NPC later.

The player's own answers are never screened (a participant may disclose what it knows).
"""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel

from parlour.core.actions import Action, Structured, Text
from parlour.core.conformance import strings_in
from parlour.core.decisions import Decision
from parlour.core.gate import Secret, SecretGate
from parlour.core.markers import MARKER_SHAPE
from parlour.games.campaign.config import CampaignConfig
from parlour.games.campaign.knowledge import NARRATOR, facts, may_know
from parlour.games.campaign.state import PLAYER, SCENE, CampaignState
from parlour.games.campaign.views import player_view, scene_view

#: how each audience is named to an author in the gate's feedback
_NAMES = {PLAYER: "the player", SCENE: "the scene director"}


def _view_texts(view: BaseModel, *, synopsis: bool = True) -> list[str]:
    dumped: Any = view.model_dump(mode="json")
    if not synopsis:
        dumped["public"]["synopsis"] = ""
    return [text for _, text in strings_in(dumped, "")]


def _known(
    st: CampaignState,
    audience: str,
    present: tuple[str, ...],
    speaker: str | None,
    *,
    synopsis: bool = True,
) -> list[str]:
    if audience == PLAYER:
        return _view_texts(player_view(st, CampaignConfig(campaign=st.c)))
    if audience != SCENE:
        raise ValueError(f"no gate for audience '{audience}'; gates: {', '.join(_NAMES)}")
    # Over a whole beat (speaker None) the scene director holds every context's view.
    speakers = (NARRATOR, *present) if speaker is None else (speaker,)
    out: list[str] = []
    for voice in speakers:
        out += _view_texts(scene_view(st, present, voice), synopsis=synopsis)
    return out


def known_to(
    st: CampaignState, audience: str, present: tuple[str, ...], speaker: str | None = None
) -> list[str]:
    """The texts ``audience``'s view holds now: ``player``, or ``scene-director`` with
    ``present`` on stage (``speaker``: the context, see ``knowledge``; None: any of them)."""
    return _known(st, audience, present, speaker)


def _hidden(
    st: CampaignState,
    audience: str,
    present: tuple[str, ...],
    speaker: str | None,
    known: list[str],
) -> list[Secret]:
    held = "\n".join(known)
    out: list[Secret] = []
    for fact in facts(st):
        if may_know(fact, audience, present, speaker):
            continue
        planted = MARKER_SHAPE.findall(fact.text)
        if planted and all(m in held for m in planted):
            continue  # already in its view (the player disclosed it, or it was quoted)
        text = fact.text if fact.told_by_words else " ".join(planted)
        if text.strip():
            out.append(Secret(fact.key, text))
    return out


def hidden_from(
    st: CampaignState, audience: str, present: tuple[str, ...], speaker: str | None = None
) -> list[Secret]:
    """What ``audience`` may not know now, as secrets built from their texts (a scene's
    header tells nothing by its words, only by its planted marker)."""
    return _hidden(st, audience, present, speaker, known_to(st, audience, present, speaker))


def gate(
    st: CampaignState,
    audience: str,
    present: tuple[str, ...],
    speaker: str | None = None,
    *,
    synopsis: bool = True,
) -> SecretGate:
    """The gate on text for ``audience``; ``synopsis=False`` leaves the current synopsis out
    of what it knows (a new synopsis replaces it)."""
    known = _known(st, audience, present, speaker, synopsis=synopsis)
    return SecretGate(_hidden(st, audience, present, speaker, known), known)


# -- which text goes where ---------------------------------------------------------------

#: (field, text, audience, present, speaker, the current synopsis known?)
Flow = tuple[str, str, str, tuple[str, ...], str | None, bool]


def _flows(st: CampaignState, decision: Decision, action: Action) -> list[Flow]:
    present = st.synopsis.npc_list
    if isinstance(action, Text):
        if decision.purpose == "ooc":
            return [("ooc", action.text, PLAYER, present, None, True)]
        if decision.purpose != "line" or not action.text.strip():
            return []
        return [
            ("line", action.text, PLAYER, present, None, True),
            ("line", action.text, SCENE, present, NARRATOR, True),
        ]
    if not isinstance(action, Structured):
        return []
    value = action.value
    purpose = decision.purpose
    if purpose in ("open", "synopsis"):
        cast = tuple(dict.fromkeys(str(n) for n in value.get("npc_list") or ()))
        return [
            ("text", str(value.get("text", "")), SCENE, cast, NARRATOR, False),
            ("ooc_reply", str(value.get("ooc_reply", "")), PLAYER, cast, None, True),
        ]
    if purpose == "scene":
        narration = str(value.get("narration", ""))
        return [
            ("narration", narration, PLAYER, present, None, True),
            ("narration", narration, SCENE, present, NARRATOR, True),
        ]
    if purpose == "route" and isinstance(value.get("check"), dict):
        reason = str(value["check"].get("reason", ""))
        return [
            ("check.reason", reason, PLAYER, present, None, True),
            ("check.reason", reason, SCENE, present, NARRATOR, True),
        ]
    if purpose == "review" and not value.get("approve", True):
        return [("reason", str(value.get("reason", "")), SCENE, present, NARRATOR, True)]
    if purpose == "sheet":
        npc = str(value.get("npc", ""))
        if npc not in st.c.npc_ids:
            return []
        sheet = f"{value.get('attitude', '')} {value.get('note', '')}"
        return [("attitude and note", sheet, SCENE, (npc,), npc, True)]
    return []


def screen(st: CampaignState, decision: Decision, action: Action) -> str | None:
    """Why an engine role's answer may not go on as it stands (each field's feedback), or
    None. Answers of the player seat are never screened."""
    if decision.seat == PLAYER:
        return None
    problems: list[str] = []
    gates: dict[tuple[str, tuple[str, ...], str | None, bool], SecretGate] = {}
    for field, text, audience, present, speaker, with_synopsis in _flows(st, decision, action):
        if not text.strip():
            continue
        key = (audience, present, speaker, with_synopsis)
        if key not in gates:
            gates[key] = gate(st, audience, present, speaker, synopsis=with_synopsis)
        said = gates[key].screen(text, _NAMES[audience])
        if said is not None:
            problems.append(f"{field}: {said}")
    return "; ".join(problems) if problems else None
