"""Written day plans (plans.py ``written_schema``, issue 33 item 1): a capable model's
seat writes its plan as a structured object among the legal players, the game checks it
holds together and asks again with the error, the engine's ranked plan answers when the
seat keeps failing, and its vote follows the plan unless the ballot says why."""

from __future__ import annotations

from pathlib import Path

import pytest

import parlour
from parlour.core import Choice, Structured
from parlour.core.decisions import Decision, DecisionKind
from parlour.core.errors import IllegalAction
from parlour.core.rng import Rng, hash_seed
from parlour.core.view import AnyView
from parlour.games.werewolf import MODULE, WerewolfGame
from parlour.games.werewolf.plans import offered_plans, scripted_written, written_value
from tests.werewolf.helpers import day_one, new_game, pending, scripted

SEATS = ("p1", "p2", "p3", "p4", "p5", "p6", "p7")


def _day_one(seed: int = 2) -> WerewolfGame:
    return day_one(seed, plans=True, written_plans=("p1", "p2"))


def _written(decision: Decision, **over: str) -> Structured:
    names = decision.json_schema["properties"]["vote"]["enum"] if decision.json_schema else []
    value = {
        "suspect": names[0],
        "defend": names[1],
        "claim": "",
        "claim_target": "",
        "claim_reading": "",
        "vote": names[0],
        "reason": "they dodged every question",
    }
    return Structured(value={**value, **over})


def test_written_plan_seats_are_asked_for_an_object_the_others_choose() -> None:
    game = _day_one()
    plans = {d.seat: d for d in pending(game, "plan")}
    assert set(plans) == set(SEATS)
    for seat, d in plans.items():
        if seat in ("p1", "p2"):
            assert d.kind is DecisionKind.STRUCTURED and d.json_schema is not None
            living = [p.name for p in game.state.living() if p.id != seat]
            assert d.json_schema["properties"]["vote"]["enum"] == living
            assert "How the game reads your view: 1. suspect and vote" in d.prompt
        else:
            assert d.kind is DecisionKind.CHOOSE_ONE


def _open_plan(game: WerewolfGame, seat: str) -> Decision:
    return next(d for d in pending(game, "plan") if d.seat == seat)


def test_a_plan_that_does_not_hold_together_is_refused_and_asked_again_with_why() -> None:
    game = _day_one()
    d = _open_plan(game, "p1")
    names = d.json_schema["properties"]["vote"]["enum"] if d.json_schema else []
    with pytest.raises(IllegalAction, match="invalid object"):
        game.apply(d.id, _written(d, vote="Nobody"))  # not a living player: the schema
    bad = [
        (_written(d, defend=names[0]), "cannot defend"),
        (_written(d, claim="seer"), "needs claim_target"),
    ]
    for answer, says in bad:
        game.apply(d.id, answer)
        [refusal] = [e for e in game.events if e.kind == "plan_refused"][-1:]
        assert says in refusal.text and refusal.to == ("p1",)
        d = _open_plan(game, "p1")  # asked again, told why
        assert says in d.prompt and "Write it again" in d.prompt
    assert not [e for e in game.events if e.kind == "plan" and e.speaker == "p1"]
    game.apply(d.id, _written(d, claim="seer", claim_target=names[2], claim_reading="evil"))
    [plan] = [e for e in game.events if e.kind == "plan" and e.speaker == "p1"]
    by_name = {p.name: p.id for p in game.state.players}
    assert plan.data["vote"] == by_name[names[0]] and plan.data["defend"] == by_name[names[1]]
    assert plan.data["claim"] == "seer" and plan.data["claim_target"] == by_name[names[2]]
    assert "(they dodged every question)" in plan.text and plan.to == ("p1",)


def test_after_three_refused_plans_the_ranked_plan_is_kept() -> None:
    game = _day_one()
    view = game.view("p1")
    ranked = scripted_written(view)
    for _ in range(3):
        d = _open_plan(game, "p1")
        game.apply(d.id, _written(d, claim_target=d.json_schema["properties"]["vote"]["enum"][1]))  # type: ignore[index]
    assert not [d for d in pending(game, "plan") if d.seat == "p1"]
    refusals = [e for e in game.events if e.kind == "plan_refused"]
    assert [e.data["attempt"] for e in refusals] == [1, 2, 3] and refusals[-1].data["kept_ranked"]
    [plan] = [e for e in game.events if e.kind == "plan" and e.speaker == "p1"]
    names = {p.id: p.name for p in game.state.players}
    assert names[str(plan.data["vote"])] == ranked["vote"]


