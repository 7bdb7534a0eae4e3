"""The OpenAI backend against llama-cpp-python's own OpenAI-compatible server."""

from __future__ import annotations

import pytest

from parlour.models import Message, ModelRequest, ModelUnavailable, OutputSpec, Settings, resolve
from parlour.models.openai_backend import OpenAIBackend

from .conftest import free_port

IDS = ("alice", "bob", "carol")


def ask(content: str) -> tuple[Message, ...]:
    return (
        Message(role="system", content="You play a village game.", cache_boundary=True),
        Message(role="user", content=content),
    )


async def test_reachability_check_passes(llama_server: str) -> None:
    backend = OpenAIBackend("smollm2", base_url=llama_server)
    await backend.check()
    assert backend.structured == "json_object"  # not api.openai.com: schema via json_object
    await backend.aclose()


async def test_choice_through_json_mode_with_schema(llama_server: str) -> None:
    backend = resolve("openai:smollm2", base_url=llama_server)
    response = await backend.complete(
        ModelRequest(
            messages=ask("Who do you vote to exile: alice, bob or carol?"),
            output=OutputSpec.choice(IDS),
            settings=Settings(temperature=0.8, max_tokens=64, seed=1),
        )
    )
    assert response.parse_error is None, response.text
    assert response.parsed["choice"] in IDS
    assert response.model_id == "openai:smollm2"
    assert response.usage.input_tokens > 0 and response.usage.output_tokens > 0


async def test_free_text(llama_server: str) -> None:
    backend = OpenAIBackend("smollm2", base_url=llama_server)
    response = await backend.complete(
        ModelRequest(messages=ask("Greet the village."), settings=Settings(max_tokens=16))
    )
    assert response.text.strip()
    assert response.parsed == response.text
    assert 0 < response.usage.output_tokens <= 16
    assert response.raw["finish_reason"] in ("stop", "length")


async def test_unreachable_endpoint_is_one_clear_line() -> None:
    url = f"http://127.0.0.1:{free_port()}/v1"
    backend = OpenAIBackend("m", base_url=url)
    with pytest.raises(ModelUnavailable) as info:
        await backend.check(timeout_s=3)
    message = str(info.value)
    assert "\n" not in message
    assert url in message and "--base-url" in message
    with pytest.raises(ModelUnavailable, match="cannot reach"):
        await backend.complete(ModelRequest(messages=ask("hi"), settings=Settings(timeout_s=3)))


def test_missing_key_for_openai_itself_names_the_fix(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("OPENAI_API_KEY", raising=False)
    monkeypatch.delenv("OPENAI_BASE_URL", raising=False)
    with pytest.raises(ModelUnavailable, match="set OPENAI_API_KEY or pass --base-url"):
        resolve("openai:gpt-4o-mini")


def test_request_format_per_mode(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("OPENAI_API_KEY", "sk-test")
    monkeypatch.delenv("OPENAI_BASE_URL", raising=False)
    official = OpenAIBackend("gpt-4o-mini")
    assert official.capabilities.json_schema and official.structured == "json_schema"
    fmt = official._response_format(OutputSpec.choice(IDS))
    assert fmt is not None and fmt["type"] == "json_schema"
    assert fmt["json_schema"]["strict"] is True
    assert fmt["json_schema"]["schema"]["properties"]["choice"]["enum"] == list(IDS)
    assert official._response_format(OutputSpec.text()) is None
    # json_object mode tells the model the keys (and says "JSON", which the API requires).
    local = OpenAIBackend("m", base_url="http://127.0.0.1:1/v1", structured="json_object")
    sent = local._messages(ModelRequest(messages=ask("vote"), output=OutputSpec.choice(IDS)))
    assert sent[-1]["role"] == "system" and "JSON" in sent[-1]["content"]


def test_rejected_parameters_are_dropped_once(monkeypatch: pytest.MonkeyPatch) -> None:
    """Reasoning models refuse temperature; some servers refuse json_schema: adapt, once."""
    import httpx2
    import openai

    def rejection(message: str) -> openai.BadRequestError:
        request = httpx2.Request("POST", "https://api.openai.com/v1/chat/completions")
        return openai.BadRequestError(
            message, response=httpx2.Response(400, request=request), body=None
        )

    monkeypatch.setenv("OPENAI_API_KEY", "sk-test")
    backend = OpenAIBackend("o4-mini", base_url="https://api.openai.com/v1")
    request = ModelRequest(messages=ask("vote"), output=OutputSpec.choice(IDS))
    kwargs = backend.request_kwargs(request)
    assert "temperature" in kwargs and "max_completion_tokens" in kwargs
    assert backend._downgrade(rejection("Unsupported parameter: 'temperature'"))
    assert "temperature" not in backend.request_kwargs(request)
    assert backend._downgrade(rejection("response_format json_schema is not supported"))
    assert backend.request_kwargs(request)["response_format"]["type"] == "json_object"
    assert not backend.capabilities.json_schema
    assert not backend._downgrade(rejection("context length exceeded"))


async def test_the_request_body_is_what_the_sdk_would_send(monkeypatch: pytest.MonkeyPatch) -> None:
    """The large arguments skip the SDK's transform (``extra_body``); the JSON on the wire
    and the key's header are those of a plain ``create(**request_kwargs)``."""
    import json

    import httpx2
    import openai

    seen: list[httpx2.Request] = []
    answer = {
        "id": "c1", "object": "chat.completion", "created": 0, "model": "m",
        "choices": [{"index": 0, "finish_reason": "stop",
                     "message": {"role": "assistant", "content": '{"choice": "bob"}'}}],
        "usage": {"prompt_tokens": 5, "completion_tokens": 3, "total_tokens": 8},
    }  # fmt: skip

    def handler(request: httpx2.Request) -> httpx2.Response:
        seen.append(request)
        return httpx2.Response(200, json=answer)

    def client() -> openai.AsyncOpenAI:
        http = httpx2.AsyncClient(transport=httpx2.MockTransport(handler))
        return openai.AsyncOpenAI(base_url="http://x/v1", api_key="sk-k", http_client=http)

    for structured in ("json_schema", "json_object"):
        backend = OpenAIBackend("m", base_url="http://x/v1", structured=structured, client=client())
        request = ModelRequest(
            messages=ask("vote"), output=OutputSpec.choice(IDS), settings=Settings(seed=3)
        )
        response = await backend.complete(request)
        assert response.parsed == {"choice": "bob"}
        await backend.client.chat.completions.create(**backend.request_kwargs(request))
        fast, plain = seen[-2:]
        assert json.loads(fast.content) == json.loads(plain.content)
        assert json.loads(fast.content)["response_format"]["type"] == structured
        assert fast.headers["authorization"] == plain.headers["authorization"] == "Bearer sk-k"
