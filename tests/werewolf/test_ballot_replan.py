"""``ballot_replan``: just before its ballot a seat looks at its plan again, and a change
is a plan event of its own; a wolf votes for a packmate only when its ballot cannot save
it (games/werewolf/discussion.py ``replan_before_ballot``, plans.py ``_lost_packmate``)."""

from __future__ import annotations

from collections import Counter

from parlour.core import Choice
from parlour.core.events import Event
from parlour.core.game import Result
from parlour.core.random_answers import random_answer
from parlour.core.rng import Rng, hash_seed
from parlour.games.werewolf import Role, WerewolfGame
from parlour.games.werewolf.config import make_config
from parlour.games.werewolf.metrics import werewolf_facts
from parlour.games.werewolf.policies import policy
from tests.werewolf.helpers import new_game, scripted, seats

SEEDS = range(1, 41)


def _game(seed: int, **over: object) -> WerewolfGame:
    rules = {"players": 7, "plans": True, "ballot_replan": True, **over}
    return scripted(new_game(seed, **rules), seed)


def _vote_days(events: list[Event]) -> list[list[Event]]:
    """Each day's events from "the vote begins" to its elimination."""
    days: list[list[Event]] = []
    current: list[Event] | None = None
    for e in events:
        if e.kind == "phase" and "the vote begins" in e.text:
            current = []
            days.append(current)
        elif e.kind == "elimination":
            current = None
        elif current is not None:
            current.append(e)
    return days


def test_new_games_look_at_their_plans_before_the_ballot() -> None:
    assert make_config(7, {}).ballot_replan
    assert not make_config(7, {"ballot_replan": False}).ballot_replan


def test_a_change_at_the_ballot_is_a_plan_event_its_ballot_follows() -> None:
    changes = 0
    for seed in SEEDS:
        game = _game(seed)
        for day in _vote_days(list(game.events)):
            for i, e in enumerate(day):
                if e.kind != "plan":
                    continue
                changes += 1
                assert e.data["changed_from"] and e.data["changed_from"] != e.data["vote"]
                assert "Changed from voting" in e.text and e.data["because"]
                # the next public ballot is this seat's, and it follows the new plan
                ballot = next(v for v in day[i + 1 :] if v.kind == "vote")
                assert ballot.data["voter"] == e.speaker
                assert ballot.data["target"] == e.data["vote"]
    assert changes > 20


def test_without_the_rule_nobody_plans_at_the_ballot() -> None:
    for seed in range(1, 6):
        game = _game(seed, ballot_replan=False)
        assert not [e for day in _vote_days(list(game.events)) for e in day if e.kind == "plan"]


def test_scripted_votes_still_agree_with_the_days_words() -> None:
    """A vote away from the accused is a plan change, recorded: VWA stays whole."""
    agree = after = 0.0
    for seed in SEEDS:
        game = _game(seed)
        everyone = [p.id for p in game.state.players]
        facts = werewolf_facts(game, game.result() or Result(summary="", winners=()), everyone)
        for counters in facts.counters.values():
            agree += counters.get("votes_agree_words", 0.0)
            after += counters.get("votes_after_words", 0.0)
    assert after > 300
    assert agree == after


def test_a_wolf_votes_for_a_packmate_only_when_its_ballot_cannot_save_it() -> None:
    pack_votes = 0
    for seed in SEEDS:
        game = _game(seed)
        wolves = set(seats(game, Role.WEREWOLF))
        for day in _vote_days(list(game.events)):
            tally: Counter[str] = Counter()
            voters = len([e for e in day if e.kind == "vote"])
            for i, e in enumerate(day):
                if e.kind != "vote":
                    continue
                voter, target = str(e.data["voter"]), str(e.data["target"])
                if voter in wolves and target in wolves:
                    pack_votes += 1
                    planned = [p for p in day[:i] if p.kind == "plan" and p.speaker == voter]
                    assert planned and planned[-1].data["vote"] == target
                    assert "can no longer save" in planned[-1].text
                    after = voters - sum(tally.values()) - 1
                    best_other = max((n for s, n in tally.items() if s != target), default=0)
                    assert tally[target] > best_other + 1 + after
                tally[target] += 1
    assert pack_votes > 0


