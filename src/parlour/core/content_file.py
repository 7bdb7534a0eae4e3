"""What every game's YAML content loader does the same way (escape scenarios, missing towns,
campaigns): find a shipped file by name or take a path, read it through ``core.safe_yaml``,
turn ``YamlError`` into the game's own error, name the closest allowed key for an unknown one,
and pick the validation problem that stands first in the file.

Each game keeps its own error type and wording; it hands in a ``ContentError`` factory so the
messages stay the game's (tests pin them byte for byte).
"""

from __future__ import annotations

import difflib
import types
import typing
from dataclasses import dataclass
from pathlib import Path
from typing import Annotated, Any, Generic, Protocol, TypeVar

from pydantic import BaseModel, ConfigDict, Field, ValidationError
from pydantic_core import ErrorDetails

from parlour.core.errors import ParlourError
from parlour.core.safe_yaml import LinedData, PathKey, YamlError, load_lined, read_text


class ContentFileError(ParlourError):
    """A content file that cannot be used: the message says where and what; ``file``,
    ``line`` and (for games that number their problems) ``code`` say it to a program."""

    def __init__(self, message: str, *, file: str = "", line: int = 0, code: str = "") -> None:
        super().__init__(message)
        self.file = file
        self.line = line
        self.code = code


class FrozenContent(BaseModel):
    """A part of a content file: immutable once loaded, and a key the format lacks is an
    error rather than silently dropped."""

    model_config = ConfigDict(frozen=True, extra="forbid")


#: A text a content file must give and must not leave empty (names, descriptions, ids).
NonEmpty = Annotated[str, Field(min_length=1)]


class ContentError(Protocol):
    """Builds a game's error; games whose error has no code ignore ``code``."""

    def __call__(
        self, message: str, *, file: str, line: int = 0, code: str = ""
    ) -> ParlourError: ...


@dataclass(frozen=True)
class ShippedContent:
    """A folder of shipped ``<name>.yaml`` files of one kind (``noun``/``plural`` name it)."""

    folder: Path
    noun: str
    plural: str
    #: Files beside the content that are not content themselves (labels, checks, ...).
    skip_suffixes: tuple[str, ...] = ()

    def names(self) -> list[str]:
        return sorted(
            p.name.removesuffix(".yaml")
            for p in self.folder.glob("*.yaml")
            if not (self.skip_suffixes and p.name.endswith(self.skip_suffixes))
        )

    def path(self, name_or_path: str | Path, error: ContentError) -> Path:
        """A path to an existing file, or a shipped file's name; else one line listing them."""
        path = Path(name_or_path)
        if path.is_file():
            return path
        shipped = self.folder / f"{name_or_path}.yaml"
        if isinstance(name_or_path, str) and "/" not in name_or_path and shipped.is_file():
            return shipped
        raise error(
            f"no {self.noun} '{name_or_path}': give a path to a .yaml file or one of the shipped "
            f"{self.plural}: {', '.join(self.names())}",
            file=str(name_or_path),
        )

    def read(self, name_or_path: str | Path, error: ContentError) -> tuple[str, str, str]:
        """``(text, file, source)``: the text, the path read, and what the user named."""
        path = self.path(name_or_path, error)
        try:
            text = read_text(path)
        except YamlError as err:
            raise error(str(err), file=str(path), line=err.line, code=err.code) from err
        source = str(name_or_path) if not Path(name_or_path).is_file() else str(path)
        return text, str(path), source


T_co = TypeVar("T_co", covariant=True)
T = TypeVar("T")


class ContentParser(Protocol[T_co]):
    """A game's parser: the text of one file, the path read and what the user named."""

    def __call__(self, text: str, *, file: str, source: str) -> T_co: ...


@dataclass(frozen=True)
class ContentLoader(Generic[T]):
    """One kind of shipped content with the game's error and parser bound to it, so a game's
    loader module hands out ``names``, ``path`` and ``load`` without writing them again."""

    shipped: ShippedContent
    error: ContentError
    parse: ContentParser[T]

    def names(self) -> list[str]:
        return self.shipped.names()

    def path(self, name_or_path: str | Path) -> Path:
        """A path to an existing file, or a shipped file's name."""
        return self.shipped.path(name_or_path, self.error)

    def load(self, name_or_path: str | Path) -> T:
        text, file, source = self.shipped.read(name_or_path, self.error)
        return self.parse(text, file=file, source=source)


