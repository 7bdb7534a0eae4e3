"""Model specs: parsing, built-in backends, plugins through entry points."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import pytest

from parlour.models import ChaosBackend, ModelError, parse_spec, registered, resolve
from parlour.models.local import LocalBackend
from parlour.models.openai_backend import OpenAIBackend
from parlour.models.registry import BackendSpec, ResolveContext


def test_parse_forms() -> None:
    assert parse_spec("local") == BackendSpec("local", {}, None, "local")
    assert parse_spec("local:/models/x.gguf").arg == "/models/x.gguf"
    # Only the first colon after the name splits: model names may contain colons.
    spec = parse_spec("openai(format=json_object):llama3.1:8b")
    assert (spec.name, spec.arg, dict(spec.options)) == (
        "openai",
        "llama3.1:8b",
        {"format": "json_object"},
    )
    chaos = parse_spec(
        "chaos(rate=0.5,seed=3,kinds=timeout|error,strict=false):chaos(rate=1):local"
    )
    assert dict(chaos.options) == {
        "rate": 0.5,
        "seed": 3,
        "kinds": ("timeout", "error"),
        "strict": False,
    }
    assert chaos.arg == "chaos(rate=1):local"


@pytest.mark.parametrize(
    ("spec", "why"),
    [
        ("", "does not look like"),
        ("gpt4", "unknown backend 'gpt4'"),
        ("chaos(rate):local", "KEY=VALUE"),
        ("chaos", "needs an inner spec"),
        ("openai", "needs a model name"),
        ("chaos(rate=x):local", "rate must be a number"),
        ("local(n_ctx=big)", "n_ctx must be an integer"),
    ],
)
def test_bad_specs_name_the_valid_forms(spec: str, why: str) -> None:
    with pytest.raises(ModelError) as info:
        resolve(spec)
    assert why in str(info.value)
    assert "local:PATH.gguf" in str(info.value) and "chaos(rate=0.5):INNER_SPEC" in str(info.value)


def test_builtins_resolve(monkeypatch: pytest.MonkeyPatch) -> None:
    local = resolve("local(n_ctx=1024,seed=9)")
    assert isinstance(local, LocalBackend) and (local.n_ctx, local.seed) == (1024, 9)
    assert resolve("local(n_ctx=1024,seed=9)") is local  # seats share one model and cache
    monkeypatch.setenv("OPENAI_API_KEY", "sk-test")
    remote = resolve("openai(format=none):gpt-4o-mini", base_url="http://127.0.0.1:1/v1")
    assert isinstance(remote, OpenAIBackend) and remote.structured == "none"
    wrapped = resolve("chaos(rate=0.1):openai:gpt-4o-mini", seed=5)
    assert (
        isinstance(wrapped, ChaosBackend)
        and wrapped.seed == 5
        and wrapped.inner.model_id == "openai:gpt-4o-mini"
    )
    assert {"local", "openai", "anthropic", "replay", "chaos"} <= set(registered())


def echo_factory(spec: BackendSpec, context: ResolveContext) -> Any:
    """A third-party factory: returns a replay backend named after the spec's argument."""
    from parlour.models import ReplayBackend

    backend = ReplayBackend([])
    backend.name = f"echo:{spec.arg}"
    return backend


def test_entry_point_plugins_are_found(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    dist = tmp_path / "parlour_echo-0.1.dist-info"
    dist.mkdir()
    (dist / "METADATA").write_text("Metadata-Version: 2.1\nName: parlour-echo\nVersion: 0.1\n")
    (dist / "entry_points.txt").write_text(
        "[parlour.models]\necho = tests.models.test_registry:echo_factory\n"
    )
    monkeypatch.setattr(sys, "path", [str(tmp_path), *sys.path])
    assert "echo" in registered()
    backend = resolve("echo:hello")
    assert backend.name == "echo:hello"
