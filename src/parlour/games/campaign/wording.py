"""How the game words campaign talk so that a session does not say the same thing twice.

Every line the game words (the scripted player's acts, an NPC's lines from the campaign
file, the narrator's beats, the game director's check reasons) is chosen among several
that fit the moment, the one that repeats the fewest runs of ``PHRASE_WORDS`` words the
seat has seen said so far first (as missing's and werewolf's wordings are); ties go by
the seeded ``Rng``, so a replay says the same. The campaign file's own lines stay the
designer's words: only which one is said, and when, is chosen here.

A run counts as said when it is in a line of the seat's own view (``said_phrases``), so a
scene director's choice reads only what its context may know.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence

from parlour.core.events import Event
from parlour.core.rng import Rng
from parlour.core.text_rules import ngrams, stale_runs, talk_tokens

#: a phrase: this many words in a row (the talk measure's repeated 4-gram)
PHRASE_WORDS = 4

#: words before a name that are not what anyone calls the person
TITLES = frozenset({"dr", "dr.", "mr", "mr.", "mrs", "mrs.", "ms", "ms.", "prof", "prof."})


def tokens(text: str) -> list[str]:
    """The talk measure's tokens, a curly apostrophe read as a straight one."""
    return talk_tokens(text.replace("’", "'"))


def phrases(text: str) -> set[tuple[str, ...]]:
    return set(ngrams(tokens(text), PHRASE_WORDS))


def event_texts(e: Event) -> list[str]:
    """The talk an event holds: a line's words, a memory record's quoted lines, else the
    event's text."""
    if e.kind == "line":
        return [str(e.data.get("said", ""))]
    if e.kind == "memory":
        return [str(line[2]) for line in e.data.get("lines", ()) if len(line) > 2]
    return [e.text]


def said_phrases(events: Iterable[Event]) -> set[tuple[str, ...]]:
    """Every phrase said so far in ``events`` (what the seat saw)."""
    out: set[tuple[str, ...]] = set()
    for e in events:
        for text in event_texts(e):
            out |= phrases(text)
    return out


def stale(line: str, said: set[tuple[str, ...]]) -> int:
    """How many of the line's phrases were said before, or twice in the line itself."""
    return stale_runs(tokens(line), said, PHRASE_WORDS)


def freshest_first(lines: Sequence[str], said: set[tuple[str, ...]], rng: Rng) -> list[str]:
    """``lines`` (no duplicates), the ones that repeat the fewest said phrases first, in a
    seeded order among equals."""
    unique = list(dict.fromkeys(lines))
    order = {line: n for n, line in enumerate(rng.shuffled(unique))}
    return sorted(unique, key=lambda line: (stale(line, said), order[line]))


def freshest(lines: Sequence[str], said: set[tuple[str, ...]], rng: Rng) -> str:
    return freshest_first(lines, said, rng)[0]


def first_name(name: str) -> str:
    """What people call someone: the first word of the name that is not a title."""
    words = name.split()
    return next((w for w in words if w.lower() not in TITLES), name)


# -- the scripted player's acts --------------------------------------------------------------

#: what the scripted player tries, each act in several wordings (the first is the plain
#: one, ``PLAYER_LINES``); {npc} is someone present, {first} what they are called,
#: {place} a place to go to. The wordings of an act keep its topic (``topic_of``), its risk
#: (``risks.risk_of``) and whether it asks to remember (``asks_to_recall``) or moves the
#: story (``goes_somewhere``): ``tests/campaign/test_wording.py``.
PLAYER_ACTS: tuple[tuple[str, ...], ...] = (
    (
        "I ask {npc} what they are working on tonight.",
        "{first}, what are you working on tonight?",
        "What's keeping you here so late, {first}?",
        "I lean over and ask {first} if they're busy with anything good tonight.",
        "I catch {first}'s eye and ask what they're up to.",
    ),
    (
        "I tell {npc} that I have to leave before sunrise.",
        "{first}, I have to leave well before sunrise.",
        "I warn {first} that I must go before it gets light.",
        "{first}, I have to go before dawn, I'm afraid.",
        "I let {first} know I can't stay late; I have to leave before the sun is up.",
    ),
    (
        "I try to sneak past {npc} without being noticed.",
        "I creep past {first} while their back is turned.",
        "I tiptoe past {first}, keeping to the shadows.",
        "I wait for {first} to look away, then slip past.",
        "I edge past {first}, hoping to go unnoticed.",
    ),
    (
        "I go to {place} to look around.",
        "I head to {place} for a look.",
        "I make my way over to {place}.",
        "I wander off towards {place} and look about.",
    ),
    (
        "I ask {npc} whether they saw anything strange last week.",
        "{first}, did you notice anything odd around here last week?",
        "{first}, has anything strange gone on here lately?",
        "I ask {first} if anything unusual happened last week.",
        "Has anything weird happened here recently, {first}?",
    ),
    (
        "I persuade {npc} to keep this between us.",
        "I try to convince {first} that nobody else needs to know about this.",
        "{first}, please: I need you to stay quiet about this. I'm sure I can convince you.",
        "I persuade {first}: not a word of this to anyone, please.",
    ),
    (
        "I try to pick the lock nearest me.",
        "I set to work picking the lock nearest to hand.",
        "I jimmy the nearest lock with a hairpin.",
        "I crouch at the nearest lock and jimmy it.",
    ),
    (
        "I ask {npc} if they remember what I said before.",
        "{first}, do you remember what I told you before?",
        "Do you recall what I said, {first}?",
        "What did I tell you last time, {first}? Do you remember?",
    ),
    ("/ooc how do checks work?",),
    ("/ooc what should I do next?",),
)

