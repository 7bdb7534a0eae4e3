"""Fit a chat prompt into a model's context window by leaving out its oldest history.

A long game's transcript outgrows a small model's window (the embedded SmolLM2 holds 4,096
tokens; a 90-minute missing chat reaches more). ``fit_history`` keeps the system message
and the last message (the decision being asked, with its reminders) and leaves out the
oldest history messages in between, then, if that is not enough, the oldest quoted lines
of the last message. A note where the cut was made tells the model that earlier messages
are not shown.

Invariants: the result is the system message, a note, a suffix of the history and the
last message (its command and reminders whole; only quoted transcript lines before the
command may go); nothing is added but the note. The history is cut only at block
boundaries: the cut is the first message starting at or after a multiple of ``block``
tokens into the history, so as a chat grows the cut stays where it was (and the model's
cached prefix stays valid) until a whole further block has to go.

The stored prompt (and its digest, which replays check) is the whole one the seat built;
the backend fits what it evaluates and says in its response how much it left out.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from parlour.models.messages import Message

NOTE = "(Earlier messages of this conversation are not shown.)"
#: the lines of a final user turn that may be left out: quoted speech and game lines
_QUOTED = ("<speech", "[game]")
_COMMAND = "## Now"


def fit_history(
    messages: Sequence[Message],
    measure: Callable[[Sequence[Message]], int],
    count: Callable[[str], int],
    limit: int,
    block: int,
) -> tuple[list[Message], int]:
    """``messages`` fitted to ``limit`` tokens as ``measure`` counts a whole prompt (see
    the module doc), and how many history messages and quoted lines were left out.
    ``count`` sizes one message's text (to place the block boundaries). When even the
    system message and the command alone do not fit, the whole prompt comes back
    unchanged with 0 (the backend's own error then says so)."""
    full = list(messages)
    if measure(full) <= limit or len(full) < 2:
        return full, 0
    head = [full[0]] if full[0].role == "system" else []
    last = full[-1]
    history = full[len(head) : -1]
    starts: list[int] = []
    pos = 0
    for m in history:
        starts.append(pos)
        pos += count(m.content)
    mark = 1
    while True:
        cut = next((i for i, s in enumerate(starts) if s >= mark * block), len(history))
        kept = history[cut:]
        if kept and kept[0].role == "assistant":
            kept = [Message(role="user", content=NOTE), *kept]
        elif kept:
            kept = [Message(role="user", content=f"{NOTE}\n\n{kept[0].content}"), *kept[1:]]
        if not kept:
            break
        trial = [*head, *kept, last]
        if measure(trial) <= limit:
            return trial, cut
        mark += 1
    # No history is left: leave out the last message's oldest quoted lines.
    lines = last.content.split("\n")
    command = next((i for i, line in enumerate(lines) if line.startswith(_COMMAND)), len(lines))
    quoted = [i for i in range(command) if lines[i].startswith(_QUOTED)]

    def without(dropped: int) -> list[Message]:
        gone = set(quoted[:dropped])
        text = "\n".join(line for i, line in enumerate(lines) if i not in gone)
        return [*head, Message(role=last.role, content=f"{NOTE}\n\n{text}")]

    if not quoted or measure(without(len(quoted))) > limit:
        return full, 0
    low, high = 1, len(quoted)  # the fewest lines to leave out: fits at ``high``
    while low < high:
        mid = (low + high) // 2
        if measure(without(mid)) <= limit:
            high = mid
        else:
            low = mid + 1
    return without(high), len(history) + high
