"""Campaign files: the shipped ones load; each kind of mistake is one coded file:line error."""

from __future__ import annotations

from pathlib import Path

import pytest

from parlour.games.campaign import CampaignError, load_campaign, shipped_names
from parlour.games.campaign.dice import band
from parlour.games.campaign.loader import CAMPAIGN_DIR

SHORT = (CAMPAIGN_DIR / "short_test.yaml").read_text()


def test_shipped_campaigns_load() -> None:
    assert shipped_names() == ["night_school", "short_test"]
    night = load_campaign("night_school")
    assert night.npc_ids == ("priya", "tomas", "wren", "dov")
    assert "ilse_vampire" in night.secrets()


@pytest.mark.parametrize(
    ("old", "new", "expected"),
    [
        (
            "  npcs: [bram]",
            "  npcs: [bram, zed]",
            ":61: [C004] unknown NPC 'zed'; known: bram, cala",
        ),
        (
            "    persona: A guard",
            "    persna: A guard",
            ":31: [C001] unknown key 'persna' (did you mean 'persona'?)",
        ),
        ("  hp: 6", "  hp: lots", ":17: [C002] 'pc.hp' must be a whole number"),
        ("  location: inn", "  location: cellar", ":60: [C005] unknown location 'cellar'"),
        ("    climb: 2", "    swim: 2", ":16: [C006] unknown skill 'swim'; known: talk, climb"),
        (
            "  inventory: [coin]",
            "  inventory: [coin, lamp]",
            ":18: [C007] unknown item 'lamp'; known: coin, rope",
        ),
        ("  - id: cala", "  - id: bram", ":29: [C003] id 'bram' is used twice"),
        (
            "      bram: Her source",
            "      bob: Her source",
            ":37: [C004] unknown NPC 'bob'; known: pc, bram, cala",
        ),
        ("  easy: 8\n  hard: 14", "  {}", ":[C009] 'difficulties' must not be empty"),
        ("title: Short Test", "title: [Short", ":3: YAML syntax error"),
    ],
)
def test_mistakes_are_coded_with_lines(tmp_path: Path, old: str, new: str, expected: str) -> None:
    assert old in SHORT, old
    path = tmp_path / "c.yaml"
    path.write_text(SHORT.replace(old, new, 1))
    with pytest.raises(CampaignError) as err:
        load_campaign(path)
    message = str(err.value)
    assert message.startswith(str(path) + ":")
    head, _, rest = expected.partition("[")
    if head.strip(":"):
        assert f"{path}{head}" in message, message
    assert ("[" + rest if rest else expected) in message, message
    assert "\n" not in message


def test_unknown_campaign_names_the_shipped_ones() -> None:
    with pytest.raises(CampaignError, match="night_school, short_test"):
        load_campaign("nope")


@pytest.mark.parametrize(
    ("natural", "total", "dc", "expected"),
    [
        (1, 30, 10, "complication"),
        (3, 5, 10, "complication"),
        (6, 6, 10, "mixed"),
        (9, 9, 10, "mixed"),
        (10, 10, 10, "success"),
        (12, 19, 10, "success"),
        (15, 20, 10, "success with style"),
        (20, 20, 25, "success with style"),
    ],
)
def test_outcome_bands(natural: int, total: int, dc: int, expected: str) -> None:
    assert band(natural, total, dc) == expected
