"""The conformance suite over 20 seeds, and a leak scan of scripted games over 200 seeds."""

from __future__ import annotations

import json

import pytest

from parlour.core.conformance import check, texts_in
from parlour.core.rng import Rng, hash_seed
from parlour.games.missing import MODULE, MissingGame
from parlour.seats.flatten import flatten
from tests.missing.helpers import small

#: Games whose every offered decision is also rendered as the model prompt and scanned.
PROMPT_SEEDS = 50
PROMPTER = MODULE.prompter


def _configs(seed: int):  # type: ignore[no-untyped-def]
    # Every other game has a person's seat, so the standing message decision and the
    # withdrawal of a round's questions are played too.
    return small(people=["p2"] if seed % 2 else [])


def test_conformance_over_20_seeds() -> None:
    # Random play from seeds 0-199 takes no line-to-line step in parlour's sources that
    # seeds 0 and 1 (one game without and one with a person's seat) do not already take
    # (measured with a sys.settrace arc tracer): 20 seeds keep that coverage ten times over.
    report = check(
        MODULE,
        seeds=range(20),
        configs=_configs,
        replay_seeds=range(6),
        leak_seeds=range(3),
        decision_seeds=range(3),
    )
    assert report.games_terminated == 20
    assert report.views_scanned > 1000
    assert report.answers_tried > 1000


@pytest.mark.slow  # leak scan of 200 games
def test_no_marker_reaches_another_seat_in_200_scripted_games() -> None:
    """Markers sit in every secret and every private search result; each seat's decisions
    (all of them, as offered), the model prompt each would get (for the first
    ``PROMPT_SEEDS`` games: what an LLM seat would send and store) and its final view are
    scanned for markers it may not know. This is the in-process, cheap twin of
    `parlour audit` (test_audit.py runs the CLI on fewer stored games)."""
    leaks: list[str] = []
    planted = 0
    prompts = 0
    for seed in range(200):
        game = MissingGame(_configs(seed).model_copy(update={"plant_markers": True}), seed)
        offered: dict[str, list[str]] = {s.id: [] for s in game.seats()}
        seen: set[str] = set()
        while not game.is_terminal():
            for d in game.pending():
                if d.id in seen:
                    continue
                seen.add(d.id)
                offered[d.seat].append(json.dumps(d.model_dump(mode="json")))
                if seed < PROMPT_SEEDS:
                    parts = PROMPTER.parts(game.view(d.seat), d)
                    offered[d.seat].extend(t.content for t in flatten(parts))
                    prompts += 1
            decision = game.pending()[0]
            rng = Rng(hash_seed(seed, decision.id))
            game.apply(decision.id, MODULE.policy(game.view(decision.seat), decision, rng))
        markers = game.secret_markers()
        planted += len(markers)
        for seat in offered:
            view = "\n".join(texts_in(game.view(seat).model_dump(mode="json")))
            asked = "\n".join(offered[seat])
            for marker, allowed in markers.items():
                # Secrets are everyone's after the debrief: the final view may hold them.
                if seat in allowed and len(allowed) > 1 and marker in view:
                    continue
                if seat not in allowed and marker in view:
                    leaks.append(f"seed {seed}: {seat}'s view holds {marker}")
            # Decisions were all offered before the debrief: every marker had one owner.
            owners = {
                m: (a if len(a) == 1 else frozenset({m.removesuffix("]]").rsplit(":", 1)[-1]}))
                for m, a in markers.items()
            }
            for marker, owner in owners.items():
                if seat not in owner and marker in asked:
                    leaks.append(f"seed {seed}: {seat} was asked with {marker}")
    assert planted > 200 and prompts > 1000
    assert leaks == []
