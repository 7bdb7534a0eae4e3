"""The local backend on the real bundled SmolLM2 model (short prompts, few tokens)."""

from __future__ import annotations

from pathlib import Path
from types import SimpleNamespace

import numpy as np
import pytest

from parlour.models import (
    Message,
    ModelError,
    ModelRequest,
    ModelTimeout,
    ModelUnavailable,
    OutputSpec,
    Settings,
)
from parlour.models.kv_cache import common_prefix
from parlour.models.local import LocalBackend, _renderer, render_chatml, shared_local_backend
from parlour.models.registry import resolve

IDS = ("alice", "bob", "carol")
RULES = "You play a village game. Each day the village votes to exile one player."


def ask(content: str, system: str = RULES) -> tuple[Message, ...]:
    return (
        Message(role="system", content=system, cache_boundary=True),
        Message(role="user", content=content),
    )


def lcp(backend: LocalBackend, a: tuple[Message, ...], b: tuple[Message, ...]) -> int:
    ta = np.asarray(backend.tokenize(a), dtype=np.int32)
    tb = np.asarray(backend.tokenize(b), dtype=np.int32)
    return common_prefix(ta, tb)


async def test_choice_is_always_a_legal_id(local: LocalBackend) -> None:
    for seed in range(3):
        response = await local.complete(
            ModelRequest(
                messages=ask("Who do you vote to exile: alice, bob or carol?"),
                output=OutputSpec.choice(IDS),
                settings=Settings(temperature=1.0, max_tokens=48, seed=seed),
            )
        )
        assert response.parse_error is None, response.text
        assert response.parsed["choice"] in IDS
        assert response.model_id == "local:SmolLM2-135M-Instruct.Q4_1"
        assert response.usage.output_tokens <= 48


async def test_structured_answer_matches_the_schema(local: LocalBackend) -> None:
    schema = {
        "type": "object",
        "properties": {
            "suspect": {"type": "string", "enum": list(IDS)},
            "trust": {"type": "integer"},
        },
        "required": ["suspect", "trust"],
        "additionalProperties": False,
    }
    response = await local.complete(
        ModelRequest(
            messages=ask("Name your suspect and how much you trust them (0-10)."),
            output=OutputSpec.json_schema(schema),
            settings=Settings(temperature=0.5, max_tokens=40),
        )
    )
    assert response.parse_error is None, response.text
    assert response.parsed["suspect"] in IDS
    assert isinstance(response.parsed["trust"], int)


async def test_free_text_is_bounded(local: LocalBackend) -> None:
    response = await local.complete(
        ModelRequest(
            messages=ask("Say something to the village."),
            output=OutputSpec.text(max_chars=60),
            settings=Settings(temperature=0.7, max_tokens=24),
        )
    )
    assert response.parse_error is None
    assert response.parsed == response.text
    assert len(response.text) <= 60
    assert 0 < response.usage.output_tokens <= 24
    if response.raw["stop"] != "stop":  # cut by a limit: trimmed to a finished sentence
        assert response.text.endswith((".", "!", "?", "…")), response.raw
    assert response.usage.input_tokens == len(local.tokenize(ask("Say something to the village.")))


async def test_alternating_seats_reuse_their_own_prefix(gguf: Path) -> None:
    backend = LocalBackend(gguf, n_ctx=2048, seed=5)
    day = " ".join(f"Day {d}: the village argued and exiled someone." for d in range(1, 9))
    a1 = ask(f"{day} You are alice. Who do you suspect?", f"{RULES} You are seat A.")
    b1 = ask(f"{day} You are bob. Who do you suspect?", f"{RULES} You are seat B, the baker.")
    a2 = (*a1, Message(role="user", content="Carol accuses you. Reply."))
    b2 = (*b1, Message(role="user", content="Alice accuses you. Reply."))
    settings = Settings(temperature=0.0, max_tokens=24)

    async def call(messages: tuple[Message, ...], key: str) -> tuple[int, str]:
        r = await backend.complete(
            ModelRequest(
                messages=messages, output=OutputSpec.choice(IDS), settings=settings, cache_key=key
            )
        )
        return r.usage.cached_input_tokens, str(r.raw["kv_source"])

    assert (await call(a1, "g:A"))[0] == 0  # nothing cached yet: cold
    cached_b1, _ = await call(b1, "g:B")
    assert cached_b1 == lcp(backend, a1, b1)  # only the shared chat header / rules words

    cached_a2, source_a2 = await call(a2, "g:A")
    cached_b2, source_b2 = await call(b2, "g:B")
    assert cached_a2 == lcp(backend, a1, a2) > len(backend.tokenize(a1)) - 5
    assert cached_b2 == lcp(backend, b1, b2) > len(backend.tokenize(b1)) - 5
    assert source_a2 == "snapshot:g:A"
    assert source_b2 == "snapshot:g:B"
    stats = backend.cache_stats()
    assert stats.entries == 4 and stats.bytes > 0


