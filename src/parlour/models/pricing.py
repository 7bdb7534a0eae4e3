"""What a call cost, in USD, from its token usage.

Prices are USD per million tokens. Ids match exactly, then by the longest known prefix
(so ``gpt-4o-mini-2024-07-18`` is priced as ``gpt-4o-mini``); a provider prefix such as
``openai:`` is ignored. Local, replayed and scripted answers are free, and so are unknown
models (a self-hosted server's name says nothing about its price): ``price_of`` tells them
apart. Built-in prices are list prices as published in 2025; override them with
``PriceTable.load(path)`` (JSON or YAML: ``{model_id: {input:, output:, cached_input:}}``)
or ``DEFAULT_PRICES.with_overrides({...})``.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import yaml

from parlour.models.base import ModelError
from parlour.models.messages import Usage

_FREE_PREFIXES = ("local", "replay", "scripted", "random", "chaos", "smollm")


@dataclass(frozen=True)
class Price:
    """USD per million tokens. ``cached_input``: cache reads; ``cache_write``: cache writes."""

    input: float
    output: float
    cached_input: float | None = None
    cache_write: float | None = None

    def cost(self, usage: Usage) -> float:
        cached = usage.cached_input_tokens
        written = usage.cache_write_input_tokens
        plain = max(0, usage.input_tokens - cached - written)
        total = (
            plain * self.input
            + cached * (self.input if self.cached_input is None else self.cached_input)
            + written * (self.input if self.cache_write is None else self.cache_write)
            + usage.output_tokens * self.output
        )
        return total / 1_000_000


FREE = Price(0.0, 0.0, 0.0, 0.0)

_BUILTIN: dict[str, Price] = {
    # OpenAI
    "gpt-4o": Price(2.50, 10.00, 1.25),
    "gpt-4o-mini": Price(0.15, 0.60, 0.075),
    "gpt-4.1": Price(2.00, 8.00, 0.50),
    "gpt-4.1-mini": Price(0.40, 1.60, 0.10),
    "gpt-4.1-nano": Price(0.10, 0.40, 0.025),
    "gpt-5": Price(1.25, 10.00, 0.125),
    "gpt-5-mini": Price(0.25, 2.00, 0.025),
    "gpt-5-nano": Price(0.05, 0.40, 0.005),
    "o3-mini": Price(1.10, 4.40, 0.55),
    "o4-mini": Price(1.10, 4.40, 0.275),
    # Anthropic (cache writes at 1.25x input, reads at 0.1x)
    "claude-3-haiku": Price(0.25, 1.25, 0.03, 0.30),
    "claude-3-5-haiku": Price(0.80, 4.00, 0.08, 1.00),
    "claude-haiku-4-5": Price(1.00, 5.00, 0.10, 1.25),
    "claude-3-5-sonnet": Price(3.00, 15.00, 0.30, 3.75),
    "claude-3-7-sonnet": Price(3.00, 15.00, 0.30, 3.75),
    "claude-sonnet-4": Price(3.00, 15.00, 0.30, 3.75),
    "claude-3-opus": Price(15.00, 75.00, 1.50, 18.75),
    "claude-opus-4": Price(15.00, 75.00, 1.50, 18.75),
    "claude-opus-4-5": Price(5.00, 25.00, 0.50, 6.25),
}


def _price_from(value: Any, model_id: str) -> Price:
    if isinstance(value, Price):
        return value
    if not isinstance(value, Mapping) or "input" not in value or "output" not in value:
        raise ModelError(
            f"price for {model_id!r} needs at least 'input' and 'output' (USD per million tokens)"
        )
    try:
        return Price(
            input=float(value["input"]),
            output=float(value["output"]),
            cached_input=None
            if value.get("cached_input") is None
            else float(value["cached_input"]),
            cache_write=None if value.get("cache_write") is None else float(value["cache_write"]),
        )
    except (TypeError, ValueError) as e:
        raise ModelError(f"price for {model_id!r} must be numbers: {e}") from e


def _bare(model_id: str) -> str:
    # "openai:gpt-4o" -> "gpt-4o"; "anthropic/claude-3-5-haiku" (OpenRouter) -> "claude-3-5-haiku"
    for sep in (":", "/"):
        if sep in model_id:
            model_id = model_id.split(sep, 1)[1] if sep == ":" else model_id.rsplit(sep, 1)[1]
    return model_id.lower()


class PriceTable:
    """A lookup from model id to ``Price``."""

    def __init__(self, prices: Mapping[str, Price | Mapping[str, Any]]) -> None:
        self._prices = {k.lower(): _price_from(v, k) for k, v in prices.items()}

    def with_overrides(self, prices: Mapping[str, Price | Mapping[str, Any]]) -> PriceTable:
        return PriceTable({**self._prices, **prices})

    @classmethod
    def load(cls, path: str | Path, base: PriceTable | None = None) -> PriceTable:
        """The built-in table (or ``base``) overridden by a JSON or YAML file."""
        file = Path(path)
        try:
            text = file.read_text(encoding="utf-8")
            data = json.loads(text) if file.suffix == ".json" else yaml.safe_load(text)
        except (OSError, ValueError, yaml.YAMLError) as e:
            raise ModelError(f"cannot read price file {file}: {e}") from e
        if not isinstance(data, Mapping):
            raise ModelError(f"price file {file} must map model ids to prices")
        return (base or DEFAULT_PRICES).with_overrides(data)

    def price_of(self, model_id: str) -> Price | None:
        """The price for ``model_id``; ``FREE`` for local/replay/scripted; ``None`` if unknown."""
        lowered = model_id.lower()
        if lowered.startswith(_FREE_PREFIXES):
            return FREE
        for key in (lowered, _bare(lowered)):
            if key in self._prices:
                return self._prices[key]
        bare = _bare(lowered)
        matches = [k for k in self._prices if bare.startswith(k)]
        return self._prices[max(matches, key=len)] if matches else None

    def cost(self, model_id: str, usage: Usage) -> float:
        price = self.price_of(model_id)
        return 0.0 if price is None else price.cost(usage)


DEFAULT_PRICES = PriceTable(_BUILTIN)


def cost(model_id: str, usage: Usage, table: PriceTable | None = None) -> float:
    """USD for one call (0.0 for free and unknown models)."""
    return (table or DEFAULT_PRICES).cost(model_id, usage)
