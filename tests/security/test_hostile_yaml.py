"""Every loader of user YAML against every kind of hostile file: one coded line, fast.

A loader is each way a person's YAML enters parlour (scenario, town, campaign, cast, label
set and label index files, ``--set`` values, the core loader itself); a hostile file is
each way a YAML document can hurt (size, depth, alias loops and bombs, one long value
aliased many times, bad tags and values, forbidden characters, bad UTF-8, syntax). Each
pair must end in the loader's own one-line error caused by a ``YamlError`` with the
expected code, in well under the two seconds a person would wait. The CLI tests at the
end check the issue's own reproduction: ``escape validate`` refuses the file at once and
``watch escape --scenario`` writes nothing to the database.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from pathlib import Path

import pytest

from parlour.core.errors import ParlourError
from parlour.core.safe_yaml import MAX_BYTES, MAX_CHARS, YamlError, load_file, load_lined
from parlour.games.campaign.loader import load_campaign
from parlour.games.escape.labels import INDEX_FILE, load_label_file, read_label_index
from parlour.games.escape.loader import load_scenario
from parlour.games.missing.loader import load_town
from parlour.games.werewolf.cast import load_cast
from parlour.runtime.set_values import parse_set_options
from parlour.runtime.store import Store, db_url
from tests.conftest import CliRunner

_LAUGHS = "\n".join(
    [
        'a: &a ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]',
        *(
            f"{chr(97 + i)}: &{chr(97 + i)} [" + ",".join([f"*{chr(96 + i)}"] * 9) + "]"
            for i in range(1, 10)
        ),
    ]
)


def _long_value(size: int, aliases: int = 999) -> str:
    """The issue's case: one long value anchored once and aliased many times."""
    return "title: t\nworld:\n  - &big " + "a" * size + "\n" + "  - *big\n" * aliases


def _nested_text_bomb() -> str:
    """Few nodes, much text: each level holds two aliases of a 10 KB-text level below."""
    lines = ["l0: &l0 [" + ", ".join(["x" * 1000] * 10) + "]"]
    lines += [f"l{i}: &l{i} [*l{i - 1}, *l{i - 1}]" for i in range(1, 20)]
    return "\n".join(lines) + "\n"


#: name -> (file bytes, expected code)
HOSTILE: dict[str, tuple[bytes, str]] = {
    "over_the_size_limit": (b"title: " + b"x" * MAX_BYTES + b"\n", "Y001"),
    "nested_too_deep": (b"title: " + b"[" * 5000 + b"]" * 5000 + b"\n", "Y002"),
    "alias_loop": (b"title: &a [*a]\n", "Y003"),
    "billion_laughs": (_LAUGHS.encode(), "Y003"),
    "too_many_aliases": (("a: &a 1\nb: [" + ", ".join(["*a"] * 1001) + "]\n").encode(), "Y003"),
    "100kb_value_aliased_999_times": (_long_value(100_000).encode(), "Y003"),
    "1mb_value_aliased_999_times": (_long_value(1_000_000).encode(), "Y003"),
    "nested_text_bomb": (_nested_text_bomb().encode(), "Y003"),
    "value_its_tag_cannot_hold": (b"title: x\nflag: !!bool maybe\n", "Y005"),
    "python_object_tag": (b"x: 1\ny: !!python/object/apply:os.system ['echo pwned']\n", "Y006"),
    "nul_byte": (b"title: ok\nintro: a\x00b\n", "Y007"),
    "bad_utf8": (b"title: ok\nintro: caf\xff\n", "Y007"),
    "syntax_error": (b"title: [1\n", "Y004"),
    "duplicate_key": (b"a: 1\na: 2\n", "Y004"),
}


def _label_index(path: Path) -> object:
    folder = path.parent / "labels"
    folder.mkdir()
    path.rename(folder / INDEX_FILE)
    return read_label_index(folder)


def _set_value(path: Path) -> object:
    # A command-line value is text: bytes that are not UTF-8 cannot reach it.
    return parse_set_options([f"title={path.read_bytes().decode('utf-8')}"])


LOADERS: dict[str, Callable[[Path], object]] = {
    "core.safe_yaml.load_file": load_file,
    "escape scenario": load_scenario,
    "escape label file": load_label_file,
    "escape label index": _label_index,
    "missing town": load_town,
    "campaign": load_campaign,
    "werewolf cast": load_cast,
    "--set value": _set_value,
}

#: A command-line value has a smaller size limit: the 1 MB value is refused by size first.
OTHER_CODE = {("--set value", "1mb_value_aliased_999_times"): "Y001"}

CASES = [
    pytest.param(loader, kind, id=f"{loader}-{kind}")
    for loader in LOADERS
    for kind in HOSTILE
    if not (loader == "--set value" and kind == "bad_utf8")
]


def _cause(err: BaseException) -> YamlError | None:
    seen: BaseException | None = err
    while seen is not None:
        if isinstance(seen, YamlError):
            return seen
        seen = seen.__cause__
    return None


@pytest.mark.parametrize(("loader", "kind"), CASES)
def test_every_loader_refuses_every_hostile_file_in_one_coded_line(
    loader: str, kind: str, tmp_path: Path
) -> None:
    data, code = HOSTILE[kind]
    code = OTHER_CODE.get((loader, kind), code)
    path = tmp_path / "hostile.yaml"
    path.write_bytes(data)
    start = time.perf_counter()
    with pytest.raises(ParlourError) as caught:
        LOADERS[loader](path)
    elapsed = time.perf_counter() - start
    message = str(caught.value)
    assert "\n" not in message and len(message) < 400, message
    found = _cause(caught.value)
    assert found is not None and found.code == code, message
    assert elapsed < 2.0, f"{elapsed:.2f} s"
    if loader != "--set value":
        # --set words its own line ("bad --set KEY: problem"); files name file and line.
        assert f"{found.file}:{found.line}: " in message or f":{found.line}: " in message
        assert code in message or code == "Y004"


def test_expanded_text_is_bounded_just_above_what_a_file_may_hold() -> None:
    # One file at the size limit, written out, loads: aliases never buy more than that.
    assert MAX_CHARS == MAX_BYTES
    aliases = MAX_CHARS // 100_000 - 2
    assert len(load_lined(_long_value(100_000, aliases)).data["world"]) == aliases + 1
    with pytest.raises(YamlError, match="Y003 the document expands to more than"):
        load_lined(_long_value(100_000, aliases + 2))


def test_escape_validate_refuses_the_issue_case_at_once(
    cli_here: CliRunner, tmp_path: Path
) -> None:
    path = tmp_path / "bomb.yaml"
    path.write_text(_long_value(1_000_000), encoding="utf-8")
    done = cli_here("escape", "validate", str(path), timeout=60)
    assert done.returncode != 0
    lines = done.stderr.strip().splitlines() + done.stdout.strip().splitlines()
    assert len(lines) == 1, lines
    assert f"{path}:" in lines[0] and "Y003" in lines[0]


def test_watch_escape_on_the_issue_case_writes_nothing(cli_here: CliRunner, db_path: Path) -> None:
    path = db_path.parent / "bomb.yaml"
    path.write_text(_long_value(100_000), encoding="utf-8")
    done = cli_here("watch", "escape", "--scenario", str(path), "--model", "scripted", timeout=60)
    assert done.returncode != 0
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and "Y003" in lines[0], done.stderr
    if db_path.exists():  # a store may be opened, but no game is written
        assert db_path.stat().st_size < 1_000_000
        store = Store(db_url(str(db_path)))
        try:
            assert store.list_games() == []
        finally:
            store.close()