def test_a_written_plan_seat_votes_by_its_plan_or_says_why() -> None:
    game = _day_one()
    for d in pending(game, "plan"):
        if d.kind is DecisionKind.STRUCTURED:
            game.apply(d.id, _written(d))
        else:
            game.apply(d.id, Choice(option=d.option_ids[0]))
    planned = game.state.discussion.plans["p1"] if game.state.discussion else ""
    for _ in range(500):
        ballots = [d for d in pending(game, "vote") if d.seat == "p1"]
        if ballots:
            break
        d = next(iter(game.pending()))
        game.apply(d.id, MODULE.policy(game.view(d.seat), d, parlour_rng(d.id)))
    [ballot] = ballots
    other = next(o for o in ballot.option_ids if o != planned)
    with pytest.raises(IllegalAction, match="give the reason your plan changed"):
        game.apply(ballot.id, Choice(option=other))
    game.apply(ballot.id, Choice(option=other, reason="Kenji just contradicted himself"))
    assert [b.target for b in game.state.vote.cast if b.voter == "p1"] == [other]  # type: ignore[union-attr]


def parlour_rng(key: str) -> Rng:
    return Rng(hash_seed(2, key))


def test_the_scripted_answer_is_the_ranked_plan_and_games_end() -> None:
    game = _day_one()
    d = next(d for d in pending(game, "plan") if d.seat == "p1")
    view = game.view("p1")
    answer = MODULE.policy(view, d, parlour_rng(d.id))
    assert isinstance(answer, Structured)
    assert answer.value == scripted_written(view)
    names = {p.id: p.name for p in game.state.players}
    assert answer.value in [written_value(p, names) for p in offered_plans(view)]
    d.check(answer)  # the scripted (fallback) plan passes the schema
    for seed in range(6):
        done = scripted(new_game(seed, players=7, plans=True, written_plans=SEATS), seed)
        assert done.is_terminal()
        written = [e for e in done.events if e.kind == "plan"]
        assert written and all(e.data["why"] for e in written)


# -- a python seat writes its plan (the seat's retry with feedback, and the fallback) -----

CALLS: list[tuple[str, str | None]] = []


def planner(view: AnyView, decision: Decision, feedback: str | None = None) -> object:
    """Writes a plan that defends its own vote target first; told why, it fixes it. Every
    other decision: the first option (or an empty line)."""
    if decision.purpose == "plan":
        refused = "refused" in decision.prompt
        CALLS.append((decision.id, decision.prompt if refused else feedback))
        names = decision.json_schema["properties"]["vote"]["enum"] if decision.json_schema else []
        defend = names[1] if refused else names[0]
        return {
            "suspect": names[0],
            "defend": defend,
            "claim": "",
            "claim_target": "",
            "claim_reading": "",
            "vote": names[0],
            "reason": "my own reading of the table",
        }
    if decision.kind == "free_text":
        return ""
    if decision.kind == "choose_many":
        return [o.id for o in decision.options][: decision.min_choices]
    return decision.options[0].id


def stubborn(view: AnyView, decision: Decision) -> object:
    """Never writes a plan that even fits the schema: the seat's fallback (the ranked
    plan) answers instead."""
    if decision.purpose == "plan":
        return {"vote": "nobody"}
    return planner(view, decision)


def test_a_python_seat_writes_its_plan_is_told_why_and_the_ranked_plan_backs_it(
    tmp_path: Path,
) -> None:
    CALLS.clear()
    game = parlour.play(
        "werewolf",
        seats={"p1": planner, "p2": stubborn},
        seed=4,
        options={"written_plans": ["p1", "p2"], "first_phase": "day"},
        db=str(tmp_path / "g.sqlite"),
    )
    assert game.result.winners
    # the first plan defends its own target: refused, asked again with why, then fixed
    assert CALLS[0][1] is None and "cannot defend" in (CALLS[1][1] or "")
    events = game.transcript("p1")
    mine = [e for e in events if e.kind == "plan" and e.speaker == "p1"]
    assert mine and all("my own reading of the table" in e.text for e in mine)
    by = {(a.seat, a.decision_id): a.by for a in game.actions()}
    plans_p2 = [k for k in by if k[0] == "p2" and ":plan:" in k[1]]
    assert plans_p2 and all(by[k] == "fallback" for k in plans_p2)
    theirs = [e for e in game.transcript("p2") if e.kind == "plan" and e.speaker == "p2"]
    assert theirs and all("my own reading" not in e.text for e in theirs)
