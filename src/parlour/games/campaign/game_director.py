"""The game director's routing (phase ``gd``): an optional skill check the engine rolls,
then the gains and costs its band allows, then the route (the scene goes on, or the story
director moves the story). A player left with no hit points ends the campaign."""

from __future__ import annotations

from typing import Any

from parlour.core.actions import Action
from parlour.core.decisions import Decision
from parlour.core.events import Audience
from parlour.games.campaign import dice, sessions
from parlour.games.campaign import requests as req
from parlour.games.campaign.config import CampaignConfig
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
        data={"skill": skill, "difficulty": level, **rolled.model_dump(mode="json")},
    )
    return rolled.band


def _state_event(st: CampaignState, text: str, data: dict[str, Any]) -> None:
    st.emit("state", text, Audience.everyone(), speaker=GAME, data=data)


def _apply_gains(st: CampaignState, gains: dict[str, Any]) -> None:
    pc = st.pc
    heal = int(gains.get("hp", 0))
    if heal and pc.hp < st.c.pc.hp:
        before, pc.hp = pc.hp, min(st.c.pc.hp, pc.hp + heal)
        _state_event(st, f"HP {before} → {pc.hp}.", {"hp": pc.hp})
    item = gains.get("gain_item")
    if isinstance(item, str) and item not in pc.inventory:
        pc.inventory.append(item)
        _state_event(st, f"You gain {st.item_name(item)}.", {"gain": item})
    item = gains.get("lose_item")
    if isinstance(item, str) and item in pc.inventory:
        pc.inventory.remove(item)
        _state_event(st, f"You lose {st.item_name(item)}.", {"lose": item})
    cond = gains.get("remove_condition")
    if isinstance(cond, str) and cond in pc.conditions:
        pc.conditions.remove(cond)
        _state_event(st, f"You are no longer {cond}.", {"remove_condition": cond})


def _apply_costs(st: CampaignState, costs: dict[str, Any]) -> None:
    pc = st.pc
    harm = int(costs.get("hp", 0))
    if harm:
        before, pc.hp = pc.hp, max(0, pc.hp - harm)
        _state_event(st, f"HP {before} → {pc.hp}.", {"hp": pc.hp})
    cond = costs.get("add_condition")
    if isinstance(cond, str) and cond not in pc.conditions:
        pc.conditions.append(cond)
        _state_event(st, f"You are {cond}.", {"add_condition": cond})
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
