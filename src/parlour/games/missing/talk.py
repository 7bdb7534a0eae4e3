"""What a scripted friend texts in the chat: speech acts built from its own view.

A message is one act, chosen from what the seat knows and what it was asked:

* **card**: answer its story card, naming what the card is about;
* **answer**: a question put to it (its finds, else its suspicion);
* **defend**: a message that names it without asking;
* **react**: news another player texted (a find, a card's answer);
* **share**: a find it has not told yet (its title and place, never the private text);
* **ask**: a player who searched a place and said nothing about it, or a quiet one;
* **accuse**: a suspect, with a reason from its own finds or its suspicion.

Each act has several wordings; the seat never sends a line the chat has already seen
twice (it prefers one never seen), and of the wordings left it takes one that repeats
the fewest phrases (runs of ``PHRASE_WORDS`` words) anyone has already said in the game,
so a game of many messages does not come back to the same frames. Everything comes from
the seat's view: its own card, finds and story card, and public facts.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass
from itertools import product

from parlour.core.events import Event
from parlour.core.rng import Rng
from parlour.core.text_rules import ngrams, stale_runs, text_tokens
from parlour.core.view import AnyView
from parlour.core.wording import capitalised
from parlour.games.missing.asks import Answering
from parlour.games.missing.talk_lines import TALK_KINDS
from parlour.games.missing.texts import names_in, wants_answer
from parlour.games.missing.views import ClueFacts, MissingPrivate, MissingPublic

#: A line may be seen this many times in a game, no more.
MAX_REPEATS = 2
#: The chance that a message goes on with a second act, as a second text (never a third).
SECOND_TEXT = 0.3
SECOND_TEXT_AFTER = 2
#: A phrase, for telling a fresh wording from a stale one: this many words in a row.
PHRASE_WORDS = 4

_CARD = (
    "Ok, this just came back to me: {topic}. {friend} brought it up twice last week and "
    "changed the subject fast.",
    "Can't stop thinking about {topic}. {friend} was scared of something to do with it, "
    "I'm sure of it now.",
    "Something I should have said earlier. {friend} asked me about {topic} and wouldn't say why.",
    "Remembered something about {topic}. Didn't seem like much at the time. Now it does.",
    "{topic}. That's what {friend} was on about the other night. I thought it was nothing.",
    "{friend} made me promise not to mention {topic}. I think that promise is off now.",
    "{friend} went pale when I joked about {topic} on Sunday.",
    "Has anyone else heard {friend} talk about {topic}? Because I have. More than once.",
    "Don't laugh, but {topic} has been bugging me since {friend} stopped answering.",
    "Ok, so. {topic}. {friend} mentioned it on the phone and then hung up on me.",
    "I've been sitting on this: {topic}. {friend} wouldn't drop it last month.",
    "Is it just me, or does {topic} keep coming up? {friend} asked me about it twice.",
    "Thinking back, {topic} is where {friend}'s mood changed.",
    "This might matter: {topic}. {friend} got weird every time it came up.",
    "Does {topic} mean anything to you lot? {friend} kept circling back to it.",
    "{friend} and {topic}. There's something there, I'd swear to it.",
    "Before I forget: {topic}. {friend} said something about it I didn't like.",
    "Small thing, maybe. {friend} flinched at {topic} last weekend.",
    "Thinking out loud: {topic}, and {friend} going quiet about it.",
)
#: A card that tells the seat to ask someone: the first ``about`` word is who or what.
_CARD_ASK = (
    "I have to ask. {topic}, what was going on earlier? I saw you and you looked rattled.",
    "{topic}, be straight with me: where were you this afternoon, and who were you talking to?",
    "{topic}, you've been cagey all evening. What happened before {friend} left?",
    "Straight question, {topic}: what did {friend} say to you yesterday?",
    "{topic}, quick one: did {friend} call you today?",
    "Honest answer, {topic}: when did you last see {friend}?",
    "{topic}, you know something. What is it?",
    "I need to hear it from you, {topic}. What happened with {friend}?",
)
_FINAL = (
    "It's {friend}! {friend} just texted me. Reading it out now.",
    "Everyone stop. {friend} just messaged me. Here it is.",
)
_ANSWER_FIND = (
    "{asker}, yes. At {place}: {title}. {read}",
    "{asker}, I was at {place}. There: {title}. {read}",
    "Honestly, {asker}? At {place}: {title}. {read}",
    "I went to {place}, {asker}. {title}. {read}",
    "{title}, {asker}. That's what {place} had. {read}",
)
_ANSWER_TOLD = (
    "{asker}, only what I said: {title} at {place}. Nothing else yet.",
    "Nothing new, {asker}. Just what I said: {title}. I can't make it fit.",
    "{asker}, I told you: {title}, at {place}. That's all I have.",
    "Same as before, {asker}: {title}. Still no idea what it means.",
    "{asker}, just {place}, and you know what was there: {title}.",
    "Scroll up, {asker}. {place} is all I've done so far.",
    "{asker}, no. Since {place}, nothing.",
    "Not since {place}, {asker}. Sorry.",
    "{asker}, I'm still stuck on {place}.",
    "{asker}, nothing more from me yet.",
    "Nope, {asker}. Same as earlier.",
    "Still chewing on {title}, {asker}.",
    "No, {asker}, and it's driving me mad.",
)
_ANSWER_HUNCH = (
    "{asker}, nothing solid. But {suspect} worries me: {about}.",
    "Not much, {asker}. I keep coming back to {suspect}, though.",
    "{asker}, I've got nothing yet. Has anyone been to {place}?",
    "Nothing found, {asker}. I'd look hard at {suspect} before anyone else.",
    "Empty-handed, {asker}. {place} might be worth a try.",
    "{asker}, no luck. You?",
    "Zero, {asker}. Sorry. My money's on {suspect}.",
    "{asker}, not a thing yet. {place} next, maybe.",
    "Nothing, {asker}. Still turning {suspect} over in my head.",
)
_DEFEND = (
    "Come on, {asker}. I've been looking for {friend} all night, same as you.",
    "{asker}, that's not fair. Ask me straight if you think I did something.",
    "I hear you, {asker}, but you're looking at the wrong person. Look at {suspect}.",
    "{asker}, I've got nothing to hide. Check {place} yourself if you don't believe me.",
    "Really, {asker}? I'm on your side here.",
    "Wow, {asker}. I love {friend} too, you know.",
    "{asker}, I get why you'd ask, but no.",
    "Not me, {asker}. Spend the energy on {suspect}.",
)
_REACT = (
    "That's big, {speaker}. {link}",
    "Wait, {speaker}. {link}",
    "{speaker}, seriously? {link}",
    "Ok, {speaker}, that changes things. {link}",
    "Hang on. {link}",
    "Oh no. {link}",
    "{speaker}, thank you. {link}",
    "Right. {link}",
    "God, {speaker}. {link}",
)
_LINK_MINE = (
    "It fits with what I found at {place}: {title}.",
    "Put that next to what was at {place}: {title}.",
    "Remember {place}? {title}. Same story.",
    "And I had {title}. Coincidence?",
)
_LINK_SUSPECT = (
    "Doesn't that point at {suspect}?",
    "Tell me that's not {suspect}.",
    "I'd bet {suspect} knows something about it.",
    "{suspect} again?",
    "Somebody talk to {suspect}.",
    "Where was {suspect} when that happened?",
)
_LINK_ASK = (
    "Was anyone else around?",
    "Where exactly?",
    "Did you see anyone?",
    "When was that?",
    "Is it still there?",
    "Did you take a photo?",
    "Anyone know what that means?",
    "How long ago, do you think?",
)
_SHARE = (
    "Found something at {place}: {title}. {read}",
    "At {place} now: {title}. {read}",
    "Back from {place}: {title}. {read}",
    "Just been to {place}, and: {title}. {read}",
    "Guys. {title}. {place}. {read}",
    "So {place} had {title}. {read}",
    "Look what turned up at {place}: {title}. {read}",
)
_READ_SUSPECT = (
    "That's {suspect}, isn't it?",
    "{suspect} again.",
    "Someone should ask {suspect} about this.",
    "My gut says {suspect}.",
    "Who else but {suspect}?",
)
_READ_NONE = (
    "Not sure what it means yet.",
    "No idea what to make of it.",
    "Does that mean anything to anyone?",
    "Thoughts?",
    "Weird, right?",
    "Make of it what you will.",
)
_ASK_SEARCHED = (
    "{other}, you were at {place}. Find anything?",
    "{other}, what was at {place}? You went quiet after.",
    "Anything at {place}, {other}?",
    "{other}, how did {place} go?",
    "So, {other}. {place}?",
)
_ASK_QUIET = (
    "{other}, you've gone quiet. You ok?",
    "{other}, what do you make of all this? You knew {friend} well.",
    "{other}, when did you last hear from {friend}?",
    "Has anyone heard from {friend} since? {other}?",
    "{other}? Still with us?",
    "{other}, you've said almost nothing. Why?",
    "What's your take, {other}?",
)
_DOUBT = (
    "{other} went to {place} and hasn't said a word about it. I don't like that.",
    "Funny how {other} went quiet after {place}.",
    "{other} was first to {place}. Just saying.",
    "Why so quiet about {place}, {other}?",
)
_ACCUSE_FOUND = (
    "I'm saying it: {suspect}. Look at what I found: {title}.",
    "{suspect}. Think about it: {title}.",
    "It keeps coming back to {suspect}. Remember: {title}.",
    "{title}. Tell me that isn't {suspect}.",
    "{title}. Who does that point to? {suspect}.",
)
_ACCUSE_HUNCH = (
    "I keep thinking about {suspect}, {about}.",
    "If {friend} was scared of someone, it was {suspect}.",
    "Nobody's checked on {suspect} tonight. That bothers me.",
    "{suspect}, {about}, has been too quiet tonight.",
    "Am I the only one thinking {suspect}?",
    "{suspect}. I can't shake it.",
    "Nobody's asked where {suspect} was tonight.",
    "Call me paranoid, but {suspect}.",
    "Does nobody else wonder about {suspect}?",
    "My gut keeps saying {suspect}.",
)
_PLAN = (
    "I'll try {place} next unless someone's already there.",
    "Someone should get to {place}. I can go.",
    "Who's near {place}?",
    "Going to check {place}.",
    "{place} next, for me.",
    "Has anyone done {place} yet?",
    "Heading to {place} in a minute.",
    "Nobody's looked at {place} yet, have they?",
    "I could do {place} if nobody has.",
)
#: A last resort when every wording of every act was seen twice: plain, and new each time.
_NOW = "Still nothing from {friend}, with {clock} to go."


@dataclass(frozen=True)
class _Ctx:
    pub: MissingPublic
    me: MissingPrivate
    seat: str
    friend: str
    rng: Rng

    #: Everything the chat has said so far, case-folded: a find's title in it was told.
    chat: str = ""

    def pick(self, items: Iterable[str]) -> str:
        return self.rng.choice(list(items))

    def place(self, name: str) -> tuple[str, ...]:
        """The ways to name a place: its name, then the town's shorter names for it."""
        place = next((p for p in self.pub.places if p.name == name), None)
        return (name, *place.handles) if place is not None else (name,)

    def clue(self, clue: ClueFacts) -> tuple[str, ...]:
        """The ways to name a find: its title until the chat has heard it, then the town's
        shorter names for it (and the title), so a find told once is not recited whole
        every time it comes up."""
        if clue.handles and clue.title.casefold() in self.chat:
            return (*clue.handles, clue.title)
        return (clue.title,)

    def suspect(self) -> tuple[str, str]:
        """A suspect the seat has reason to name: one its finds mention, else its own."""
        named = [s for s in self.pub.suspects if any(_mentions(c, s[0]) for c in self.me.clues)]
        if named and self.rng.random() < 0.7:
            return self.rng.choice(named)
        own = next((s for s in self.pub.suspects if s[0] == self.me.suspect), None)
        if own is not None and self.rng.random() < 0.6:
            return own
        return self.rng.choice(self.pub.suspects)