def lined_or_error(
    text: str, file: str, error: ContentError, raw_keys: frozenset[str] = frozenset()
) -> LinedData:
    """``safe_yaml.load_lined`` with its ``YamlError`` turned into the game's error."""
    try:
        return load_lined(text, file=file, raw_keys=raw_keys)
    except YamlError as err:
        raise error(str(err), file=file, line=err.line, code=err.code) from err


def closest_hint(key: str, allowed: tuple[str, ...]) -> str:
    """``did you mean 'x'?`` for a near miss, else the allowed keys."""
    close = difflib.get_close_matches(key, allowed, n=1, cutoff=0.6)
    return f"did you mean '{close[0]}'?" if close else f"allowed: {', '.join(allowed)}"


@dataclass(frozen=True)
class UnknownKey:
    path: PathKey  # the mapping holding the key
    key: str
    hint: str  # closest_hint's words


def model_of(annotation: Any) -> type[BaseModel] | None:
    """The model inside ``Model``, ``tuple[Model, ...]``, ``Model | None``, if any."""
    if isinstance(annotation, type) and issubclass(annotation, BaseModel):
        return annotation
    origin = typing.get_origin(annotation)
    if origin in (tuple, list, typing.Union, types.UnionType):
        for arg in typing.get_args(annotation):
            found = model_of(arg)
            if found is not None:
                return found
    return None


def first_unknown_key(
    data: Any, model: type[BaseModel], path: PathKey = (), skip: frozenset[str] = frozenset()
) -> UnknownKey | None:
    """The first key (in file order, depth first) that ``model`` and its inner models lack."""
    if not isinstance(data, dict):
        return None
    allowed = tuple(k for k in model.model_fields if k not in skip)
    for key, value in data.items():
        if key not in allowed:
            return UnknownKey(path, key, closest_hint(key, allowed))
        inner = model_of(model.model_fields[key].annotation)
        if inner is None:
            continue
        items = enumerate(value) if isinstance(value, list) else [(None, value)]
        for n, item in items:
            found = first_unknown_key(
                item, inner, (*path, key) if n is None else (*path, key, n), skip
            )
            if found is not None:
                return found
    return None


@dataclass(frozen=True)
class FirstProblem:
    error: ErrorDetails
    path: PathKey
    more: str  # `` (also: line 3: 'actions' is missing)`` or empty


#: The other problems named after the first, at most (the rest are counted).
MORE_NAMED = 3


def first_problem(err: ValidationError, lined: LinedData) -> FirstProblem:
    """The validation problem that stands earliest in the file, and the others in brief
    (a designer fixing the first should not have to run again to learn of the second)."""
    errors = sorted(err.errors(), key=lambda e: lined.line_of(tuple(e["loc"])))
    first, others = errors[0], errors[1:]
    named = [_brief(e, lined) for e in others[:MORE_NAMED]]
    if len(others) > MORE_NAMED:
        named.append(f"{len(others) - MORE_NAMED} more")
    more = f" (also: {'; '.join(named)})" if named else ""
    return FirstProblem(first, tuple(first["loc"]), more)


#: What a wrongly typed value must be, in a designer's words (by pydantic error type).
TYPE_WORDS = {
    "string_type": "must be text (quote it if it looks like a number, a date or yes/no)",
    "int_type": "must be a whole number",
    "bool_type": "must be true or false",
    "tuple_type": "must be a list, e.g. [a, b]",
    "list_type": "must be a list, e.g. [a, b]",
    "string_too_short": "must not be empty",
    "model_type": "must be a mapping of keys",
    "dict_type": "must be a mapping of keys",
}


def must_be(error: ErrorDetails) -> str:
    """``TYPE_WORDS`` for the error's type, else pydantic's own message."""
    return TYPE_WORDS.get(error["type"], error["msg"])


def _brief(error: ErrorDetails, lined: LinedData) -> str:
    path = tuple(error["loc"])
    key = ".".join(str(p) for p in path) or "the file"
    what = "is missing" if error["type"] == "missing" else str(error["msg"]).lower()
    line = lined.line_of(path[:-1] if error["type"] == "missing" else path)
    return f"line {line}: '{key}' {what}"
