"""Campaign memory probes: do NPCs recall what they witnessed, and only that?

The probe set (``benchmarks/data/campaign_recall_probes.yaml``, written before the recall
was tuned) gives a history of scenes (place, NPCs present, what the player says) and ten
questions about it. The history is played through the engine as a game would be: the
player's messages are the turns, moves between scenes go through the story director's
synopsis, and the scene director's narration and every NPC line are the scripted seats'.
Then each NPC is met alone, in a session of its own, and asked every question.

For each (NPC, question):

* witnessed (the NPC was present when the fact was said): **correct recall** when the
  NPC's answer carries the fact; the share of witnessed probes whose fact is among the
  lines recalled into the NPC's prompt (what a model scene director is shown) is printed
  too;
* not witnessed: a **leak** when the answer, or anything in the NPC's view at that moment
  (its prompt's whole source), carries the fact.

    uv run python benchmarks/campaign_recall.py [--probes FILE] [--seed 1] [--json]
"""

from __future__ import annotations

import argparse
import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import yaml

from parlour.core.actions import Action, Structured, Text
from parlour.core.conformance import strings_in
from parlour.core.rng import Rng
from parlour.games.campaign import CampaignGame, make_config
from parlour.games.campaign.policies import campaign_policy

PROBES = Path(__file__).parent / "data" / "campaign_recall_probes.yaml"
#: what the player says to fill a session up to the game's turns per session
FILLER = "I wait and watch the room."


@dataclass(frozen=True)
class Scene:
    location: str
    npcs: tuple[str, ...]
    said: tuple[str, ...]


@dataclass
class Answer:
    npc: str
    ask: str
    expect: str
    witnessed: bool
    line: str
    recalled: list[str]
    view_holds: bool


def _sessions(
    data: dict[str, Any], npcs: tuple[str, ...], home: dict[str, str]
) -> list[list[Scene]]:
    history = [
        [Scene(s["location"], tuple(s["npcs"]), tuple(s["said"])) for s in session]
        for session in data["sessions"]
    ]
    asks = tuple(p["ask"] for p in data["probes"])
    return history + [[Scene(home[n], (n,), asks)] for n in npcs]


def _turns(session: list[Scene]) -> list[tuple[str, Scene | None]]:
    """The player's messages of a session: each scene's lines, then the move to the next
    scene (paired with it)."""
    out: list[tuple[str, Scene | None]] = []
    for i, scene in enumerate(session):
        out += [(text, None) for text in scene.said]
        if i + 1 < len(session):
            nxt = session[i + 1]
            out.append((f"I go to {nxt.location.replace('_', ' ')}.", nxt))
    return out


def _synopsis(scene: Scene) -> Action:
    return Structured(
        value={
            "text": "You arrive. Someone is here.",
            "npc_list": list(scene.npcs),
            "location": scene.location,
            "new_scene": True,
        }
    )