@dataclass(frozen=True)
class Act:
    """One thing a seat can text now: its kind, a short label that says what it does
    (what a seat choosing among acts reads) and the wordings it may come in."""

    kind: str
    label: str
    lines: tuple[str, ...]
    #: The title of the find it tells for the first time ("" if none): a message that
    #: answers with a find does not go on to share the same find again.
    tells: str = ""


def _context(view: AnyView, rng: Rng) -> _Ctx:
    pub: MissingPublic = view.public
    me: MissingPrivate = view.private
    chat = "\n".join(e.text for e in view.events if e.kind in TALK_KINDS).casefold()
    return _Ctx(pub=pub, me=me, seat=view.seat, friend=pub.friend.split()[0], rng=rng, chat=chat)


Slot = str | tuple[str, ...]


def _fill(templates: Iterable[str], **slots: Slot) -> list[str]:
    """Every template with every combination of its slots' values (a slot may be one
    value or several ways to say it), each line once, in order."""
    keys = list(slots)
    values = [(v,) if isinstance(v, str) else v for v in slots.values()]
    out: dict[str, None] = {}
    for template in templates:
        used = [n for n, k in enumerate(keys) if "{" + k + "}" in template]
        fixed = {k: values[n][0] for n, k in enumerate(keys) if n not in used}
        for combo in product(*(values[n] for n in used)):
            out[
                template.format(**fixed, **{keys[n]: v for n, v in zip(used, combo, strict=True)})
            ] = None
    return list(out)


