"""Clean ``--help`` screens.

Recent Typer versions print a type beside every option, flags included
(``--help <bool>``, ``--seat <list[str]>``) and wrap required arguments in braces
(``{game}``). People read those as syntax to type. This module makes the help show
what one types instead: nothing after a flag, an upper-case placeholder after an
option that takes a value (``--seed INTEGER``), and ``GAME`` in the usage line.
It only touches help rendering, and only where the installed Typer has these hooks.
"""

from __future__ import annotations

import re
from typing import Any

import typer.core

#: Typer's ``<type>`` labels → the placeholders click has always used.
_PLACEHOLDERS = {"str": "TEXT", "int": "INTEGER", "float": "NUMBER", "path": "PATH"}
_LABEL = re.compile(r"^<(?P<label>.+)>(?P<more>\.\.\.)?$")
#: Set on the installed hook, so that a second ``install()`` does not wrap it again.
_INSTALLED = "_parlour_clean_help"


def placeholder(label: str | None) -> str | None:
    """``<int>`` → ``INTEGER``, ``<list[str]>`` → ``TEXT`` (repeatable options say so in
    their help), anything else upper-cased without the angle brackets."""
    if label is None:
        return None
    found = _LABEL.match(label)
    if found is None:
        return label
    inner = found.group("label")
    listed = re.fullmatch(r"list\[(.+)\]", inner)
    if listed:
        inner = listed.group(1)
    return _PLACEHOLDERS.get(inner, inner.upper())


def install() -> None:
    option_cls: Any = getattr(typer.core, "TyperOption", None)
    argument_cls: Any = getattr(typer.core, "TyperArgument", None)
    if option_cls is not None and hasattr(option_cls, "display_type_rich"):
        original_option = option_cls.display_type_rich
        if getattr(original_option, _INSTALLED, False):
            return  # installed already (the command's module imported again)

        def option_type(self: Any, ctx: Any) -> str | None:
            if getattr(self, "is_flag", False) or getattr(self, "count", False):
                return None
            return placeholder(original_option(self, ctx))

        setattr(option_type, _INSTALLED, True)
        option_cls.display_type_rich = option_type
    if argument_cls is not None and hasattr(argument_cls, "_usage_display_name"):

        def usage_name(self: Any) -> str:
            name = str(self.metavar or self.name or "").upper()
            name = name if self.required else f"[{name}]"
            return name + ("..." if self.nargs != 1 else "")

        def argument_type(self: Any, ctx: Any) -> str | None:
            return None  # the upper-case name already says what to type

        argument_cls._usage_display_name = usage_name
        argument_cls.display_type_rich = argument_type
