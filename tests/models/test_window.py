"""``window.fit_history``: a prompt fitted to a context by leaving out its oldest history
(pure: token counts here are word counts), and the local backend using it."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

import pytest

from parlour.models import Message, ModelRequest, Settings
from parlour.models.local import LocalBackend
from parlour.models.window import NOTE, fit_history


def words(text: str) -> int:
    return len(text.split())


def size(messages: Sequence[Message]) -> int:
    return sum(words(m.content) + 2 for m in messages)


def chat(turns: int, command: str = "## Now\nSay something.") -> list[Message]:
    out = [Message(role="system", content="rules " * 20)]
    for k in range(turns):
        out.append(Message(role="user", content=f"<speech>line {k} " + "word " * 18 + "</speech>"))
        out.append(Message(role="assistant", content=f"answer {k} " + "word " * 8))
    out.append(Message(role="user", content=command))
    return out


def fit(messages: list[Message], limit: int) -> tuple[list[Message], int]:
    return fit_history(messages, size, words, limit=limit, block=100)


def test_a_prompt_that_fits_is_unchanged() -> None:
    messages = chat(3)
    assert fit(messages, size(messages)) == (messages, 0)


def test_the_oldest_history_goes_and_the_rest_is_kept_whole() -> None:
    messages = chat(40)
    fitted, left_out = fit(messages, 400)
    assert size(fitted) <= 400 and left_out > 0
    assert fitted[0] == messages[0] and fitted[-1] == messages[-1]
    # what is kept is a suffix of the history, behind one note
    kept, tail = fitted[1:-1], messages[1:-1][left_out:]
    if tail[0].role == "assistant":
        assert kept == [Message(role="user", content=NOTE), *tail]
    else:
        assert kept[0].content == f"{NOTE}\n\n{tail[0].content}" and kept[1:] == tail[1:]


def test_the_cut_stays_put_as_the_chat_grows() -> None:
    # The cut moves only at block boundaries, so a cached prefix stays valid for a while.
    cuts = [fit(chat(n), 500)[1] for n in range(30, 60)]
    assert cuts == sorted(cuts)
    assert len(set(cuts)) < len(cuts) / 2, cuts


def test_a_long_last_turn_loses_its_oldest_quotes_never_its_command() -> None:
    quotes = "\n".join(f"<speech>old {k} " + "word " * 10 + "</speech>" for k in range(50))
    command = "## Now\nAnswer Maya's question."
    messages = [
        Message(role="system", content="rules"),
        Message(role="user", content=f"## Transcript so far\n{quotes}\n\n{command}"),
    ]
    fitted, left_out = fit(messages, 200)
    assert size(fitted) <= 200
    assert fitted[-1].content.endswith(command)
    assert "old 49" in fitted[-1].content and "old 0 " not in fitted[-1].content
    assert left_out == 50 - fitted[-1].content.count("<speech>")


def test_a_command_that_alone_is_too_long_comes_back_unchanged() -> None:
    messages = [
        Message(role="system", content="rules"),
        Message(role="user", content="word " * 500),
    ]
    assert fit(messages, 100) == (messages, 0)


@pytest.mark.model
async def test_the_local_model_answers_a_chat_longer_than_its_context(gguf: Path) -> None:
    backend = LocalBackend(gguf, n_ctx=512, seed=3)
    long_chat = tuple(chat(40, command="## Now\nSay hello to the group."))
    request = ModelRequest(messages=long_chat, settings=Settings(max_tokens=24, seed=1))
    assert len(backend.tokenize(long_chat)) > 512
    response = await backend.complete(request)
    assert response.text.strip()
    assert response.raw["left_out"] > 0
    assert response.usage.input_tokens + 24 <= 512
