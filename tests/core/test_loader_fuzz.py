"""Fuzz every loader of user files: random and mutated documents give a valid object or one
``ParlourError`` line, never another exception; each document is bounded in time and memory."""

from __future__ import annotations

import time
import tracemalloc
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from benchmarks.escape_labels import LABEL_DIR
from parlour.core.errors import ParlourError
from parlour.games.escape.labels import load_label_file
from parlour.games.escape.loader import SCENARIO_DIR, parse_scenario
from parlour.games.werewolf.cast import default_cast, load_cast, save_cast
from parlour.games.werewolf.config import WerewolfConfig
from parlour.runtime.set_values import parse_set_options

SCENARIO = (SCENARIO_DIR / "ghost_room.yaml").read_text(encoding="utf-8")
LABELS = (LABEL_DIR / "ghost_room.labels.yaml").read_text(encoding="utf-8")

#: Pieces a mutation splices in: YAML syntax, tags, anchors and aliases, control bytes.
PIECES = [
    "&a ",
    "*a",
    "[*a, *a]",
    "!!bool maybe",
    "!!binary abc",
    "!!python/object:os.system",
    "!!set",
    "{",
    "}",
    "[",
    "]",
    ": ",
    "- ",
    "\n  ",
    "\x00",
    "\x07",
    "'",
    '"',
    "---\n",
    "? ",
    "<<: *a",
    "\t",
    "!!int x",
    "%YAML 1.1\n",
    "\ufeff",
    "9" * 30,
    "[" * 80,
]
MAX_SECONDS = 2.0
MAX_BYTES = 64 * 1024 * 1024


@st.composite
def mutated(draw: st.DrawFn, base: str) -> str:
    text = base
    for _ in range(draw(st.integers(1, 4))):
        at = draw(st.integers(0, len(text)))
        op = draw(st.sampled_from(["insert", "delete", "duplicate"]))
        if op == "insert":
            text = text[:at] + draw(st.sampled_from(PIECES)) + text[at:]
        elif op == "delete":
            text = text[:at] + text[at + draw(st.integers(1, 40)) :]
        else:
            end = min(len(text), at + draw(st.integers(1, 200)))
            text = text[:at] + text[at:end] * draw(st.integers(2, 6)) + text[end:]
    return text


def documents(base: str) -> st.SearchStrategy[str]:
    return st.one_of(mutated(base), st.text(max_size=300))


def _bounded(load: Callable[[], Any]) -> None:
    tracemalloc.start()
    start = time.perf_counter()
    try:
        load()
    except ParlourError as err:
        assert "\n" not in str(err).strip(), repr(str(err))
    finally:
        _, peak = tracemalloc.get_traced_memory()
        tracemalloc.stop()
    assert time.perf_counter() - start < MAX_SECONDS
    assert peak < MAX_BYTES


FUZZ = settings(
    max_examples=120, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)


@FUZZ
@given(documents(SCENARIO))
def test_scenario_loader(text: str) -> None:
    _bounded(lambda: parse_scenario(text, file="fuzz.yaml"))


@FUZZ
@given(documents(LABELS))
def test_label_loader(tmp_path: Path, text: str) -> None:
    path = tmp_path / "fuzz.labels.yaml"
    path.write_text(text, encoding="utf-8", errors="surrogatepass")
    _bounded(lambda: load_label_file(path))


@pytest.fixture(scope="module")
def cast_text(tmp_path_factory: pytest.TempPathFactory) -> str:
    path = tmp_path_factory.mktemp("cast") / "cast.yaml"
    save_cast(default_cast(7, seed=1, theme="a lighthouse"), path)
    return path.read_text(encoding="utf-8")


@FUZZ
@given(data=st.data())
def test_cast_loader(tmp_path: Path, cast_text: str, data: st.DataObject) -> None:
    path = tmp_path / "fuzz.cast.yaml"
    path.write_text(data.draw(documents(cast_text)), encoding="utf-8", errors="surrogatepass")
    _bounded(lambda: load_cast(path))


@FUZZ
@given(st.sampled_from(sorted(WerewolfConfig.model_fields)), documents("[Ann, Bob]"))
def test_set_values(key: str, value: str) -> None:
    _bounded(lambda: parse_set_options([f"{key}={value}"], WerewolfConfig))