#: how a message that moves the story opens (the scripted directors read it so)
MOVE_OPENINGS = ("i go ", "i head ", "i make my way ", "i wander ")


def goes_somewhere(message: str) -> bool:
    """Does the player's message take them somewhere else (so the story moves)?"""
    return message.lower().startswith(MOVE_OPENINGS)


# -- recall: what someone said, reported --------------------------------------------------

#: the player's narrated verbs, reported in the past ("I ask" → "you asked")
_PAST = {
    "ask": "asked",
    "tell": "told",
    "go": "went",
    "head": "headed",
    "try": "tried",
    "persuade": "tried to persuade",
    "convince": "tried to convince",
    "warn": "warned",
    "let": "let",
    "say": "said",
    "lean": "leaned",
    "catch": "caught",
    "creep": "crept",
    "tiptoe": "tiptoed",
    "wait": "waited",
    "edge": "edged",
    "make": "made",
    "wander": "wandered",
    "set": "set",
    "jimmy": "jimmied",
    "kneel": "knelt",
    "crouch": "crouched",
    "slip": "slipped",
    "look": "looked",
}
#: how a report of the player's words opens ("you asked …", "you said …")
REPORT_OPENINGS = tuple(sorted({f"you {v.split()[0]} " for v in (*_PAST.values(), "said")}))

#: the speaker's words turned round for the one they spoke to: first person to second
_MINE = {
    "i": "you",
    "me": "you",
    "my": "your",
    "mine": "yours",
    "myself": "yourself",
    "i'm": "you're",
    "i've": "you've",
    "i'll": "you'll",
    "i'd": "you'd",
    "am": "are",
}
#: and second person to first ("you" after one of ``_ASKING_VERBS`` is "I")
_YOURS = {
    "you": "me",
    "your": "my",
    "yours": "mine",
    "yourself": "myself",
    "you're": "I'm",
    "you've": "I've",
    "you'll": "I'll",
    "you'd": "I'd",
}
#: second person to third, for words said to someone else ("you" after an asking verb
#: stays "they")
_THEIRS = {
    "you": "them",
    "your": "their",
    "yours": "theirs",
    "yourself": "themselves",
    "you're": "they're",
    "you've": "they've",
    "you'll": "they'll",
    "you'd": "they'd",
}
_ASKING_VERBS = {"are": "am", "were": "was", "do": "do", "did": "did", "have": "have", "can": "can"}
#: the one spoken to, named in a narrated line ("I ask Dov whether they …"): when the
#: NPC who recalls it is that one, "they" is the NPC itself
_THEY = {
    "they": "I",
    "them": "me",
    "their": "my",
    "theirs": "mine",
    "themselves": "myself",
    "they're": "I'm",
    "they've": "I've",
}
#: a name the player's words are addressed to: "Priya, …" or "…, Priya"
_ADDRESS = re.compile(
    r"^((?:[A-Z][\w'.-]*\s)*?[A-Z][\w'-]*)[,:]\s+|,\s+((?:[A-Z][\w'.-]*\s)*?[A-Z][\w'-]*)$"
)
#: a report longer than this many words is cut at a word, with an ellipsis (a quote was
#: cut at 140 characters: about 24 words; the facts players tell run to 15 or so)
REPORT_WORDS = 20


def _turn(words: list[str], table: dict[str, str]) -> list[str]:
    out = []
    for w in words:
        core = w.rstrip(",;:")
        swap = table.get(core.lower())
        out.append(swap + w[len(core) :] if swap else w)
    return out


