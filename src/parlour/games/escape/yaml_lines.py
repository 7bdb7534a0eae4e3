"""YAML → plain data plus the line of every key, so errors can point at the file's line.

PyYAML's ``compose`` keeps a mark on every node; we walk the node tree ourselves instead of
``safe_load`` so that each path (``("actions", 3, "needs")``) remembers where it was
written, and so that duplicate keys (which ``safe_load`` silently merges) are caught.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import yaml
from yaml.constructor import SafeConstructor
from yaml.nodes import MappingNode, Node, ScalarNode, SequenceNode

Path = tuple[str | int, ...]


class YamlShapeError(Exception):
    """A structural YAML problem (syntax, duplicate key, non-text key) at ``line``."""

    def __init__(self, message: str, line: int) -> None:
        super().__init__(message)
        self.line = line


@dataclass
class LinedData:
    data: Any
    #: path → 1-based line of the key (for mapping entries) or the item (for list items).
    lines: dict[Path, int] = field(default_factory=dict)
    #: keys whose scalar value must be kept as written (e.g. codes like 0451, not 297).
    raw_keys: frozenset[str] = frozenset()

    def line_of(self, path: Path) -> int:
        """The line of ``path`` or of its nearest ancestor that has one."""
        for cut in range(len(path), -1, -1):
            line = self.lines.get(path[:cut])
            if line is not None:
                return line
        return 1


def compose_lined(text: str, raw_keys: frozenset[str] = frozenset()) -> LinedData:
    try:
        root = yaml.compose(text, Loader=yaml.SafeLoader)
    except yaml.MarkedYAMLError as err:
        mark = err.problem_mark or err.context_mark
        line = mark.line + 1 if mark else 1
        raise YamlShapeError(f"YAML syntax error: {err.problem or err}", line) from err
    out = LinedData(data=None, raw_keys=raw_keys)
    if root is None:
        return out
    out.lines[()] = root.start_mark.line + 1
    out.data = _walk(root, (), out, SafeConstructor(), raw=False)
    return out


def _walk(node: Node, path: Path, out: LinedData, ctor: SafeConstructor, *, raw: bool) -> Any:
    if isinstance(node, MappingNode):
        result: dict[str, Any] = {}
        for key_node, value_node in node.value:
            line = key_node.start_mark.line + 1
            if not isinstance(key_node, ScalarNode):
                raise YamlShapeError("a key must be plain text", line)
            key = str(key_node.value)
            if key in result:
                raise YamlShapeError(f"duplicate key '{key}'", line)
            out.lines[(*path, key)] = line
            result[key] = _walk(value_node, (*path, key), out, ctor, raw=key in out.raw_keys)
        return result
    if isinstance(node, SequenceNode):
        items: list[Any] = []
        for index, item in enumerate(node.value):
            out.lines[(*path, index)] = item.start_mark.line + 1
            items.append(_walk(item, (*path, index), out, ctor, raw=False))
        return items
    assert isinstance(node, ScalarNode)
    if raw and node.tag != "tag:yaml.org,2002:null":
        return str(node.value)
    return ctor.construct_object(node)
