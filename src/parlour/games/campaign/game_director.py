"""The game director's routing (phase ``gd``): a skill check the engine rolls (asked for by
the director, or held by the rule of ``risks.py`` when the action can fail),
then the gains and costs its band allows, then the route (the scene goes on, or the story
director moves the story). A player left with no hit points ends the campaign."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from parlour.core.actions import Action
from parlour.core.decisions import Decision
from parlour.core.events import Audience
from parlour.games.campaign import dice, sessions
from parlour.games.campaign import requests as req
from parlour.games.campaign.config import CampaignConfig
from parlour.games.campaign.risks import risk_of
from parlour.games.campaign.scenes import entered_scene
from parlour.games.campaign.state import GAME, CampaignState

#: bands in which the turn's effects apply, and those in which its cost is paid
GAINS: tuple[dice.Band | None, ...] = (None, "success", "success with style", "mixed")
COSTS: tuple[dice.Band | None, ...] = (None, "complication", "mixed")


def ask(st: CampaignState, cfg: CampaignConfig) -> Decision:
    return req.gd_decision(st.decision_id("gd"), st.c, st.message or "")


def apply(st: CampaignState, cfg: CampaignConfig, action: Action) -> None:
    value = req.answer(action)
    check = value.get("check")
    risk = risk_of(st.message or "", st.c)
    if not isinstance(check, dict) and risk is not None:
        # The action can fail (``risks.py``): the rule's check is rolled, asked for or not.
        check = {
            "skill": risk.skill,
            "difficulty": risk.difficulty,
            "reason": risk.reason,
            "rule": True,
        }
    band: dice.Band | None = None
    if isinstance(check, dict):
        band = _roll(st, check)
    if band in GAINS:
        _apply_gains(st, value.get("effects") or {})
    if band in COSTS:
        _apply_costs(st, value.get("cost") or {})
    if st.pc.hp <= 0:
        st.ending = f"{st.c.pc.name} falls (no hit points left)"
        sessions.end_session(st, cfg)
        return
    st.phase = "story" if value["route"] == "needs_story_director" else "scene"
    if st.phase == "scene":
        entered_scene(st)


def _roll(st: CampaignState, check: dict[str, Any]) -> dice.Band:
    skill, level = str(check["skill"]), str(check["difficulty"])
    dc = st.c.difficulties[level]
    modifier = st.c.pc.skills.get(skill, 0)
    rolled = dice.roll(st.rng, modifier, dc)
    st.emit(
        "check",
        f"{skill} check ({level}, DC {dc}) — {check['reason']}: {rolled.shown} → {rolled.band}.",
        Audience.everyone(),
        speaker=GAME,
        data=st.acted(
            {
                "skill": skill,
                "difficulty": level,
                **rolled.model_dump(mode="json"),
                # called by the rule of ``risks.py``: its reason the rule's words, not the
                # director's
                **({"rule": True} if check.get("rule") else {}),
            },
            act="" if check.get("rule") else None,
        ),
    )
    return rolled.band


def _state_event(st: CampaignState, text: str, data: dict[str, Any]) -> None:
    st.emit("state", text, Audience.everyone(), speaker=GAME, data=data)


def _set_hp(st: CampaignState, hp: int) -> None:
    before, st.pc.hp = st.pc.hp, hp
    _state_event(st, f"HP {before} → {hp}.", {"hp": hp})


def _change_set(
    st: CampaignState, held: list[str], value: Any, add: bool, says: Callable[[str], str], key: str
) -> None:
    """Add ``value`` to ``held`` (or remove it) when that changes anything, and say so."""
    if not isinstance(value, str) or (value in held) == add:
        return
    if add:
        held.append(value)
    else:
        held.remove(value)
    _state_event(st, says(value), {key: value})


def _apply_gains(st: CampaignState, gains: dict[str, Any]) -> None:
    pc = st.pc
    heal = int(gains.get("hp", 0))
    if heal and pc.hp < st.c.pc.hp:
        _set_hp(st, min(st.c.pc.hp, pc.hp + heal))
    gained, lost = gains.get("gain_item"), gains.get("lose_item")
    _change_set(st, pc.inventory, gained, True, lambda i: f"You gain {st.item_name(i)}.", "gain")
    _change_set(st, pc.inventory, lost, False, lambda i: f"You lose {st.item_name(i)}.", "lose")
    cond = gains.get("remove_condition")
    _change_set(st, pc.conditions, cond, False, "You are no longer {}.".format, "remove_condition")


def _apply_costs(st: CampaignState, costs: dict[str, Any]) -> None:
    pc = st.pc
    harm = int(costs.get("hp", 0))
    if harm:
        _set_hp(st, max(0, pc.hp - harm))
    cond = costs.get("add_condition")
    _change_set(st, pc.conditions, cond, True, "You are {}.".format, "add_condition")
    clock = costs.get("tick")
    if isinstance(clock, str):
        full = next(k.segments for k in st.c.clocks if k.id == clock)
        if pc.clocks[clock] < full:
            pc.clocks[clock] += 1
            name = next(k.name for k in st.c.clocks if k.id == clock)
            _state_event(
                st,
                f"{name}: {pc.clocks[clock]}/{full}.",
                {"clock": clock, "ticks": pc.clocks[clock]},
            )