def run(probes: Path, seed: int) -> tuple[list[Answer], dict[str, Any]]:
    data = yaml.safe_load(probes.read_text(encoding="utf-8"))
    base = make_config(None, {"campaign": data["campaign"]})
    c = base.campaign
    home = {n: c.opening.location for n in c.npc_ids}
    sessions = _sessions(data, c.npc_ids, home)
    first = sessions[0][0]
    assert (first.location, first.npcs) == (c.opening.location, c.opening.npcs), (
        "the history's first scene must be the campaign's opening"
    )
    plans = [_turns(s) for s in sessions]
    per_session = max(len(p) for p in plans)
    plans = [p + [(FILLER, None)] * (per_session - len(p)) for p in plans]
    config = make_config(
        None,
        {"campaign": data["campaign"], "sessions": len(sessions), "turns_per_session": per_session},
    )
    game = CampaignGame(config, seed)
    rng = Rng(seed + 1)
    # where each fact was said: expect → the NPCs present then
    witnesses: dict[str, set[str]] = {}
    for session in sessions[: len(data["sessions"])]:
        for scene in session:
            for p in data["probes"]:
                if any(p["expect"].lower() in t.lower() for t in scene.said):
                    witnesses.setdefault(p["expect"], set()).update(scene.npcs)
    expects = {p["ask"]: p["expect"] for p in data["probes"]}
    probing = len(data["sessions"])
    answers: list[Answer] = []
    moving: Scene | None = None
    while not game.is_terminal():
        d = game.pending()[0]
        st = game.state
        if d.purpose == "open":
            action: Action = _synopsis(sessions[st.session - 1][0])
        elif d.purpose == "act":
            text, moving = plans[st.session - 1][st.turn - 1]
            action = Text(text=text)
        elif d.purpose == "route":
            route = "needs_story_director" if moving is not None else "continue_scene"
            action = Structured(value={"route": route})
        elif d.purpose == "synopsis":
            assert moving is not None
            action = _synopsis(moving)
        else:
            view = game.view(d.seat)
            action = campaign_policy(view, d, rng)
            asked = st.message or ""
            if d.purpose == "line" and st.session > probing and asked in expects:
                expect = expects[asked]
                npc = st.line_speaker() or ""
                dumped = "\n".join(t for _, t in strings_in(view.model_dump(mode="json"), ""))
                assert isinstance(action, Text)
                answers.append(
                    Answer(
                        npc=npc,
                        ask=asked,
                        expect=expect,
                        witnessed=npc in witnesses.get(expect, set()),
                        line=action.text,
                        recalled=[r.text for r in view.private.recalled],
                        view_holds=expect.lower() in dumped.lower(),
                    )
                )
        game.apply(d.id, action)
    return answers, _score(answers)


def _score(answers: list[Answer]) -> dict[str, Any]:
    seen = [a for a in answers if a.witnessed]
    unseen = [a for a in answers if not a.witnessed]
    correct = [a for a in seen if a.expect.lower() in a.line.lower()]
    shown = [a for a in seen if any(a.expect.lower() in r.lower() for r in a.recalled)]
    leaks = [
        a
        for a in unseen
        if a.view_holds
        or a.expect.lower() in a.line.lower()
        or any(a.expect.lower() in r.lower() for r in a.recalled)
    ]
    return {
        "probes": len(answers),
        "witnessed": len(seen),
        "not_witnessed": len(unseen),
        "correct_recall": len(correct),
        "correct_recall_share": round(len(correct) / len(seen), 3) if seen else None,
        "fact_in_prompt_recall": len(shown),
        "fact_in_prompt_share": round(len(shown) / len(seen), 3) if seen else None,
        "recalled_unwitnessed": len(leaks),
        "recalled_unwitnessed_share": round(len(leaks) / len(unseen), 3) if unseen else None,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--probes", type=Path, default=PROBES)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    parser.add_argument("--show", action="store_true", help="print every answer")
    args = parser.parse_args()
    answers, score = run(args.probes, args.seed)
    if args.show:
        for a in answers:
            mark = "seen  " if a.witnessed else "unseen"
            print(f"{mark} {a.npc:6} {a.ask!r} → {a.line!r}")
    if args.json:
        print(json.dumps(score, indent=2))
        return
    print(
        f"probes: {score['probes']} ({score['witnessed']} witnessed, "
        f"{score['not_witnessed']} not)\n"
        f"correct recall (witnessed, the NPC's answer carries the fact): "
        f"{score['correct_recall']}/{score['witnessed']} = {score['correct_recall_share']}\n"
        f"fact among the lines recalled into the NPC's prompt: "
        f"{score['fact_in_prompt_recall']}/{score['witnessed']} = {score['fact_in_prompt_share']}\n"
        f"recalled what the NPC did not witness (answer, recall or view): "
        f"{score['recalled_unwitnessed']}/{score['not_witnessed']}"
    )


if __name__ == "__main__":
    main()
