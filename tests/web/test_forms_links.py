"""Decision forms read back into the actions the engine accepts; links stored hashed."""

from __future__ import annotations

from pathlib import Path

import pytest
import sqlalchemy as sa

from parlour.core.actions import Choice, Choices, Structured, Text
from parlour.core.asks import Hints
from parlour.core.errors import IllegalAction
from parlour.games import registry
from parlour.runtime.store import Store, db_url, schema
from parlour.web.forms import action_from_form, structured_fields
from parlour.web.links import Links
from tests.support.decisions import make_decision


def _diplomacy_orders():
    module = registry.load("diplomacy")
    game = module.game.new(module.make_config(None, {}), 1)
    return [d for d in game.pending() if d.purpose == "orders"], game


def test_diplomacy_units_are_selects_of_legal_orders_and_the_engine_takes_the_answer() -> None:
    decisions, game = _diplomacy_orders()
    d = decisions[0]
    fields = structured_fields(d)
    assert fields and all(f.kind == "select" for f in fields)
    assert {f.name for f in fields} == set(d.json_schema["required"])
    # Each select offers exactly the schema's legal orders, labelled, each once, in the
    # order the terminal shows them too (likely orders first: Hints.groups).
    hints = Hints.of(d)
    for f in fields:
        enum = d.json_schema["properties"][f.name]["enum"]
        values = [v for v, _ in f.choices]
        assert sorted(values) == sorted(enum) and len(set(values)) == len(values)
        assert values == [v for _, v in hints.shown(f.name, enum)]
    form = {f"f.{f.name}": [f.choices[-1][0]] for f in fields}
    action = action_from_form(d, form)
    assert isinstance(action, Structured)
    d.check(action)
    game.apply(d.id, action)  # the engine applies it
    bad = {f"f.{f.name}": ["A XXX - YYY"] for f in fields}
    with pytest.raises(IllegalAction):
        d.check(action_from_form(d, bad))


def test_choose_one_many_and_text_forms() -> None:
    from parlour.core.decisions import DecisionKind, Option

    opts = (Option(id="a", label="Ann"), Option(id="b", label="Bo"), Option(id="c", label="Cy"))
    one = make_decision(options=opts)
    assert action_from_form(one, {"option": ["b"]}) == Choice(option="b")
    with pytest.raises(IllegalAction, match="not a legal choice"):
        one.check(action_from_form(one, {"option": ["z"]}))
    many = make_decision(DecisionKind.CHOOSE_MANY, options=opts, min_choices=1, max_choices=2)
    assert action_from_form(many, {"options": ["a", "c"]}) == Choices(options=("a", "c"))
    with pytest.raises(IllegalAction, match="between 1 and 2"):
        many.check(action_from_form(many, {"options": ["a", "b", "c"]}))
    text = make_decision(DecisionKind.FREE_TEXT, purpose="speak", max_length=5)
    assert action_from_form(text, {"text": ["hi"]}) == Text(text="hi")
    with pytest.raises(IllegalAction, match="too long"):
        text.check(action_from_form(text, {"text": ["too long"]}))


def test_press_rows_skip_empty_rows() -> None:
    from parlour.core.decisions import DecisionKind
    from parlour.games.diplomacy.config import DiplomacyConfig
    from parlour.games.diplomacy.press import press_schema

    schema_ = press_schema(["FRANCE", "GERMANY"], DiplomacyConfig(press_rounds=1))
    d = make_decision(DecisionKind.STRUCTURED, seat="ENGLAND", purpose="press", json_schema=schema_)
    (rows,) = structured_fields(d)
    assert rows.kind == "rows" and [c.name for c in rows.columns] == ["to", "text"]
    form = {
        "f.messages.0.to": ["GERMANY"],
        "f.messages.0.text": ["hello"],
        "f.messages.1.to": ["FRANCE"],
        "f.messages.1.text": ["  "],
    }
    action = action_from_form(d, form)
    assert d.check(action) == Structured(value={"messages": [{"to": "GERMANY", "text": "hello"}]})


def test_links_are_random_stored_hashed_and_forgeries_grant_nothing(tmp_path: Path) -> None:
    store = Store(db_url(str(tmp_path / "p.sqlite")))
    links = Links(store)
    token = links.issue("ww-1", "seat", "p2")
    admin = links.issue("ww-1", "admin")
    assert len(token) >= 43 and token != admin  # 256 bits, url-safe base64
    found = links.lookup(token)
    assert found is not None and (found.game_id, found.role, found.seat) == ("ww-1", "seat", "p2")
    with store.engine.connect() as conn:
        stored = conn.execute(sa.select(schema.web_links.c.token_hash)).scalars().all()
    assert token not in stored and admin not in stored and len(stored) == 2
    for forged in (token[:-1] + ("A" if token[-1] != "A" else "B"), stored[0], "", "x" * 500):
        assert links.lookup(forged) is None
    assert links.reveal("ww-1") == "public"
    links.set_reveal("ww-1", "teams")
    assert links.reveal("ww-1") == "teams"