async def test_cache_off_is_always_cold(gguf: Path) -> None:
    backend = LocalBackend(gguf, n_ctx=1024, kv_cache=False)
    request = ModelRequest(
        messages=ask("Vote."),
        output=OutputSpec.choice(IDS),
        settings=Settings(max_tokens=8),
        cache_key="k",
    )
    for _ in range(2):
        response = await backend.complete(request)
        assert response.usage.cached_input_tokens == 0
    assert backend.cache_stats().entries == 0
    assert not backend.capabilities.prompt_cache


async def test_fixed_seed_is_reproducible(gguf: Path) -> None:
    request = ModelRequest(
        messages=ask("Tell the village a short rumour."),
        settings=Settings(temperature=1.0, max_tokens=16, seed=42),
    )
    texts = [(await LocalBackend(gguf, n_ctx=512).complete(request)).text for _ in range(2)]
    assert texts[0] == texts[1]


async def test_prompt_longer_than_the_context_is_a_clear_error(gguf: Path) -> None:
    backend = LocalBackend(gguf, n_ctx=256)
    with pytest.raises(ModelError, match="raise n_ctx"):
        await backend.complete(ModelRequest(messages=ask("word " * 400)))


async def test_timeout_is_enforced_inside_the_worker(local: LocalBackend) -> None:
    # The message names an option a user can pass on the command line.
    with pytest.raises(ModelTimeout, match=r"--model 'local\(timeout=120\)'"):
        await local.complete(
            ModelRequest(
                messages=ask("Tell me a long story. " * 10),
                settings=Settings(max_tokens=200, timeout_s=0.01),
                cache_key="timeout",
            )
        )
    # The model is still usable afterwards.
    ok = await local.complete(ModelRequest(messages=ask("Vote."), output=OutputSpec.choice(IDS)))
    assert ok.parsed is not None


async def test_the_timeout_spec_option_overrides_the_callers_limit(local: LocalBackend) -> None:
    strict = resolve("local(timeout=0.01)")
    assert isinstance(strict, LocalBackend) and strict.timeout_s == 0.01
    request = ModelRequest(
        messages=ask("Tell me a long story. " * 10),
        settings=Settings(max_tokens=200, timeout_s=60),
        cache_key="timeout-option",
    )
    with pytest.raises(ModelTimeout, match=r"within 0\.01s"):
        await strict.complete(request)
    assert resolve("local").timeout_s is None  # the shared default is untouched
    with pytest.raises(ModelError, match="option timeout must be a number of seconds"):
        resolve("local(timeout=soon)")


async def test_missing_model_file_names_the_fix(tmp_path: Path) -> None:
    backend = LocalBackend(tmp_path / "nope.gguf")
    with pytest.raises(ModelUnavailable, match=r"nope\.gguf"):
        await backend.check()
    with pytest.raises(ModelUnavailable, match=r"nope\.gguf"):
        await backend.complete(ModelRequest(messages=ask("hi")))


def test_chatml_rendering() -> None:
    text = render_chatml((Message(role="system", content="S"), Message(role="user", content="U")))
    assert (
        text
        == "<|im_start|>system\nS<|im_end|>\n<|im_start|>user\nU<|im_end|>\n<|im_start|>assistant\n"
    )


def test_seeds_share_one_model_and_cache() -> None:
    a = shared_local_backend(n_ctx=640, seed=1)
    b = shared_local_backend(n_ctx=640, seed=2)
    assert (a.seed, b.seed) == (1, 2)
    assert a.cache is b.cache and shared_local_backend(n_ctx=640, seed=1) is a


def test_other_gguf_chat_templates_are_used() -> None:
    """A GGUF with a non-ChatML template is rendered with its own (Jinja) template."""
    template = (
        "{{ bos_token }}{% for m in messages %}[{{ m['role'] }}] {{ m['content'] }}\n{% endfor %}"
        "{% if add_generation_prompt %}[assistant] {% endif %}"
    )
    texts = {1: "<s>", 2: "</s>"}
    llm = SimpleNamespace(
        metadata={"tokenizer.chat_template": template},
        token_bos=lambda: 1,
        token_eos=lambda: 2,
        _model=SimpleNamespace(token_get_text=texts.__getitem__),
    )
    render = _renderer(llm)
    messages = (Message(role="system", content="S"), Message(role="user", content="U"))
    assert render(messages) == "<s>[system] S\n[user] U\n[assistant] "
    chatml = SimpleNamespace(metadata={"tokenizer.chat_template": "<|im_start|>{{...}}"})
    assert _renderer(chatml) is render_chatml


def test_amx_is_read_from_the_cpu_flags_line(tmp_path: Path) -> None:
    from parlour.models.local import _cpu_advertises_amx

    info = tmp_path / "cpuinfo"
    info.write_text("model name\t: Xeon amx_int8\nflags\t\t: fpu avx2 amx_tile\n")
    assert not _cpu_advertises_amx(info)  # amx_int8 outside the flags line, tile alone
    info.write_text("processor\t: 0\nflags\t\t: fpu avx2 amx_bf16 amx_tile amx_int8\n")
    assert _cpu_advertises_amx(info)
    assert not _cpu_advertises_amx(tmp_path / "absent")