def _said(view: AnyView) -> Counter[str]:
    return Counter(e.text for e in view.events if e.kind == "message")


def phrases(text: str) -> set[tuple[str, ...]]:
    """The runs of ``PHRASE_WORDS`` words in ``text``."""
    return set(ngrams(text_tokens(text), PHRASE_WORDS))


def said_phrases(events: Iterable[Event]) -> set[tuple[str, ...]]:
    """Every phrase the players have said so far in what the seat saw."""
    out: set[tuple[str, ...]] = set()
    for event in events:
        if event.kind in TALK_KINDS and event.speaker:
            out |= phrases(event.text)
    return out


def stale(line: str, said: set[tuple[str, ...]]) -> int:
    """How many of the line's phrases were said before, or twice in the line itself."""
    return stale_runs(text_tokens(line), said, PHRASE_WORDS)


def freshest(lines: Iterable[str], said: set[tuple[str, ...]]) -> list[str]:
    """The lines that repeat the fewest phrases already said (all of them, if tied)."""
    scored = [(stale(line, said), line) for line in lines]
    least = min((n for n, _ in scored), default=0)
    return [line for n, line in scored if n == least]


def _wordable(act: Act, said: Counter[str], grams: set[tuple[str, ...]]) -> list[str]:
    """The act's wordings the chat may still see (unseen ones, else those seen less than
    ``MAX_REPEATS`` times), the ones that repeat the fewest phrases."""
    lines = [sentence_case(c) for c in act.lines]
    fresh = [c for c in lines if said[c] == 0]
    return freshest(fresh or [c for c in lines if said[c] < MAX_REPEATS], grams)