def reported(text: str, npc_name: str = "", others: Iterable[str] = ()) -> str:
    """What the player said, as the NPC ``npc_name`` reports it back to them: second
    person, short, not a quote of their line. A narrated line: "I tell Tomas Kell that I
    have to leave before sunrise." → "you told me that you have to leave before sunrise";
    direct speech: "Dov, what are you working on tonight?" → "you asked me what am I
    working on tonight". An address ("Dov, …") is one to ``npc_name`` or to one of
    ``others`` (other people's names); said to someone else, the report names them."""
    line = " ".join(text.strip().split())
    question = line.endswith("?")
    line = line.rstrip(".!?")
    names = sorted({npc_name, first_name(npc_name)} - {""}, key=len, reverse=True)
    # "Priya, …" / "…, Priya": the address is dropped; said to someone else, it is kept
    # for the report ("you asked Priya …")
    to = ""
    known = {n for name in others for n in (name, first_name(name))}
    address = _ADDRESS.search(line)
    said_to = address and (address.group(1) or address.group(2))
    narrated = line.lower().startswith("i ")
    if address is not None and said_to and said_to in {*names, *known} and not narrated:
        line = (line[: address.start()] + line[address.end() :]).strip()
        to = "" if said_to in names else said_to
    words = line.split()
    if len(words) >= 2 and words[0].lower() == "i" and words[1].lower() in _PAST:
        lead = "you " + _PAST[words[1].lower()]
        rest = " ".join(_turn(words[2:], _MINE))
        named = False
        for name in names:
            rest, n = re.subn(rf"(?<![\w']){re.escape(name)}'s(?![\w'])", "my", rest)
            rest, m = re.subn(rf"(?<![\w.]){re.escape(name)}(?![\w'])", "me", rest)
            named = named or bool(n or m)
        out = rest.split()
        if named:
            out = _turn(out, _THEY)
        # a second verb of the same line: "… and ask", "…, then slip past"
        out = [
            _PAST[w].split()[-1] if w in _PAST and i and out[i - 1] in ("and", "then") else w
            for i, w in enumerate(out)
        ]
    else:
        if to:
            lead = f"you {'asked' if question else 'told'} {to}"
        else:
            lead = "you asked me" if question else "you said"
        out = []
        for w in words:
            core = w.rstrip(",;:").lower()
            before = out[-1].lower() if out else ""
            if core == "you" and before in _ASKING_VERBS:
                if not to:
                    out[-1] = _ASKING_VERBS[before]
                out.append(("they" if to else "I") + w[len(core) :])
            elif core in _MINE:
                out.extend(_turn([w], _MINE))
            else:
                out.extend(_turn([w], _THEIRS if to else _YOURS))
        if out:
            out[0] = out[0][:1].lower() + out[0][1:] if out[0] not in ("I", "I'm") else out[0]
    joined = " ".join(out)
    joined = re.sub(r"\bI are\b", "I am", joined)
    joined = re.sub(r"\bI were\b", "I was", joined)
    out = joined.split()
    if len(out) > REPORT_WORDS:
        out = [*out[:REPORT_WORDS], "…"]
        out[-2] = out[-2].rstrip(",;:.")
    return " ".join([lead, *out]).replace(" …", "…")


# -- the narrator ----------------------------------------------------------------------------

#: the synopsis of a move: who waits at the place ({who}, and {verb} is/are)
ARRIVALS = (
    "You arrive. {who} {verb} here.",
    "{who} {verb} already here.",
    "You find {who} here.",
    "{who} {verb} waiting when you get there.",
    "You walk in on {who}.",
    "{who} {verb} here before you.",
)

#: the synopsis of a move back to a place of an earlier scene: the narrator reads its
#: opening (``RETURN_OPENINGS``) and names the place without describing it again
RETURN_ARRIVALS = (
    "You are back. {who} {verb} here.",
    "Back again. {who} {verb} here before you.",
    "You come back to find {who} here.",
    "Back once more; {who} {verb} here now.",
)
RETURN_OPENINGS = ("You are back.", "Back again.", "You come back", "Back once more;")

#: a check's reason when the same one was given before in the session
REASONS_AGAIN = (
    "no easier than last time",
    "the same risk as before",
    "it can still go wrong",
    "this could fail again",
    "still far from certain",
)


def reports(text: str) -> bool:
    """Does ``text`` report what the player said (``reported``)?"""
    low = f" {text.lower()}"
    return any(f" {o}" in low for o in REPORT_OPENINGS)
