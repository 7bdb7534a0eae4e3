"""The one loader of user YAML: hostile documents are one coded line, valid ones load as
``yaml.safe_load`` would, and every key keeps its line."""

from __future__ import annotations

import time
from pathlib import Path

import pytest
import yaml

from parlour.core.safe_yaml import Limits, YamlError, load_file, load_lined, load_value

BOMB = "\n".join(
    [
        'a: &a ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]',
        *(
            f"{chr(97 + i)}: &{chr(97 + i)} [" + ",".join([f"*{chr(96 + i)}"] * 9) + "]"
            for i in range(1, 10)
        ),
    ]
)

HOSTILE = [
    # (document, code, line)
    ("title: " + "[" * 5000 + "]" * 5000, "Y002", 1),
    ("".join("  " * i + "k:\n" for i in range(200)) + "  " * 200 + "v\n", "Y002", 65),
    ("".join("  " * i + "-\n" for i in range(200)) + "  " * 200 + "v\n", "Y002", 65),
    ("title: &a [*a]\n", "Y003", 1),
    ("x: 1\ntitle: &a {k: [1, *a]}\n", "Y003", 2),
    (BOMB, "Y003", 6),
    ("title: x\nflag: !!bool maybe\n", "Y005", 2),
    ("title: !!binary '%%%not base64'\n", "Y005", 1),
    ("n: !!int twelve\n", "Y005", 1),
    ("t: !!timestamp nope\n", "Y005", 1),
    ("n: !!float 1e999999x\n", "Y005", 1),
    ("x: 1\ny: !!python/object/apply:os.system ['echo pwned']\n", "Y006", 2),
    ("s: !!set {a, b}\n", "Y006", 1),
    ("c: !custom x\n", "Y006", 1),
    ("title: ok\nintro: a\x00b\n", "Y007", 2),
    ("title: a\x07\n", "Y007", 1),
    ("title: [1\n", "Y004", 2),
    ("a: 1\na: 2\n", "Y004", 2),
    ("? [a]\n: 1\n", "Y004", 1),
    ("a: 1\n---\nb: 2\n", "Y004", 2),
    ("a: *nowhere\n", "Y004", 1),
]


@pytest.mark.parametrize(("text", "code", "line"), HOSTILE)
def test_hostile_documents_are_one_coded_line(text: str, code: str, line: int) -> None:
    start = time.perf_counter()
    with pytest.raises(YamlError) as caught:
        load_lined(text, file="f.yaml")
    assert time.perf_counter() - start < 2
    err = caught.value
    assert (err.code, err.line) == (code, line), str(err)
    assert str(err).startswith(f"f.yaml:{line}: ")
    assert "\n" not in str(err)


def test_limits_on_size_and_aliases(tmp_path: Path) -> None:
    big = tmp_path / "big.yaml"
    big.write_text("a: " + "x" * 2000 + "\n", encoding="utf-8")
    with pytest.raises(YamlError) as caught:
        load_file(big, limits=Limits(max_bytes=1000))
    assert caught.value.code == "Y001" and "2,004 bytes; the limit is 1,000" in str(caught.value)
    many = "a: &a 1\nb: [" + ", ".join(["*a"] * 20) + "]\n"
    with pytest.raises(YamlError, match="Y003 more than 10 aliases"):
        load_lined(many, limits=Limits(max_aliases=10))
    assert load_lined(many).data["b"] == [1] * 20


def test_bad_utf8_names_the_line(tmp_path: Path) -> None:
    path = tmp_path / "x.yaml"
    path.write_bytes(b"title: ok\nintro: \xff\n")
    with pytest.raises(YamlError, match=r"x.yaml:2: Y007 byte 0xff is not UTF-8"):
        load_file(path)
    with pytest.raises(YamlError, match="cannot read the file"):
        load_file(tmp_path / "missing.yaml")


VALID = [
    "title: Ghost\nn: 12\nf: 1.5\nok: yes\nnone: ~\nwhen: 2024-01-02\nlist: [a, 'b', 3]\n",
    "a: &x {k: [1, 2]}\nb: *x\nc: &s text\nd: [*s, *s]\n",
    "- 1\n- - nested\n  - {deep: [true, false, null]}\n",
    "bin: !!binary aGVsbG8=\nstr: !!str 0451\nint: !!int '7'\n",
    "",
    "just a scalar",
]


@pytest.mark.parametrize("text", VALID)
def test_valid_documents_load_like_safe_load(text: str) -> None:
    assert load_lined(text).data == yaml.safe_load(text)


def test_lines_and_raw_keys() -> None:
    text = "title: x\nactions:\n  - id: a\n    answer: 0451\n  - id: b\n"
    lined = load_lined(text, raw_keys=frozenset({"answer"}))
    assert lined.data["actions"][0]["answer"] == "0451"
    assert lined.lines[("actions",)] == 2
    assert lined.lines[("actions", 1)] == 5
    assert lined.lines[("actions", 0, "answer")] == 4
    assert lined.line_of(("actions", 1, "missing")) == 5


def test_load_value_is_a_small_document() -> None:
    assert load_value("[a, b]", name="--set names") == ["a", "b"]
    with pytest.raises(YamlError, match=r"^--set names:\d+: YAML syntax error"):
        load_value("[a", name="--set names")