def message(view: AnyView, answering: Answering | None, rng: Rng) -> str:
    """The scripted seat's chat message: one act in one of its wordings, unseen if possible."""
    ctx = _context(view, rng)
    said = _said(view)
    grams = said_phrases(view.events)
    lines: list[str] = []
    for act in _acts(ctx, view.events, answering):
        allowed = _wordable(act, said, grams)
        if allowed:
            lines.append(rng.choice(allowed))
            grams |= phrases(lines[-1])  # a second text does not echo the first
            # People send a second text now and then: a follow-up act, its own text.
            if len(lines) == SECOND_TEXT_AFTER or rng.random() >= SECOND_TEXT:
                break
    if not lines:
        lines.append(_NOW.format(friend=ctx.friend, clock=ctx.pub.clock))
    return "\n".join(lines)


def worded_acts(view: AnyView, answering: Answering | None, rng: Rng) -> list[tuple[Act, str]]:
    """Every act the seat could text now, fittest first, each with the wording it would
    come in (unseen if possible); at least one (a plain line when every act is spent)."""
    ctx = _context(view, rng)
    said = _said(view)
    grams = said_phrases(view.events)
    out: list[tuple[Act, str]] = []
    for act in _acts(ctx, view.events, answering):
        allowed = _wordable(act, said, grams)
        if allowed and act.label not in {a.label for a, _ in out}:
            out.append((act, rng.choice(allowed)))
    if not out:
        line = _NOW.format(friend=ctx.friend, clock=ctx.pub.clock)
        out.append((Act("now", f"say there is still no word from {ctx.friend}", (line,)), line))
    return out


def _acts(ctx: _Ctx, events: tuple[Event, ...], answering: Answering | None) -> list[Act]:
    """The acts the seat could text, the fittest first."""
    me = ctx.me
    out: list[Act] = []
    if me.card is not None:
        out.append(_card(ctx))
        return out
    if answering is not None:
        ref = next((e for e in events if e.seq == answering.seq), None)
        if ref is not None:
            out.append(_reply(ctx, ref, answering.name))
    unshared = [c for c in me.clues if not c.shared]
    if unshared and all(a.tells != unshared[0].title for a in out):
        out.append(_share(ctx, unshared[0]))
    acts = [_ask, _accuse, _plan]
    for act in ctx.rng.shuffled(acts):
        out.append(act(ctx, events))
    return out