def test_a_simultaneous_vote_opens_its_ballots_after_the_looks() -> None:
    """Nobody holds a ballot while another seat still looks at its plan: the ballots are
    opened together once every look was answered."""
    looks = 0
    for seed in range(1, 9):
        game = new_game(seed, players=7, plans=True, ballot_replan=True, vote_mode="simultaneous")
        for _ in range(20_000):
            if game.is_terminal():
                break
            pending = game.pending()
            purposes = {d.purpose for d in pending}
            assert not ("vote" in purposes and "plan" in purposes and game.state.vote), seed
            looks += sum(1 for d in pending if d.purpose == "plan" and d.id.endswith(":ballot"))
            for d in pending:
                game.apply(d.id, policy(game.view(d.seat), d, Rng(hash_seed(seed, d.id))))
        assert game.result() is not None
    assert looks > 0


def test_an_engine_planned_seat_looks_without_being_asked() -> None:
    everyone = tuple(f"p{i}" for i in range(1, 8))
    changed = 0
    for seed in range(1, 11):
        game = new_game(seed, players=7, plans=True, ballot_replan=True, engine_plans=everyone)
        for _ in range(20_000):
            if game.is_terminal():
                break
            for d in game.pending():
                assert d.purpose not in ("plan", "vote"), d.id
                game.apply(d.id, policy(game.view(d.seat), d, Rng(hash_seed(seed, d.id))))
        changed += sum(1 for day in _vote_days(list(game.events)) for e in day if e.kind == "plan")
    assert changed > 0


def test_a_look_that_keeps_the_vote_leaves_no_event() -> None:
    game = new_game(4, players=7, plans=True, ballot_replan=True, messages_per_player=1)
    for _ in range(20_000):
        looks = [d for d in game.pending() if d.id.endswith(":ballot")]
        if looks:
            break
        for d in game.pending():
            game.apply(d.id, policy(game.view(d.seat), d, Rng(hash_seed(4, d.id))))
    else:
        raise AssertionError("no look before a ballot")
    look = looks[0]
    disc = game.state.discussion
    assert disc is not None
    kept = disc.plans[look.seat]
    assert kept in look.option_ids and look.option_ids[0] != kept
    count = len(game.events)
    game.apply(look.id, Choice(option=kept))
    assert not [e for e in game.events[count:] if e.kind == "plan"]
    vote = next(d for d in game.pending() if d.purpose == "vote")
    assert vote.seat == look.seat and vote.option_ids[0] == kept


def test_a_look_never_moves_a_vote_to_a_player_the_seat_defended_that_day() -> None:
    """Engine-planned seats that defend whomever they can (a small model picks its
    speech acts with no regard to its plan) defend all sorts of players; the look before
    the ballot offers none of them, so no vote goes to a player its voter defended that
    day after a look."""
    everyone = tuple(f"p{i}" for i in range(1, 8))
    looks = 0
    for seed in range(1, 16):
        game = new_game(
            seed,
            players=7,
            plans=True,
            ballot_replan=True,
            engine_plans=everyone,
            act_seats=everyone,
            acts_follow_plan=True,
        )
        for _ in range(20_000):
            if game.is_terminal():
                break
            for d in game.pending():
                rng = Rng(hash_seed(seed, d.id))
                defends = [o for o in d.option_ids if o.startswith("defend:")]
                if d.purpose == "speak" and defends:
                    game.apply(d.id, Choice(option=rng.choice(defends)))
                elif d.purpose == "speak":
                    game.apply(d.id, random_answer(d, rng))
                else:
                    game.apply(d.id, policy(game.view(d.seat), d, rng))
        defended: dict[tuple[int, str], set[str]] = {}
        for e in game.events:
            if e.kind == "speech" and e.data.get("act") == "defend":
                key = (int(e.data["day"]), str(e.speaker))
                defended.setdefault(key, set()).add(str(e.data["target"]))
        for day in _vote_days(list(game.events)):
            for e in day:
                if e.kind == "plan":
                    looks += 1
                    assert str(e.data["vote"]) not in defended.get(
                        (int(e.data["day"]), str(e.speaker)), set()
                    ), (seed, e.text)
    assert looks > 10
