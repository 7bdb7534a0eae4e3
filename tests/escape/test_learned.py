"""The learned decision of the similarity stage (``learned.py``) and the thesaurus it reads
(``thesaurus.py``)."""

from __future__ import annotations

from parlour.games.escape import learned, load_scenario
from parlour.games.escape.thesaurus import related

LIFT = [
    ("press_floor_buttons", "press the floor buttons"),
    ("open_phone_door", "open the little emergency phone door"),
    ("climb_handrail", "climb up onto the handrail"),
]
LIFT_LATER = [("force_doors", "force the lift doors apart")]


def test_the_thesaurus_relates_words_of_like_meaning_from_its_package() -> None:
    assert related("crank", "wind") and related("yank", "pull") and related("cog", "gear")
    assert related("cranks", "wind")  # an ending is taken off
    assert not related("crank", "read") and not related("door", "window")


def test_every_offered_action_gets_one_row_of_every_feature() -> None:
    rows = learned.candidate_rows("press the buttons", LIFT, unoffered=LIFT_LATER)
    assert [oid for oid, _ in rows] == [oid for oid, _ in LIFT]
    assert all(len(x) == len(learned.FEATURES) == len(learned.WEIGHTS) for _, x in rows)
    ranked = learned.likeliest("press the buttons", LIFT, unoffered=LIFT_LATER)
    assert ranked[0][1] == "press_floor_buttons"
    assert [p for p, _, _ in ranked] == sorted((p for p, _, _ in ranked), reverse=True)


def test_words_that_fit_an_action_not_available_as_well_are_no_ask() -> None:
    # "open the door" at the start of the lift: the phone's little door, or the lift doors
    # that cannot be forced yet; the words fit both, so the learned decision does not ask.
    actions = load_scenario("stalled_lift").actions
    offered = [(a.id, a.description) for a in actions if not a.needs]
    later = [(a.id, a.description) for a in actions if a.needs]
    top = learned.likeliest("open the door", offered, unoffered=later)[0]
    assert top[1] == "open_phone_door" and learned.points_elsewhere(top[2])
    top = learned.likeliest("open the little phone door", offered, unoffered=later)[0]
    assert top[1] == "open_phone_door" and not learned.points_elsewhere(top[2])


def test_the_fitted_thresholds_act_only_when_sure() -> None:
    assert 0.0 < learned.ASK_P < learned.ACT_P < 1.0
