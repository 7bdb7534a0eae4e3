"""Agent specs → the Python callable that plays a seat.

Three spellings, each one seat spec:

* ``python:MODULE:CALLABLE``: ``CALLABLE`` (a dotted attribute path) of an importable
  module, e.g. ``python:mypkg.agents:cautious``;
* ``python:PATH.py:CALLABLE``: the same from a Python file, loaded once per process;
* ``agent:NAME``: an agent registered by name, in this process (``register``) or by a
  distribution under the entry-point group ``parlour.agents`` (``NAME = "pkg.mod:fn"``),
  read like games (``parlour.games``) and model backends (``parlour.models``).

An agent is called as ``agent(view, decision)`` (sync or async). A class is instantiated
once per seat, without arguments, so an agent may keep per-seat state on ``self``.
Every failure to find an agent is a one-line ``ParlourError`` naming the fix.
"""

from __future__ import annotations

import hashlib
import importlib
import importlib.util
import inspect
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

from parlour.core import plugins
from parlour.core.errors import ParlourError

ENTRY_POINT_GROUP = "parlour.agents"
PREFIXES = ("python:", "agent:")

#: ``agent(view, decision)`` returning (or awaiting to) an answer.
Agent = Callable[..., Any]

_LOCAL: dict[str, Agent] = {}
_FILES: dict[Path, Any] = {}


def is_agent_spec(text: str) -> bool:
    return text.strip().startswith(PREFIXES)


def register(name: str, agent: Agent, *, replace: bool = False) -> None:
    """Make ``agent:NAME`` play ``agent`` in this process (as ``models.registry.register``
    does for backends). Entry points under ``parlour.agents`` need no call."""
    if not name or not all(c.isalnum() or c in "_.-" for c in name):
        raise ParlourError(f"bad agent name {name!r}; use letters, digits, '_', '.', '-'")
    if not callable(agent):
        raise ParlourError(f"agent {name!r} is not callable; register a function or a class")
    if name in _LOCAL and _LOCAL[name] is not agent and not replace:
        raise ParlourError(f"an agent named {name!r} is already registered; pick another name")
    _LOCAL[name] = agent


def registered() -> list[str]:
    """Every ``agent:NAME`` name, registered here or by entry point."""
    return sorted({*_LOCAL, *plugins.names(ENTRY_POINT_GROUP)})


def load(text: str) -> Agent:
    """The callable (or class) a spec names; a one-line ``ParlourError`` when it cannot."""
    text = text.strip()
    if text.startswith("agent:"):
        return _named(text, text.removeprefix("agent:"))
    if not text.startswith("python:"):
        raise ParlourError(f"bad agent spec '{text}'; write python:MODULE:CALLABLE or agent:NAME")
    target, sep, attr = text.removeprefix("python:").rpartition(":")
    if not sep or not target or not attr:
        raise ParlourError(
            f"bad seat spec '{text}': write python:MODULE:CALLABLE, "
            "e.g. python:mypkg.agents:cautious"
        )
    is_file = target.endswith(".py")
    module = _file(text, Path(target)) if is_file else _module(text, target)
    found: Any = module
    for part in attr.split("."):
        if not hasattr(found, part):
            where = target if is_file else f"module {target}"
            raise ParlourError(f"bad seat spec '{text}': {where} has no attribute '{attr}'")
        found = getattr(found, part)
    return _callable(text, found)


def for_seat(agent: Agent) -> Agent:
    """What one seat calls: a class becomes a fresh instance, anything else is itself."""
    if not inspect.isclass(agent):
        return agent
    try:
        instance = agent()
    except Exception as err:
        raise ParlourError(
            f"agent class {agent.__qualname__} cannot be made without arguments "
            f"({type(err).__name__}: {err}); give __init__ defaults for every parameter"
        ) from err
    return _callable(f"{agent.__module__}:{agent.__qualname__}", instance)


def _named(text: str, name: str) -> Agent:
    if name in _LOCAL:
        return _LOCAL[name]
    loaded = plugins.load(ENTRY_POINT_GROUP, name, "agent")
    if loaded is None:
        known = ", ".join(registered()) or "none registered"
        raise ParlourError(
            f"bad seat spec '{text}': no agent named '{name}' (agents: {known}); register it "
            f'under [project.entry-points."parlour.agents"] or use python:MODULE:CALLABLE'
        )
    return _callable(text, loaded)


def _module(text: str, name: str) -> Any:
    try:
        return importlib.import_module(name)
    except ModuleNotFoundError as err:
        if err.name and name.startswith(err.name):
            raise ParlourError(
                f"bad seat spec '{text}': no module named '{name}'; "
                "install it or put its folder on PYTHONPATH"
            ) from None
        raise _failed(text, name, err) from err
    except Exception as err:  # the user's module itself raised while importing
        raise _failed(text, name, err) from err


def _file(text: str, path: Path) -> Any:
    path = path.expanduser().resolve()
    if path in _FILES:
        return _FILES[path]
    if not path.is_file():
        raise ParlourError(f"bad seat spec '{text}': no file {path}; give an existing .py file")
    # A name of its own per file, so two agent files called agents.py do not collide.
    name = "parlour_agent_" + hashlib.sha256(str(path).encode()).hexdigest()[:12]
    spec = importlib.util.spec_from_file_location(name, path)
    if spec is None or spec.loader is None:
        raise ParlourError(f"bad seat spec '{text}': {path} cannot be loaded as Python")
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module  # dataclasses and pickling look modules up by name
    try:
        spec.loader.exec_module(module)
    except Exception as err:
        del sys.modules[name]
        raise _failed(text, str(path), err) from err
    _FILES[path] = module
    return module


def _failed(text: str, where: str, err: BaseException) -> ParlourError:
    return ParlourError(
        f"bad seat spec '{text}': importing {where} failed ({type(err).__name__}: {err}); "
        "fix that module"
    )


def _callable(text: str, found: object) -> Agent:
    if not callable(found):
        raise ParlourError(
            f"bad seat spec '{text}': it names a {type(found).__name__}, not a callable; "
            "name a function taking (view, decision), or a class whose instances are such"
        )
    return found
