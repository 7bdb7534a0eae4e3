"""Plug-ins found through entry points: games, model backends and agents alike.

Every registry reads its group the same way: ``NAME = "package.module:attribute"`` in a
distribution's ``[project.entry-points."GROUP"]`` table, the entry-point name being the
name people type (``parlour play NAME``, ``--model NAME:ARG``, ``--seat 3=agent:NAME``).
The lookup is cached per ``sys.path`` (a path added at run time may bring new plug-ins);
loading is lazy and one entry point at a time, so that one broken plug-in cannot break
the others, and a failure is a one-line ``ParlourError`` naming the plug-in.
"""

from __future__ import annotations

import sys
from functools import cache
from importlib.metadata import EntryPoint, entry_points

from parlour.core.errors import ParlourError


@cache
def _found(group: str, path: tuple[str, ...]) -> dict[str, EntryPoint]:
    del path  # part of the cache key only
    found: dict[str, EntryPoint] = {}
    for ep in entry_points(group=group):
        found.setdefault(ep.name, ep)  # the first distribution to claim a name keeps it
    return found


def found(group: str) -> dict[str, EntryPoint]:
    """Entry-point name → entry point for ``group``."""
    return _found(group, tuple(sys.path))


def names(group: str) -> list[str]:
    """Every name registered under ``group``, sorted."""
    return sorted(found(group))


def load(group: str, name: str, what: str) -> object | None:
    """What entry point ``name`` of ``group`` points at; None when no plug-in has that
    name. ``what`` says what it is in an error ("game", "model backend", "agent")."""
    ep = found(group).get(name)
    if ep is None:
        return None
    try:
        loaded: object = ep.load()
    except Exception as exc:  # a plug-in's own import error must not become a traceback
        raise ParlourError(
            f"{what} '{name}' ({ep.value}) failed to import: {type(exc).__name__}: {exc}; "
            "reinstall or fix that package"
        ) from exc
    return loaded
