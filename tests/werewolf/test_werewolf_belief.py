"""A seat's belief over roles (games/werewolf/belief.py): from its view only, normalised,
sound where it is certain, and moved by claims, readings and contradictions."""

from __future__ import annotations

import math

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from parlour.core import Choices, Text
from parlour.core.random_answers import random_answer
from parlour.core.rng import Rng, hash_seed
from parlour.games.werewolf import Role, WerewolfGame, policy
from parlour.games.werewolf.belief import CAP, Belief, belief, fresh_belief
from parlour.games.werewolf.views import WerewolfPrivate
from tests.werewolf.helpers import day_one, new_game, night, seat, seats, vote_all


def _check(game: WerewolfGame, b: Belief) -> None:
    st_ = game.state
    me = st_.player(b.seat)
    others = [p for p in st_.living() if p.id != b.seat]
    assert set(b.evil) == {p.id for p in others}
    for p in others:
        prob = b.evil[p.id]
        assert 0.0 <= prob <= 1.0
        # certainty is only ever held about a proven player, and a proof is never wrong
        if p.id in b.known:
            assert b.known[p.id] == ("evil" if p.is_evil else "good"), (p.id, b.known)
            assert prob == (1.0 if p.is_evil else 0.0)
        else:
            assert prob <= CAP + 1e-9
    unknown = [p.id for p in others if p.id not in b.known]
    total = sum(b.evil[s] for s in unknown)
    assert math.isclose(total, min(b.hidden_evil, CAP * len(unknown)), abs_tol=1e-6) or (
        total <= b.hidden_evil + 1e-6
    )
    # the hidden evil count never exceeds what is really hidden from the seat
    really = sum(1 for p in others if p.is_evil and p.id not in b.known)
    assert b.hidden_evil <= really + sum(1 for p in st_.players if not p.alive) + 1e-9
    if me.is_wolf:
        for w in st_.wolves():
            if w.alive and w.id != b.seat:
                assert b.evil[w.id] == 1.0
    if me.role is Role.SEER:
        for target, reading in st_.seer_results.items():
            if st_.player(target).alive and target != b.seat:
                assert b.known[target] == ("evil" if reading == "evil" else "good")


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    seed=st.integers(0, 10_000),
    players=st.integers(5, 10),
    scripted=st.booleans(),
    maniac=st.booleans(),
)
def test_belief_is_normalised_and_sound_at_every_decision(
    seed: int, players: int, scripted: bool, maniac: bool
) -> None:
    game = new_game(seed, players=players, maniac=maniac and players >= 7, plans=True)
    for _ in range(5_000):
        if game.is_terminal():
            break
        for d in game.pending():
            view = game.view(d.seat)
            if d.seat != "router":
                _check(game, belief(view))
            rng = Rng(hash_seed(seed, d.id))
            action = policy(view, d, rng) if scripted else random_answer(d, rng)
            game.apply(d.id, action)
    assert game.is_terminal()


def _day_one(seed: int = 2) -> WerewolfGame:
    return day_one(seed)


def _speak(game: WerewolfGame, who: str, text: str) -> None:
    """Route ``who`` and let them say ``text``; everyone else routed passes."""
    for _ in range(50):
        pending = list(game.pending())
        route = [d for d in pending if d.purpose == "route"]
        if route:
            d = route[0]
            pick = who if who in d.option_ids else d.option_ids[0]
            needs = list(d.required_any)
            batch = [pick] if not needs or pick in needs else [pick, needs[0]]
            game.apply(d.id, _choices(batch))
            continue
        speak = [d for d in pending if d.purpose == "speak"]
        if not speak:
            return
        d = speak[0]
        game.apply(d.id, Text(text=text if d.seat == who else ""))
        if d.seat == who:
            return


def _choices(batch: list[str]) -> Choices:
    return Choices(options=tuple(batch))


def _drain_talk(game: WerewolfGame) -> None:
    """Everyone routed passes until the vote opens."""
    for _ in range(200):
        pending = list(game.pending())
        if not pending or pending[0].purpose == "vote":
            return
        for d in pending:
            if d.purpose == "route":
                game.apply(
                    d.id, _choices([d.required_any[0] if d.required_any else d.option_ids[0]])
                )
            elif d.purpose == "speak":
                game.apply(d.id, Text(text=""))


def test_a_lone_seer_claim_moves_a_villager_toward_the_named_player() -> None:
    game = _day_one()
    wolves = seats(game, Role.WEREWOLF)
    seer = seat(game, Role.SEER)
    villager = seats(game, Role.VILLAGER)[0]
    before = belief(game.view(villager))
    claim = f"I am the seer. I checked {game.state.name(wolves[0])}: evil."
    _speak(game, seer, claim)
    after = belief(game.view(villager))
    assert after.ranked()[0] == wolves[0]
    assert after.evil[wolves[0]] > before.evil[wolves[0]]
    assert after.evil[seer] < before.evil[seer]
    assert "checked" in after.why(wolves[0])


def test_the_seer_knows_a_counter_claimer_lies_and_a_wolf_knows_its_pack() -> None:
    game = _day_one()
    wolves = seats(game, Role.WEREWOLF)
    seer = seat(game, Role.SEER)
    _speak(game, wolves[0], f"I am the seer. I checked {game.state.name(seer)}: evil.")
    b = belief(game.view(seer))
    assert b.known[wolves[0]] == "evil" and b.evil[wolves[0]] == 1.0
    w = belief(game.view(wolves[1]))
    assert w.evil[wolves[0]] == 1.0
    assert all(w.evil[s] == 0.0 for s in w.evil if s not in wolves)