def _card(ctx: _Ctx) -> Act:
    card = ctx.me.card
    assert card is not None
    if card.final:
        final = tuple(t.format(friend=ctx.friend) for t in _FINAL)
        return Act("card", f"read out {ctx.friend}'s message", final)
    topic = _topic(card.prompt, card.about, ctx.friend)
    # "Ask them about it." (not "why did she ask?"): the card tells the seat to ask someone.
    asking = re.search(r"(?:^|[.!?:]\s+)Ask\b", card.prompt) is not None
    lines = [t.format(topic=topic, friend=ctx.friend) for t in (_CARD_ASK if asking else _CARD)]
    what = "ask about" if asking else "tell what you remember about"
    return Act("card", f"{what} {topic}", tuple(capitalised(line) for line in lines))


#: ``about`` words that name nothing a message could be about ("wake him at one")
_NOT_TOPICS = frozenset(
    [
        "one",
        "two",
        "three",
        "four",
        "five",
        "six",
        "seven",
        "eight",
        "nine",
        "ten",
        "it",
        "this",
        "that",
        "them",
        "him",
        "her",
        "there",
        "here",
        "now",
        "then",
    ]
)


def _topic(prompt: str, about: tuple[str, ...], friend: str = "") -> str:
    """What the card is about, as its prompt writes it: a name first ("Vic Marran", "Tess
    Marlow" even where it opens the sentence; never the missing friend, whom every line
    names already), else the first ``about`` word that names a thing, with "the" ("the
    dog"); numbers and pronouns ("one") are never a topic."""
    found: list[re.Match[str]] = []
    for word in about:
        hit = re.search(rf"\b({re.escape(word)}[a-z]*)", prompt, re.IGNORECASE)
        if hit is not None:
            found.append(hit)
    for hit in found:
        start = hit.start()
        if not prompt[start].isupper():
            continue
        name = re.match(r"[A-Z][a-z]*(?: [A-Z][a-z]+)*", prompt[start:])
        text = name.group(0) if name else hit.group(1)
        title = re.search(r"\b(?:Mr|Mrs|Ms|Dr) $", prompt[:start])
        if title is not None:  # "Mr Hale", "Dr Quill"
            text, start = title.group(0) + text, title.start()
        opens = start == 0 or prompt[start - 2] in ".?!:'\""
        if (not opens or " " in text) and text.split()[0].casefold() != friend.casefold():
            return text
    for hit in found:
        word = hit.group(1).casefold()
        if word not in _NOT_TOPICS and word != friend.casefold():
            return f"the {word}"
    return "all this"


def _reply(ctx: _Ctx, ref: Event, asker: str) -> Act:
    """Answer a question put to the seat (or to nobody in particular), defend against a
    message that names it, or react to news."""
    me = ctx.me
    text = ref.text
    names = {p.seat: p.name for p in ctx.pub.players}
    named = names_in(text, names)
    suspect, about = ctx.suspect()
    # a place the message did not just name ("I was at the market" - "has anyone been to
    # the market?" would not be listening)
    unnamed = [
        p.name
        for p in ctx.pub.places
        if not any(form.casefold() in text.casefold() for form in ctx.place(p.name))
    ]
    place = ctx.place(ctx.pick(unnamed or [p.name for p in ctx.pub.places]))
    asked = "?" in text and (ctx.seat in named or not named)
    if not asked and wants_answer(ref, ctx.seat, names):
        lines = _fill(_DEFEND, asker=asker, friend=ctx.friend, suspect=suspect, place=place)
        return Act("defend", f"stand up for yourself to {asker}", tuple(lines))
    if asked:
        unshared = [c for c in me.clues if not c.shared]
        if unshared:
            clue = unshared[0]
            lines = _fill(
                _ANSWER_FIND,
                asker=asker,
                place=ctx.place(clue.place_name),
                title=ctx.clue(clue),
                read=tuple(_reads(ctx, clue)),
            )
            label = f"tell {asker} your find at {clue.place_name}"
            return Act("answer", label, tuple(lines), tells=clue.title)
        if me.clues:
            clue = ctx.rng.choice(me.clues)
            lines = _fill(
                _ANSWER_TOLD, asker=asker, place=ctx.place(clue.place_name), title=ctx.clue(clue)
            )
            return Act("answer", f"tell {asker} you have nothing new", tuple(lines))
        lines = _fill(_ANSWER_HUNCH, asker=asker, suspect=suspect, about=about, place=place)
        return Act("answer", f"tell {asker} you found nothing yet", tuple(lines))
    links: list[str] = []
    if me.clues:
        clue = ctx.rng.choice(me.clues)
        links += _fill(_LINK_MINE, title=ctx.clue(clue), place=ctx.place(clue.place_name))
    links += _fill(_LINK_SUSPECT, suspect=suspect)
    links += list(_LINK_ASK)
    # every frame with every link: the freshest pairing is chosen, not a fixed frame
    reactions = tuple(_fill(_REACT, speaker=asker, link=tuple(links)))
    return Act("react", f"react to {asker}'s news", reactions)


