"""The two example rooms in ``examples/escape/``, each written by an outside designer from
docs/escape-scenarios.md alone, with two label sets of 80 messages written blind from the
room file (docs/benchmarks.md, "A room the classifier was not built around", "A fourth room").

The Palm House was read for the classifier's thirteenth step. The Fell Station was never
read for the classifier: as first written it scored 78.8% with 2 wrongly advanced of 160
(the repository's fair figure for a room the classifier was not built around); its designer
then wrote ``also`` phrasings from the misses on ``blind`` alone, and ``blind2``, which
nobody has read for tuning, measures what that play-test bought (77.5% -> 88.8%)."""

from __future__ import annotations

from pathlib import Path

import pytest

from parlour.games.escape import EscapeGame, load_scenario
from parlour.games.escape.cli_support import validate_file
from parlour.games.escape.evaluate import evaluate_classifier
from parlour.games.escape.policies import SolverPlayer, keyword_classifier, template_narrator
from parlour.games.escape.surface.evaluation import labels_for

from .helpers import config, play
from .test_classifier import keyword

ROOMS = Path(__file__).parents[2] / "examples" / "escape"

#: (room, set) -> (accuracy floor, most wrongly advanced), as measured.
FLOORS = {
    # 72.5% / 2 and 81.2% / 2 when first scored; tuned on since. 0.86 and 0.92 until the
    # similarity stage asked where it is unsure (issue 31): an ask is a miss of accuracy;
    # understood is 92.5% (74/80, 6 asked) and 91.2% (73/80, 2 asked). 0.85 until a rules
    # pick naming a thing it does not say was asked about (``understand.doubt``): 83.8%,
    # understood 92.5% (74/80, 7 asked) unchanged. 0.83 until a message naming the thing
    # two actions are about was asked about (``understand.vague_group``): 82.5%, understood
    # 92.5% (74/80, 8 asked) unchanged.
    ("palm_house", "blind"): (0.82, 0),
    ("palm_house", "blind2"): (0.90, 0),
    # Scored once at d200c5c as first written: 80.0% / 0 and 77.5% / 2. Then its designer
    # added ``also`` phrasings from blind's misses only (one of them makes "x desk" read the
    # logbook: blind's wrong advance); blind2, never read, was scored once with them.
    ("fell_station", "blind"): (0.93, 1),
    ("fell_station", "blind2"): (0.88, 2),
}


@pytest.mark.parametrize("room", ["palm_house", "fell_station"])
def test_an_example_room_validates_and_the_walkthrough_bot_escapes(room: str) -> None:
    path = ROOMS / f"{room}.yaml"
    assert validate_file(path) == ([], 0)
    game = EscapeGame.new(config(str(path)), 3)
    seats = {
        "player": SolverPlayer(load_scenario(path)),
        "classifier": keyword_classifier,
        "narrator": template_narrator,
    }
    play(game, seats, 3)
    result = game.result()
    assert result is not None and "a good ending" in result.summary, result.summary


@pytest.mark.parametrize(("room", "which"), sorted(FLOORS))
async def test_an_example_rooms_label_set_is_sound_and_pins_its_score(
    room: str, which: str
) -> None:
    path = str(ROOMS / f"{room}.yaml")
    labels = labels_for(path, which)  # checked as `parlour eval escape` checks it
    assert len(labels.cases) == 80 and labels.scenario == room
    score = await evaluate_classifier(keyword, load_scenario(path), labels)
    floor, most_wrong = FLOORS[(room, which)]
    assert score.invalid == 0
    assert score.accuracy >= floor, score.summary()
    assert score.wrongly_advanced <= most_wrong, [m for m in score.mistakes if m.advanced]
