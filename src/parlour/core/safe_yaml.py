"""The one YAML loader for user files: plain data, the line of every key, and hard limits.

Scenario files, label sets, werewolf casts and ``--set`` values are written by people we do
not control, so every one of them goes through here. PyYAML's ``safe_load`` is safe from
code execution but not from everything else: an alias bomb ("billion laughs") expands to
gigabytes, ``&a [*a]`` builds a loop that recursion never leaves, deep nesting exhausts the
stack, and a bad ``!!bool``/``!!binary`` or a NUL byte raises exceptions that are not
``YAMLError``. Here the event stream is walked iteratively (libyaml's parser when present)
and each of those becomes one coded ``YamlError`` naming file and line:

=====  ===================================================================
Y001   the file is larger than the limit
Y002   collections nested deeper than the limit
Y003   aliases: too many, expanding to too much data, or an alias loop
Y004   YAML syntax (including duplicate keys and non-text keys)
Y005   a value its tag cannot hold (``!!bool maybe``, bad ``!!binary``)
Y006   a tag we do not load (``!!python/object``, ``!!set``, custom ``!tags``)
Y007   a character YAML forbids (NUL and other control characters), bad UTF-8
=====  ===================================================================
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml
from yaml.constructor import SafeConstructor
from yaml.events import (
    AliasEvent,
    DocumentStartEvent,
    Event,
    MappingEndEvent,
    MappingStartEvent,
    ScalarEvent,
    SequenceEndEvent,
    SequenceStartEvent,
)
from yaml.nodes import ScalarNode
from yaml.resolver import Resolver

from parlour.core.errors import ParlourError

PathKey = tuple[str | int, ...]

#: Limits sized far above any real scenario or cast (the shipped ones: < 300 nodes, depth 4,
#: the largest content file 44 KB) and far below what hurts: 1 MiB is ~7,500 scenario
#: actions, more text than a model's context holds, and a game stores its content with its
#: config, so every byte allowed here is a byte written to the database per game.
MAX_BYTES = 1024 * 1024
MAX_DEPTH = 64
MAX_ALIASES = 1_000
#: Nodes after expanding every alias: a bomb stops here, not in memory.
MAX_NODES = 2_000_000
#: Characters of text (keys and scalars) after expanding every alias, each scalar counted
#: once for every place it is reached. A node count alone lets one long value aliased many
#: times through: every consumer (validators, the stored config) then works on the expanded
#: data. Equal to ``MAX_BYTES`` so aliases never make a file weigh more than the largest file
#: written out in full.
MAX_CHARS = MAX_BYTES

_TAG = "tag:yaml.org,2002:"
_SCALAR_TAGS = {f"{_TAG}{name}" for name in ("null", "bool", "int", "float", "str", "binary")}
_SCALAR_TAGS.add(f"{_TAG}timestamp")
_STR, _NULL = f"{_TAG}str", f"{_TAG}null"
_MAP_TAGS = {None, "!", f"{_TAG}map"}
_SEQ_TAGS = {None, "!", f"{_TAG}seq"}
#: Characters YAML 1.1 does not allow in a stream (C0 controls but tab/newline/CR, DEL...).
_FORBIDDEN = re.compile("[^\x09\x0a\x0d\x20-\x7e\x85\xa0-\ud7ff\ue000-\ufffd\U00010000-\U0010ffff]")
_Loader: Any = getattr(yaml, "CSafeLoader", yaml.SafeLoader)


class YamlError(ParlourError):
    """One line: ``file:line: [code] problem``. ``problem`` alone is kept for wrappers."""

    def __init__(self, problem: str, *, file: str, line: int, code: str = "Y004") -> None:
        self.problem = problem
        self.file = file
        self.line = line
        self.code = code
        # Syntax problems (Y004) read as the parser words them; the limit and tag errors
        # carry their code so a reader can look it up above.
        shown = problem if code == "Y004" else f"{code} {problem}"
        super().__init__(f"{file}:{line}: {shown}")


@dataclass
class LinedData:
    data: Any
    #: path → 1-based line of the key (for mapping entries) or the item (for list items).
    lines: dict[PathKey, int] = field(default_factory=dict)
    #: keys whose scalar value must be kept as written (e.g. codes like 0451, not 297).
    raw_keys: frozenset[str] = frozenset()

    def line_of(self, path: PathKey) -> int:
        """The line of ``path`` or of its nearest ancestor that has one."""
        for cut in range(len(path), -1, -1):
            line = self.lines.get(path[:cut])
            if line is not None:
                return line
        return 1


@dataclass(frozen=True)
class Limits:
    max_bytes: int = MAX_BYTES
    max_depth: int = MAX_DEPTH
    max_aliases: int = MAX_ALIASES
    max_nodes: int = MAX_NODES
    max_chars: int = MAX_CHARS


DEFAULT_LIMITS = Limits()


def read_text(path: Path, *, file: str = "", limits: Limits = DEFAULT_LIMITS) -> str:
    """A user file's text, refused before reading if it is over the size limit."""
    name = file or str(path)
    try:
        size = path.stat().st_size
        if size > limits.max_bytes:
            raise YamlError(_too_big(size, limits), file=name, line=1, code="Y001")
        raw = path.read_bytes()
    except OSError as err:
        raise YamlError(f"cannot read the file: {err.strerror}", file=name, line=1) from err
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError as err:
        line = raw.count(b"\n", 0, err.start) + 1
        raise YamlError(
            f"byte 0x{raw[err.start]:02x} is not UTF-8; save the file as UTF-8",
            file=name,
            line=line,
            code="Y007",
        ) from err