def test_voting_for_a_player_one_defended_is_a_contradiction() -> None:
    game = _day_one()
    villagers = seats(game, Role.VILLAGER)
    a, b = villagers[0], villagers[1]
    _speak(game, a, f"I trust {game.state.name(b)}.")
    watcher = seat(game, Role.DOCTOR)
    before = belief(game.view(watcher)).evil[a]
    _drain_talk(game)
    vote_all(game, b)
    after = belief(game.view(watcher))
    assert any("defended" in r for r in after.reasons[a]), after.reasons[a]
    other = next(v for v in villagers if v not in (a, b) and v in after.evil)
    # both voted for b (a villager); only a had defended b that day
    assert after.evil[a] > after.evil[other]
    assert after.evil[a] > before


@settings(max_examples=8, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 10_000), players=st.integers(5, 9), scripted=st.booleans())
def test_the_kept_belief_equals_a_fresh_one_after_every_event(
    seed: int, players: int, scripted: bool
) -> None:
    """``belief`` extends a kept record of the seat's events; after every answer, for
    every player (the public belief a wolf plans from too), it equals a belief read from
    every event again."""
    game = new_game(seed, players=players, plans=True)
    checked = 0
    for _ in range(5_000):
        if game.is_terminal():
            break
        for p in game.state.players:
            view = game.view(p.id)
            assert belief(view) == fresh_belief(view)
            blank = view.model_copy(
                update={"private": WerewolfPrivate(id=p.id, name=p.name, role="villager")}
            )
            assert belief(blank) == fresh_belief(blank)
            checked += 1
        for d in game.pending():
            rng = Rng(hash_seed(seed, d.id))
            view = game.view(d.seat)
            game.apply(d.id, policy(view, d, rng) if scripted else random_answer(d, rng))
    assert game.is_terminal() and checked > players


def test_a_kept_record_is_not_reused_for_another_game_or_an_earlier_point() -> None:
    """Same seat ids and names in two games, and a view from before the latest one: each
    gets the belief its own events give."""
    a, b = _day_one(seed=2), _day_one(seed=3)
    seer = seat(a, Role.SEER)
    early = a.view(seer)
    wolves = seats(a, Role.WEREWOLF)
    _speak(a, wolves[0], f"I am the seer. I checked {a.state.name(seer)}: evil.")
    late = a.view(seer)
    for view in (late, b.view(seer), early, late):
        assert belief(view) == fresh_belief(view)
    assert belief(late) != belief(early)


def test_a_player_who_had_a_turn_and_named_nobody_is_a_little_more_suspect() -> None:
    """Words that tie to nothing are a small piece of evidence once the player had a
    turn; a player who has not had one yet is not suspected for it."""
    game = _day_one()
    villagers = seats(game, Role.VILLAGER)
    quiet, waiting = villagers[0], villagers[1]
    _speak(game, quiet, "hm well I think so maybe")
    b = belief(game.view(seat(game, Role.DOCTOR)))
    assert b.evil[quiet] > b.evil[waiting]
    assert "said nothing about anyone on day 1" in b.reasons[quiet]
    assert not any("said nothing" in r for r in b.reasons[waiting])


def test_an_accusation_makes_the_accuser_and_the_accused_an_unlikely_pack() -> None:
    """Two hidden wolves are weighed as a pair: a wolf turns on outsiders, so a readable
    accusation keeps the accuser and the accused apart (both less likely than a player
    nobody tied to anyone)."""
    game = _day_one()
    villagers = seats(game, Role.VILLAGER)
    wolves = seats(game, Role.WEREWOLF)
    watcher = seat(game, Role.DOCTOR)
    accuser, accused = villagers[0], villagers[1]
    _speak(game, accuser, f"I suspect {game.state.name(accused)}.")
    b = belief(game.view(watcher))
    for untouched in (villagers[2], *wolves):
        assert b.evil[accuser] < b.evil[untouched]
        assert b.evil[accused] < b.evil[untouched]
    assert math.isclose(sum(b.evil.values()), b.hidden_evil)


def test_a_dead_seer_is_believed_about_the_living() -> None:
    """A claimer whose death revealed the seer told the truth: whom it cleared is
    trusted by the others."""
    game = day_one(2, wolf_chat_messages=0)
    seer = seat(game, Role.SEER)
    doctor = seat(game, Role.DOCTOR)
    villagers = seats(game, Role.VILLAGER)
    cleared, voted_out, watcher = villagers
    _speak(game, seer, f"I am the seer. I checked {game.state.name(cleared)}: innocent.")
    _drain_talk(game)
    vote_all(game, voted_out)
    night(game, kill=seer, protect=doctor)
    assert not game.state.player(seer).alive
    b = belief(game.view(watcher))
    assert any("who was the seer" in r for r in b.reasons[cleared])
    assert b.ranked()[-1] == cleared


def test_each_seat_keeps_its_own_records_with_the_game() -> None:
    """The kept records live with the game, one per seat, handed to that seat's views
    only; another game (or a copy of this one) starts its own."""
    game, other = _day_one(seed=2), _day_one(seed=3)
    a, b = game.state.players[0].id, game.state.players[1].id
    kept = game.view(a).private.records
    assert kept is not None and game.view(a).private.records is kept
    assert game.view(b).private.records is not kept
    assert other.view(a).private.records is not kept
    assert game.view("router").private.records is None