def _reads(ctx: _Ctx, clue: ClueFacts) -> list[str]:
    """The seat's reads of its own find, in every wording: a suspect it mentions, else a
    shrug."""
    named = [name for name, _ in ctx.pub.suspects if _mentions(clue, name)]
    if named:
        return _fill(_READ_SUSPECT, suspect=named[0])
    return list(_READ_NONE)


def _mentions(clue: ClueFacts, name: str) -> bool:
    words = set(re.findall(r"[a-z]+", f"{clue.title} {clue.text}".casefold()))
    parts = [p for p in re.findall(r"[a-z]+", name.casefold()) if len(p) > 2]
    return any(p in words for p in parts)


def _share(ctx: _Ctx, clue: ClueFacts) -> Act:
    lines = _fill(
        _SHARE,
        place=ctx.place(clue.place_name),
        title=ctx.clue(clue),
        read=tuple(_reads(ctx, clue)),
    )
    label = f"share what you found at {clue.place_name}"
    return Act("share", label, tuple(capitalised(line) for line in lines))


def _ask(ctx: _Ctx, events: tuple[Event, ...]) -> Act:
    names = {p.seat: p.name for p in ctx.pub.players}
    searched: list[tuple[str, str]] = []
    for event in events:
        seat = event.data.get("seat")
        if event.kind == "search" and isinstance(seat, str) and seat != ctx.seat:
            place = next((p.name for p in ctx.pub.places if p.id == event.data.get("place")), "")
            if place and seat in names:
                searched.append((names[seat], place))
    lines: list[str] = []
    asked: list[str] = []
    if searched:
        other, place = searched[-1] if ctx.rng.random() < 0.6 else ctx.rng.choice(searched)
        doubt = ctx.rng.random() < 0.25
        lines += _fill(_DOUBT if doubt else _ASK_SEARCHED, other=other, place=ctx.place(place))
        asked.append(other)
    others = [p for p in ctx.pub.players if p.seat != ctx.seat]
    quiet = min(others, key=lambda p: (p.messages, ctx.rng.random())).name if others else ""
    if quiet:
        lines += _fill(_ASK_QUIET, other=quiet, friend=ctx.friend)
        asked.append(quiet)
    return Act("ask", "ask " + " or ".join(dict.fromkeys(asked)), tuple(lines))


def _accuse(ctx: _Ctx, events: tuple[Event, ...]) -> Act:
    suspect, about = ctx.suspect()
    found = [c for c in ctx.me.clues if _mentions(c, suspect)]
    if found:
        title = ctx.clue(ctx.rng.choice(found))
        found_lines = tuple(_fill(_ACCUSE_FOUND, suspect=suspect, title=title))
        return Act("accuse", f"accuse {suspect} with what you found", found_lines)
    hunches = tuple(
        capitalised(line)
        for line in _fill(_ACCUSE_HUNCH, suspect=suspect, about=about, friend=ctx.friend)
    )
    return Act("accuse", f"say you suspect {suspect}", hunches)


def _plan(ctx: _Ctx, events: tuple[Event, ...]) -> Act:
    free = [p.name for p in ctx.pub.places if not p.occupied_by and p.id not in ctx.me.visited]
    if not free:
        return Act("plan", "", ())
    place = ctx.pick(free)
    lines = tuple(capitalised(line) for line in _fill(_PLAN, place=ctx.place(place)))
    return Act("plan", f"say you will search {place}", lines)


_SENTENCE_START = re.compile(r"(^|[.!?]\s+)([a-z])")


def sentence_case(line: str) -> str:
    """A worded line with each sentence capitalised: a place or a find's title ("the
    cinema", "a note on the desk") may open a sentence of a template."""
    return _SENTENCE_START.sub(lambda m: m.group(1) + m.group(2).upper(), line)