def load_lined(
    text: str,
    *,
    file: str = "<yaml>",
    raw_keys: frozenset[str] = frozenset(),
    limits: Limits = DEFAULT_LIMITS,
) -> LinedData:
    """Parse one YAML document into plain data (dicts, lists, scalars) and key lines."""
    size = len(text.encode("utf-8", "surrogatepass"))
    if size > limits.max_bytes:
        raise YamlError(_too_big(size, limits), file=file, line=1, code="Y001")
    bad = _FORBIDDEN.search(text)
    if bad is not None:
        line = text.count("\n", 0, bad.start()) + 1
        raise YamlError(
            f"character U+{ord(bad.group()):04X} is not allowed in YAML "
            "(is this a binary file?); remove it",
            file=file,
            line=line,
            code="Y007",
        )
    builder = _Builder(file, raw_keys, limits)
    try:
        for event in _events(text):
            builder.feed(event)
    except yaml.MarkedYAMLError as err:
        mark = err.problem_mark or err.context_mark
        line = mark.line + 1 if mark else 1
        if "nesting depth" in str(err.problem):  # libyaml's own limit (1000) came first
            raise YamlError(_too_deep(limits), file=file, line=line, code="Y002") from err
        raise YamlError(f"YAML syntax error: {err.problem or err}", file=file, line=line) from err
    except yaml.YAMLError as err:  # e.g. a reader error without a mark
        problem = " ".join(str(err).split())
        raise YamlError(f"YAML syntax error: {problem}", file=file, line=1) from err
    return builder.out


def load_file(
    path: Path,
    *,
    file: str = "",
    raw_keys: frozenset[str] = frozenset(),
    limits: Limits = DEFAULT_LIMITS,
) -> LinedData:
    name = file or str(path)
    text = read_text(path, file=name, limits=limits)
    return load_lined(text, file=name, raw_keys=raw_keys, limits=limits)


def load_value(text: str, *, name: str, limits: Limits = DEFAULT_LIMITS) -> Any:
    """One small YAML value (a command-line option); ``name`` stands in for the file."""
    return load_lined(text, file=name, limits=limits).data


