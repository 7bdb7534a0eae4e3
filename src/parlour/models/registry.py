"""Model specs: one string that names a backend, e.g. on the command line.

Syntax::

    NAME[(KEY=VALUE,...)][:ARGUMENT]

``NAME`` picks the backend, the optional parenthesised options configure it, and everything
after the first ``:`` that follows them is its argument (which may itself contain ``:``).

=================================  ==========================================================
``local``                          the bundled SmolLM2-135M-Instruct on CPU (llama.cpp)
``local:PATH.gguf``                another GGUF file; options ``n_ctx``, ``seed``, ``threads``,
                                   ``timeout`` (seconds per call, default 60)
``openai:MODEL``                   any OpenAI-compatible endpoint (``base_url=`` or
                                   ``$OPENAI_BASE_URL``; key ``$OPENAI_API_KEY``); option
                                   ``format=json_schema|json_object|none``
``anthropic:MODEL``                Anthropic's Messages API (key ``$ANTHROPIC_API_KEY``)
``replay``                         answers from recorded calls (pass ``calls=``); option
                                   ``strict=false`` matches by order only
``chaos(rate=0.5,seed=1):INNER``   wraps the backend named by the spec ``INNER``; option
                                   ``kinds=timeout|error|empty|malformed_json|illegal_option``
``indiscreet``                     valid answers that repeat, in every free-text field, each
                                   prompt sentence holding a leak marker (no network, no
                                   weights); ``indiscreet(paraphrase=true)`` restates them
                                   in other words; option ``seed`` varies its picks
=================================  ==========================================================

Option values are parsed as int, float or ``true``/``false`` when they look like one; a
``|`` separates list items. Examples: ``chaos(rate=0.2):openai:gpt-4o-mini``,
``chaos(rate=1,kinds=timeout|error):local``, ``openai(format=json_object):llama3.1:8b``.

Third-party backends register a factory under the entry-point group ``parlour.models``
(the entry-point name is the spec ``NAME``); a factory is called as
``factory(spec: BackendSpec, context: ResolveContext) -> ModelBackend``.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from parlour.core import plugins
from parlour.core.errors import ParlourError
from parlour.models.base import ModelBackend, ModelError

ENTRY_POINT_GROUP = "parlour.models"

OptionValue = str | int | float | bool | tuple[str, ...]

_SPEC = re.compile(r"^(?P<name>[A-Za-z][\w.-]*)(?:\((?P<opts>[^()]*)\))?(?::(?P<arg>.*))?$", re.S)

SPEC_FORMS = (
    "local",
    "local:PATH.gguf",
    "openai:MODEL",
    "anthropic:MODEL",
    "replay",
    "chaos(rate=0.5):INNER_SPEC",
    "indiscreet",
    "indiscreet(paraphrase=true)",
)


@dataclass(frozen=True)
class BackendSpec:
    """A parsed spec string."""

    name: str
    options: Mapping[str, OptionValue] = field(default_factory=dict)
    arg: str | None = None
    text: str = ""

    def option(self, key: str, default: Any = None) -> Any:
        return self.options.get(key, default)


@dataclass(frozen=True)
class ResolveContext:
    """What the caller knows beyond the spec: endpoint, key, seed, recorded calls, extras."""

    base_url: str | None = None
    api_key: str | None = None
    seed: int | None = None
    calls: Sequence[Any] | None = None
    extra: Mapping[str, Any] = field(default_factory=dict)


BackendFactory = Callable[[BackendSpec, ResolveContext], ModelBackend]

_FACTORIES: dict[str, BackendFactory] = {}


def register(name: str, factory: BackendFactory, *, replace: bool = False) -> None:
    """Make ``name`` resolvable. Built-ins register on import; plugins via entry points."""
    if name in _FACTORIES and not replace:
        raise ModelError(f"a model backend named {name!r} is already registered")
    _FACTORIES[name] = factory


def registered() -> list[str]:
    """Every resolvable backend name, built-in and plugin."""
    return sorted({*_FACTORIES, *plugins.names(ENTRY_POINT_GROUP)})


def _convert(value: str) -> OptionValue:
    if "|" in value:
        return tuple(v.strip() for v in value.split("|") if v.strip())
    lowered = value.lower()
    if lowered in ("true", "yes", "on"):
        return True
    if lowered in ("false", "no", "off"):
        return False
    for kind in (int, float):
        try:
            return kind(value)
        except ValueError:
            pass
    return value


def _unknown(text: str, why: str) -> ModelError:
    return ModelError(
        f"bad model spec {text!r}: {why}; valid forms: {', '.join(SPEC_FORMS)}"
        f" (backends: {', '.join(registered())})"
    )


def parse_spec(text: str) -> BackendSpec:
    """Split ``NAME(opts):arg`` into its parts (no backend is created)."""
    match = _SPEC.match(text.strip())
    if match is None:
        raise _unknown(text, "it does not look like NAME[(KEY=VALUE,...)][:ARGUMENT]")
    options: dict[str, OptionValue] = {}
    for item in (match.group("opts") or "").split(","):
        if not item.strip():
            continue
        key, sep, value = item.partition("=")
        if not sep or not key.strip():
            raise _unknown(text, f"option {item.strip()!r} should be KEY=VALUE")
        options[key.strip()] = _convert(value.strip())
    arg = match.group("arg")
    return BackendSpec(
        name=match.group("name").lower(),
        options=options,
        arg=arg if arg else None,
        text=text,
    )


def _factory(name: str, text: str) -> BackendFactory:
    if name in _FACTORIES:
        return _FACTORIES[name]
    try:
        loaded = plugins.load(ENTRY_POINT_GROUP, name, "model backend")
    except ParlourError as err:
        raise ModelError(str(err)) from err
    if loaded is None:
        raise _unknown(text, f"unknown backend {name!r}")
    if not callable(loaded):
        value = plugins.found(ENTRY_POINT_GROUP)[name].value
        raise ModelError(f"entry point {value!r} for model backend {name!r} is not callable")
    factory: BackendFactory = loaded
    _FACTORIES[name] = factory
    return factory


def resolve(
    spec: str,
    *,
    base_url: str | None = None,
    api_key: str | None = None,
    seed: int | None = None,
    calls: Sequence[Any] | None = None,
    **extra: Any,
) -> ModelBackend:
    """Build the backend a spec names. Unknown or malformed specs raise ``ModelError``."""
    parsed = parse_spec(spec)
    context = ResolveContext(
        base_url=base_url, api_key=api_key, seed=seed, calls=calls, extra=extra
    )
    return _factory(parsed.name, spec)(parsed, context)


def resolve_parsed(parsed: BackendSpec, context: ResolveContext) -> ModelBackend:
    """Like ``resolve`` for an already parsed spec (used by wrappers such as chaos)."""
    return _factory(parsed.name, parsed.text)(parsed, context)


# -- built-ins (imports are lazy so that e.g. `replay` never loads llama.cpp) ----------------


def _int_option(spec: BackendSpec, key: str, default: int | None) -> int | None:
    value = spec.option(key, default)
    if value is not None and not isinstance(value, int):
        raise _unknown(spec.text, f"option {key} must be an integer")
    return value


def _local(spec: BackendSpec, ctx: ResolveContext) -> ModelBackend:
    from parlour.models.local import shared_local_backend

    seed = _int_option(spec, "seed", ctx.seed)
    # Shared per configuration: every seat playing `local` uses one model and one KV cache.
    return shared_local_backend(
        model_path=spec.arg,
        n_ctx=_int_option(spec, "n_ctx", 4096) or 4096,
        n_threads=_int_option(spec, "threads", None),
        seed=0 if seed is None else seed,
        timeout_s=_timeout_option(spec),
    )


def _timeout_option(spec: BackendSpec) -> float | None:
    value = spec.option("timeout")
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int | float) or value <= 0:
        raise _unknown(spec.text, "option timeout must be a number of seconds, e.g. timeout=120")
    return float(value)


def _openai(spec: BackendSpec, ctx: ResolveContext) -> ModelBackend:
    from parlour.models.openai_backend import OpenAIBackend

    if not spec.arg:
        raise _unknown(spec.text, "openai needs a model name, e.g. openai:gpt-4o-mini")
    fmt = spec.option("format")
    return OpenAIBackend(
        spec.arg,
        base_url=ctx.base_url,
        api_key=ctx.api_key,
        structured=None if fmt is None else str(fmt),
    )


def _anthropic(spec: BackendSpec, ctx: ResolveContext) -> ModelBackend:
    from parlour.models.anthropic_backend import AnthropicBackend

    if not spec.arg:
        raise _unknown(spec.text, "anthropic needs a model name, e.g. anthropic:claude-haiku-4-5")
    return AnthropicBackend(spec.arg, base_url=ctx.base_url, api_key=ctx.api_key)


def _replay(spec: BackendSpec, ctx: ResolveContext) -> ModelBackend:
    from parlour.models.replay import RecordedCall, ReplayBackend

    if ctx.calls is None:
        raise ModelError(
            "the replay backend needs recorded calls: replay a stored game "
            "(its model calls are the recording) or pass calls=[...]"
        )
    calls = [
        c if isinstance(c, RecordedCall) else RecordedCall.model_validate(c) for c in ctx.calls
    ]
    return ReplayBackend(calls, strict=bool(spec.option("strict", True)))


def _chaos(spec: BackendSpec, ctx: ResolveContext) -> ModelBackend:
    from parlour.models.chaos import KINDS, ChaosBackend

    if not spec.arg:
        raise _unknown(spec.text, "chaos needs an inner spec, e.g. chaos(rate=0.3):local")
    rate = spec.option("rate", 0.5)
    if isinstance(rate, bool) or not isinstance(rate, int | float):
        raise _unknown(spec.text, "option rate must be a number between 0 and 1")
    kinds = spec.option("kinds", KINDS)
    kinds = (kinds,) if isinstance(kinds, str) else kinds
    seed = _int_option(spec, "seed", ctx.seed)
    inner = resolve_parsed(parse_spec(spec.arg), ctx)
    return ChaosBackend(inner, rate=float(rate), seed=0 if seed is None else seed, kinds=kinds)


def _indiscreet(spec: BackendSpec, ctx: ResolveContext) -> ModelBackend:
    from parlour.models.indiscreet import IndiscreetBackend

    unknown = sorted(set(spec.options) - {"paraphrase", "seed"})
    if unknown or spec.arg:
        why = f"unknown option {unknown[0]}" if unknown else "it takes no argument"
        raise _unknown(spec.text, f"indiscreet: {why} (options: paraphrase=true, seed=N)")
    paraphrase = spec.option("paraphrase", False)
    if not isinstance(paraphrase, bool):
        raise _unknown(spec.text, "option paraphrase must be true or false")
    seed = _int_option(spec, "seed", ctx.seed)
    return IndiscreetBackend(paraphrase=paraphrase, seed=0 if seed is None else seed)


for _name, _fn in (
    ("local", _local),
    ("openai", _openai),
    ("anthropic", _anthropic),
    ("replay", _replay),
    ("chaos", _chaos),
    ("indiscreet", _indiscreet),
):
    register(_name, _fn)
