"""Costs from usage: known prices, free backends, overrides."""

from __future__ import annotations

from pathlib import Path

import pytest

from parlour.models import DEFAULT_PRICES, ModelError, PriceTable, Usage, cost
from parlour.models.pricing import FREE

MILLION = Usage(input_tokens=1_000_000, output_tokens=1_000_000)


def test_known_models_and_prefixes() -> None:
    assert cost("openai:gpt-4o-mini", MILLION) == pytest.approx(0.15 + 0.60)
    # Dated ids take the longest known prefix (gpt-4o-mini, not gpt-4o).
    assert cost("gpt-4o-mini-2024-07-18", MILLION) == pytest.approx(0.75)
    assert cost("gpt-4o-2024-08-06", MILLION) == pytest.approx(12.50)
    # OpenRouter-style names.
    assert cost("openai:anthropic/claude-3-5-haiku", MILLION) == pytest.approx(4.80)


def test_cached_and_cache_write_tokens() -> None:
    usage = Usage(input_tokens=1_000_000, cached_input_tokens=800_000, output_tokens=0)
    assert cost("gpt-4o", usage) == pytest.approx(0.2 * 2.50 + 0.8 * 1.25)
    claude = Usage(
        input_tokens=1_000_000, cached_input_tokens=500_000, cache_write_input_tokens=500_000
    )
    assert cost("anthropic:claude-sonnet-4", claude) == pytest.approx(0.5 * 0.30 + 0.5 * 3.75)


def test_local_replay_and_unknown_are_free() -> None:
    for model in ("local:SmolLM2-135M-Instruct.Q4_1", "replay", "scripted", "chaos:openai:gpt-4o"):
        assert cost(model, MILLION) == 0.0
        assert DEFAULT_PRICES.price_of(model) == FREE
    assert DEFAULT_PRICES.price_of("openai:my-own-llama") is None
    assert cost("openai:my-own-llama", MILLION) == 0.0


def test_overrides_from_dict_and_file(tmp_path: Path) -> None:
    table = DEFAULT_PRICES.with_overrides({"my-llama": {"input": 1, "output": 2}})
    assert table.cost("openai:my-llama", MILLION) == pytest.approx(3.0)
    assert table.cost("gpt-4o-mini", MILLION) == pytest.approx(0.75)
    path = tmp_path / "prices.yaml"
    path.write_text("gpt-4o-mini:\n  input: 10\n  output: 20\n  cached_input: 1\n")
    loaded = PriceTable.load(path)
    assert cost("gpt-4o-mini", MILLION, loaded) == pytest.approx(30.0)
    bad = tmp_path / "bad.json"
    bad.write_text('{"m": {"input": 1}}')
    with pytest.raises(ModelError, match="'input' and 'output'"):
        PriceTable.load(bad)
    with pytest.raises(ModelError, match="cannot read price file"):
        PriceTable.load(tmp_path / "missing.yaml")