def _events(text: str) -> Iterator[Event]:
    loader = _Loader(text)
    try:
        while loader.check_event():
            yield loader.get_event()
    finally:
        loader.dispose()


def _line(event: Event) -> int:
    mark = event.start_mark
    return mark.line + 1 if mark is not None else 1


def _short(tag: str | None) -> str:
    return str(tag).replace(_TAG, "!!", 1)


def _too_deep(limits: Limits) -> str:
    return f"collections are nested more than {limits.max_depth} deep; flatten the data"


def _too_big(size: int, limits: Limits) -> str:
    return f"the file is {size:,} bytes; the limit is {limits.max_bytes:,} (split it up)"


@dataclass
class _Frame:
    container: dict[str, Any] | list[Any]
    path: PathKey
    anchor: str | None
    nodes_before: int
    chars_before: int
    key: str | None = None  # a mapping's key waiting for its value
    key_line: int = 0


@dataclass
class _Anchor:
    value: Any
    nodes: int
    chars: int


class _Builder:
    """Turns parser events into data with an explicit stack: no recursion, every limit checked
    as the events arrive, so a hostile file is refused after reading only what it takes."""

    def __init__(self, file: str, raw_keys: frozenset[str], limits: Limits) -> None:
        self.file = file
        self.limits = limits
        self.out = LinedData(data=None, raw_keys=raw_keys)
        self.stack: list[_Frame] = []
        self.anchors: dict[str, _Anchor] = {}
        self.open_anchors: set[str] = set()
        self.nodes = 0
        self.chars = 0
        self.aliases = 0
        self.documents = 0
        self.resolver: Any = Resolver()  # untyped in the stubs
        self.ctor = SafeConstructor()

    def fail(self, problem: str, event: Event, code: str) -> YamlError:
        return YamlError(problem, file=self.file, line=_line(event), code=code)

    def feed(self, event: Event) -> None:
        if isinstance(event, DocumentStartEvent):
            self.documents += 1
            if self.documents > 1:
                raise self.fail(
                    "a file holds one YAML document; remove the second ---", event, "Y004"
                )
        elif isinstance(event, ScalarEvent):
            self._count(event, 1, len(event.value))
            if self._expecting_key():
                self._key(str(event.value), event)
                return
            value = self._scalar(event)
            self._remember(event.anchor, value, 1, len(event.value))
            self._attach(value, event)
        elif isinstance(event, AliasEvent):
            self._alias(event)
        elif isinstance(event, MappingStartEvent | SequenceStartEvent):
            self._open(event)
        elif isinstance(event, MappingEndEvent | SequenceEndEvent):
            self._close(event)

    # -- helpers -----------------------------------------------------------------------

    def _expecting_key(self) -> bool:
        return (
            bool(self.stack)
            and isinstance(self.stack[-1].container, dict)
            and (self.stack[-1].key is None)
        )

    def _count(self, event: Event, nodes: int, chars: int = 0) -> None:
        self.nodes += nodes
        self.chars += chars
        if self.nodes > self.limits.max_nodes:
            raise self.fail(
                f"the document expands to more than {self.limits.max_nodes:,} values "
                "(an alias bomb?); write the data out or use fewer aliases",
                event,
                "Y003",
            )
        if self.chars > self.limits.max_chars:
            # Without aliases the text cannot outgrow the file, so only aliases get here.
            raise self.fail(
                f"the document expands to more than {self.limits.max_chars:,} characters of text "
                "(an alias bomb?); write the data out or use fewer aliases",
                event,
                "Y003",
            )

    def _key(self, key: str, event: Event) -> None:
        top = self.stack[-1]
        assert isinstance(top.container, dict)
        line = _line(event)
        if key in top.container:
            raise self.fail(f"duplicate key '{key}'", event, "Y004")
        self.out.lines[(*top.path, key)] = line
        top.key, top.key_line = key, line

    def _child_path(self) -> PathKey:
        top = self.stack[-1]
        if isinstance(top.container, dict):
            assert top.key is not None
            return (*top.path, top.key)
        return (*top.path, len(top.container))

    def _attach(self, value: Any, event: Event) -> None:
        if not self.stack:
            self.out.data = value
            self.out.lines[()] = _line(event)
            return
        top = self.stack[-1]
        if isinstance(top.container, dict):
            assert top.key is not None
            top.container[top.key] = value
            top.key = None
        else:
            self.out.lines[(*top.path, len(top.container))] = _line(event)
            top.container.append(value)

    def _remember(self, anchor: str | None, value: Any, nodes: int, chars: int) -> None:
        if anchor is not None:
            self.anchors[anchor] = _Anchor(value, nodes, chars)

    def _scalar(self, event: ScalarEvent) -> Any:
        tag = event.tag
        if tag is None or tag == "!":
            tag = self.resolver.resolve(ScalarNode, event.value, event.implicit)
        if tag not in _SCALAR_TAGS:
            raise self.fail(f"tag {_short(event.tag)} is not supported; remove it", event, "Y006")
        top = self.stack[-1] if self.stack else None
        raw = top is not None and isinstance(top.container, dict) and top.key in self.out.raw_keys
        if (raw and tag != _NULL) or tag == _STR:
            return str(event.value)  # the common case, without building a node
        node = ScalarNode(tag, event.value, None, None, event.style)
        construct: Callable[[SafeConstructor, ScalarNode], Any] = self.ctor.yaml_constructors[tag]
        try:
            return construct(self.ctor, node)
        except Exception as err:
            # PyYAML's scalar constructors raise KeyError, ValueError, AttributeError or
            # binascii errors on bad input; all mean the same to the author of the file.
            shown = event.value if len(event.value) <= 40 else event.value[:40] + "..."
            raise self.fail(
                f"'{shown}' is not a valid {_short(tag)}; fix the value or drop the tag",
                event,
                "Y005",
            ) from err

    def _alias(self, event: AliasEvent) -> None:
        name = str(event.anchor)
        if self._expecting_key():
            raise self.fail("a key must be plain text", event, "Y004")
        if name in self.open_anchors:
            raise self.fail(
                f"alias *{name} is inside the collection it names (a loop); remove it",
                event,
                "Y003",
            )
        anchor = self.anchors.get(name)
        if anchor is None:
            raise self.fail(f"YAML syntax error: unknown alias *{name}", event, "Y004")
        self.aliases += 1
        if self.aliases > self.limits.max_aliases:
            raise self.fail(
                f"more than {self.limits.max_aliases:,} aliases; write the data out", event, "Y003"
            )
        self._count(event, anchor.nodes, anchor.chars)
        self._attach(anchor.value, event)

    def _open(self, event: MappingStartEvent | SequenceStartEvent) -> None:
        if self._expecting_key():
            raise self.fail("a key must be plain text", event, "Y004")
        is_map = isinstance(event, MappingStartEvent)
        if event.tag not in (_MAP_TAGS if is_map else _SEQ_TAGS):
            raise self.fail(f"tag {_short(event.tag)} is not supported; remove it", event, "Y006")
        if len(self.stack) >= self.limits.max_depth:
            raise self.fail(_too_deep(self.limits), event, "Y002")
        self._count(event, 1)
        path: PathKey = self._child_path() if self.stack else ()
        container: dict[str, Any] | list[Any] = {} if is_map else []
        self._attach(container, event)
        self.stack.append(_Frame(container, path, event.anchor, self.nodes - 1, self.chars))
        if event.anchor is not None:
            self.open_anchors.add(event.anchor)

    def _close(self, event: Event) -> None:
        frame = self.stack.pop()
        if frame.anchor is not None:
            self.open_anchors.discard(frame.anchor)
            self._remember(
                frame.anchor,
                frame.container,
                self.nodes - frame.nodes_before,
                self.chars - frame.chars_before,
            )
