"""Speech acts put into words: a sentence per act in the character's voice.

Each act has several sentence templates; each playstyle adds its own openers (how that
character starts talking). Each reason kind has several wordings (``REASONS``), and
each playstyle a few more of its own (``STYLE_REASONS``); questions have whole sentences
per reason kind (``QUESTIONS``), so what is asked follows from the fact. A reason's
wording is the least used so far in the game and never the one the same speaker used
in its previous line (while another exists); among equals the choice comes from an
``Rng`` the caller seeds from the game seed and the decision id (a replay renders the
same words). Then the sentence: among the variants, one that does not repeat a line
said earlier in the game, share eight tokens with one, or copy the seat's option label
(``core.wording.distinct_line``). Templates name a dead player only in a sentence that
says what they were ("who was a villager"), and never repeat four words in a row, so
rendered talk passes the talk-quality checks by construction. The model's optional
phrase is appended as its own sentence.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from parlour.core.rng import Rng
from parlour.core.text_rules import ngrams, text_tokens
from parlour.core.wording import distinct_line, shares_run
from parlour.games.werewolf.playstyles import Playstyle
from parlour.games.werewolf.roles import Role, with_article
from parlour.games.werewolf.speech_acts import (
    ACCUSE,
    AGREE,
    CLAIM,
    DEFEND,
    QUESTION,
    QUIET,
    REVEAL,
    Echo,
    Move,
)

TEMPLATES: dict[str, tuple[str, ...]] = {
    # The reason clause follows different words in each template ("who", "that player",
    # "because", the name), so two lines citing one reason rarely share eight tokens.
    ACCUSE: (
        "I suspect {t}, who {why}.",
        "My eyes are on {t}: {why_t}.",
        "{t} is my suspect. That player {why}.",
        "Look at {t}. {T_why}, so {t} gets my vote.",
        "I name {t}, because this is someone who {why}.",
        "Something is off about {t}; remember that {t} {why}.",
        "If we vote today, vote {t}. Reason: {why_it}.",
    ),
    DEFEND: (
        "I trust {t}, who {why}.",
        "Leave {t} alone. {T_why}.",
        "{t} {why}; I do not think {t} is a wolf.",
        "Do not vote {t}. That player {why}.",
        "I stand by {t}, because this is someone who {why}.",
    ),
    CLAIM: (
        "I will say it plainly: I am {role}.",
        "For the record, I am {role}.",
        "You should know that I am {role}.",
        "Time to tell you: I am {role}.",
        "My role? I am {role}.",
    ),
    REVEAL: (
        "I am the seer. I checked {t}: {reading}.",
        "I am the seer, and my vision of {t} says {reading}.",
        "Seer here. {t} is {reading}; I checked.",
        "As the seer I looked at {t} in the night: {reading}.",
    ),
    AGREE: (
        "I agree with {s} about {t}.",
        "{s} is right about {t}.",
        "I am with {s} on {t}.",
        "Same as {s}: {t}.",
        "{s} has a point about {t}.",
        "Count me in with {s} on {t}.",
    ),
}

#: Reason wordings per kind (``Move.kind``): clauses about the target, third person, so
#: they fit every template above ("I suspect Kenji, who {why}."). ``{x}`` is the other
#: player the reason names (``Move.about``; "me" when that is the speaker), ``{d}`` the
#: detail (a role with its article, a day). Each says only what the kind's fact says: a
#: defence of a player accused for a vote record does not call it baseless. A dead player
#: is named only next to "was".
REASONS: dict[str, tuple[str, ...]] = {
    "accused_me": (
        "accused me today",
        "pointed the finger at me today",
        "named me as a suspect today",
        "tried to pin it on me today",
        "wants me voted out today",
    ),
    "sided": (
        "backed {x}'s case against me today",
        "joined {x} in accusing me today",
        "agreed with {x} that I am the wolf",
        "sided with {x} against me today",
    ),
    "vote_dead": (
        "voted for {x}, who was {d}",
        "helped vote out {x}, who was {d}",
        "cast a ballot against {x}, who was {d}",
        "put a vote on {x}, and {x} was {d}",
    ),
    "vote_me": (
        "voted against me on day {d}",
        "put a vote on me on day {d}",
        "wanted me out on day {d}",
        "cast a ballot against me on day {d}",
    ),
    "false_claim": (
        "claimed the seer, but {x} was",
        "says they are the seer, yet {x} was the seer",
        "claimed a role that {x} was shown to hold",
        "calls themselves the seer when {x} was",
    ),
    "quiet": (
        "has said nothing today",
        "has kept silent all day",
        "has not spoken today",
        "has not said a word today",
        "is staying silent while we talk",
    ),
    "seer_evil": (
        "showed as evil when I checked",
        "is evil: I checked in the night",
        "came up evil when I looked in the night",
        "is evil; my night check said so",
    ),
    "hunch": (
        "gives me a bad feeling",
        "seems wrong to me, though I lack proof",
        "makes me uneasy",
        "has me worried, with no proof yet",
    ),
    "vote_wolf": (
        "voted for {x}, who was a werewolf",
        "helped vote out {x}, who was a werewolf",
        "cast a ballot against {x}, who was a werewolf",
        "put a vote on {x}, and {x} was a werewolf",
    ),
    "accused_quiet": (
        "was accused by {x} only for being quiet",
        "is blamed by {x} for nothing but silence",
        "was called out by {x} just for keeping quiet",
        "is under fire from {x} only for saying little",
    ),
    "accused_payback": (
        "was accused by {x} only in return for an accusation",
        "is being accused by {x} as payback",
        "was named by {x} only after naming {x}",
        "got an accusation back from {x}, nothing more",
    ),
    "accused_hunch": (
        "was accused by {x} on a hunch",
        "is suspected by {x} on a feeling alone",
        "was named by {x} with no fact behind it",
        "stands accused by {x} on nothing but a hunch",
    ),
    "accused_fact": (
        "was accused by {x}, and I am not convinced",
        "was named by {x}, but I read it differently",
        "is suspected by {x}; I do not share that view",
        "was called out by {x}, and I see it another way",
    ),
}

#: A reason another seat stated today about the same player, referred to instead of said
#: again (``speech_acts.Echo`` with no ``other``): whole sentences per act, naming who
#: said it (``{s}``), so a table defending one player does not repeat one clause.
BACKREFS: dict[str, tuple[str, ...]] = {
    ACCUSE: (
        "I suspect {t}, for the reason {s} gave.",
        "{s} made the case against {t}, and it holds.",
        "As {s} said, {t} is the one to watch.",
        "{s}'s point about {t} stands; {t} gets my vote.",
        "I follow {s} on {t}, for the same reason.",
    ),
    DEFEND: (
        "I trust {t}, for the reason {s} gave.",
        "As {s} said, leave {t} alone.",
        "{s}'s point about {t} stands; I do not think {t} is a wolf.",
        "{s} already said why {t} is no wolf, and I agree.",
        "Do not vote {t}; {s} gave the reason.",
    ),
}

#: The same kind of fact said of another player today (``speech_acts.Echo.other``):
#: short clauses about the target that say "too", then where it was said (``TAILS``;
#: ``{tail}`` marks where it goes, else at the end). ``{x}`` as in ``REASONS``. Each
#: sentence that names a dead ``{x}`` keeps a past-tense word ("had", "was").
LIKE: dict[str, tuple[str, ...]] = {
    "vote_wolf": (
        "had a vote on the wolf {x} too{tail}",
        "was also one of the votes on {x}{tail}",
        "also voted for {x}{tail}, and {x} was the wolf",
    ),
    "vote_dead": (
        "had a vote on {x} too{tail}",
        "was also one of the votes on {x}{tail}",
        "also voted for {x}{tail}, and {x} was {d}",
    ),
    "accused_hunch": (
        "is another of {x}'s hunches{tail}",
        "is accused by {x} on a hunch too{tail}",
        "is one more player {x} suspects on a feeling{tail}",
    ),
    "accused_quiet": (
        "is also blamed by {x} for being quiet{tail}",
        "is another player {x} calls out for silence{tail}",
        "is accused by {x} only for quiet too{tail}",
    ),
    "accused_payback": (
        "is also only {x}'s payback{tail}",
        "got the same tit-for-tat from {x}{tail}",
        "is accused by {x} in return too{tail}",
    ),
    "accused_fact": (
        "is also accused by {x}, and I doubt it{tail}",
        "is another of {x}'s suspects{tail}, and I doubt it",
        "faces the same doubtful case from {x}{tail}",
    ),
}

#: Where the like fact was said: ``{y}`` the player it was said of, ``{s}`` who said it
#: ("I" for the speaker; a tail naming ``{s}`` is left out when ``{s}`` is the target).
TAILS: tuple[str, ...] = (", like {y}", ", as {s} said of {y}", ", the same as {y}")

#: A few more wordings of the commonest kinds in each character's own voice.
STYLE_REASONS: dict[Playstyle, dict[str, tuple[str, ...]]] = {
    Playstyle.PROVOKER: {
        "accused_me": ("came at me today", "went for my throat today"),
        "quiet": ("is hiding behind silence today", "has not dared to say a thing today"),
        "hunch": ("smells wrong to me",),
        "accused_fact": ("was attacked by {x}, and I call that weak",),
        "accused_payback": ("was hit back by {x} out of spite",),
    },
    Playstyle.GUARDIAN: {
        "accused_me": ("turned on me today", "pointed at me before anyone else today"),
        "quiet": ("has not said a word to us today", "has left the rest of us to talk"),
        "hunch": ("worries me for the village's sake",),
        "accused_fact": ("was accused by {x}, and we should be careful",),
        "accused_quiet": ("is blamed by {x} just for being shy",),
    },
    Playstyle.TRICKSTER: {
        "accused_me": ("picked me out today, how convenient", "chose me of all people today"),
        "quiet": ("has been awfully quiet today", "is playing the silent card today"),
        "hunch": ("is a bit too relaxed for my taste",),
        "accused_fact": ("was accused by {x}, which is a little too neat",),
        "accused_payback": ("was accused by {x} in a tit-for-tat",),
    },
    Playstyle.MAVERICK: {
        "accused_me": ("singled me out today", "made me the target today"),
        "quiet": ("keeps silent while we argue", "lets everyone else do the talking"),
        "hunch": ("does not add up for me",),
        "accused_fact": ("was accused by {x}, and I refuse to follow",),
        "accused_hunch": ("was accused by {x} on a whim",),
    },
    Playstyle.MOUSE: {
        "accused_me": ("said I was suspicious today", "thinks I am the wolf"),
        "quiet": ("has not spoken up today", "has been very quiet today"),
        "hunch": ("makes me a little nervous",),
        "accused_fact": ("was accused by {x}, and that worries me",),
        "accused_quiet": ("was blamed by {x} just for being quiet, like me",),
    },
    Playstyle.STEADY: {
        "accused_me": ("named me today", "put my name forward today"),
        "quiet": ("has said nothing so far today", "has not joined the talk today"),
        "hunch": ("does not sit right with me",),
        "accused_fact": ("was accused by {x}, and that is not enough for me",),
        "accused_hunch": ("was accused by {x}, but a feeling is not a reason",),
    },
    Playstyle.ANALYST: {
        "accused_me": ("accused me earlier today", "made a case against me today"),
        "quiet": ("has made no statement today", "has given us no information today"),
        "hunch": ("fits no pattern I trust",),
        "accused_fact": ("was accused by {x}; the case does not hold up yet",),
        "accused_payback": ("was accused by {x} only as a counterattack",),
    },
}

#: Questions, whole sentences per reason kind: what is asked follows from the fact (a
#: player who accused someone is asked why, not whom they suspect).
QUESTIONS: dict[str, tuple[str, ...]] = {
    "q_quiet": (
        "{t}, we have not heard from you today. Whom do you suspect?",
        "{t}, you have said nothing today. Who worries you?",
        "I want to hear from {t}, who has been silent all day. What is your read?",
        "{t}, you have kept quiet so far. Where do you stand?",
        "What about {t}? Not a word today. Speak up.",
    ),
    "q_accusation": (
        "{t}, why {x}? What did you see?",
        "{t}, you accused {x}. On what grounds?",
        "I want to hear from {t}: what makes {x} your suspect?",
        "{t}, explain your case against {x}.",
        "A question for {t}: why do you suspect {x}?",
    ),
    "q_open": (
        "{t}, whom do you suspect?",
        "{t}, we have not heard your view yet. Who worries you?",
        "I want to hear from {t}. What is your read?",
        "What about {t}? Where do you stand?",
        "{t}, tell us whom you would vote for.",
    ),
    "q_read": (
        "{t}, you have not named a suspect yet. Who is it?",
        "{t}, you have spoken, but whom do you suspect?",
        "I want to hear from {t}, who has named nobody so far. What is your read?",
        "{t}, you have talked but accused no one. Who worries you?",
        "What about {t}? No suspect named yet. Who is it?",
    ),
}

#: How each character starts talking (empty: no opener). Several per style for variety.
OPENERS: dict[Playstyle, tuple[str, ...]] = {
    Playstyle.PROVOKER: ("Enough games.", "Listen to me.", "Let us be blunt."),
    Playstyle.GUARDIAN: ("Friends, stay calm.", "Let us be careful.", "For all our sakes,"),
    Playstyle.TRICKSTER: ("Here is a thought.", "Funny thing.", "Now, now."),
    Playstyle.MAVERICK: ("Forget the crowd.", "Nobody wants to say it, so I will.", "Well,"),
    Playstyle.MOUSE: ("Um,", "Sorry, just one thing.", "If I may,"),
    Playstyle.STEADY: ("Honestly,", "Fair enough.", "Okay."),
    Playstyle.ANALYST: ("Let me be precise.", "Consider the facts.", "For the record,"),
}


def _join(opener: str, sentence: str, names: set[str]) -> str:
    """Opener and sentence; after a comma the sentence goes on in lower case, except "I"
    and names."""
    first = sentence.split(" ", 1)[0].rstrip(",.:;").removesuffix("'s")
    if opener.endswith(",") and first != "I" and first not in names:
        return f"{opener} {sentence[0].lower()}{sentence[1:]}"
    return f"{opener} {sentence}"


def _phrase(line: str, phrase: str) -> str:
    """Append the model's phrase as its own sentence, unless it would make the line repeat
    four words (the phrase is flavour; the act is the message)."""
    phrase = phrase.strip().strip('"').strip()
    if not phrase:
        return line
    if phrase[-1] not in ".!?":
        phrase += "."
    joined = f"{line} {phrase[0].upper()}{phrase[1:]}"
    tokens = text_tokens(joined)
    grams = [tuple(tokens[i : i + 4]) for i in range(len(tokens) - 3)]
    return line if len(set(grams)) < len(grams) else joined


def wordings(
    move: Move, names: dict[str, str], style: Playstyle, speaker: str = ""
) -> list[tuple[str, str]]:
    """The wordings of ``move``'s reason as (key, text): the style's own first, then the
    common ones. The key ("quiet:2", "quiet:maverick:0") names a wording so that a speaker's
    next line can avoid it. A move without a known kind keeps its clause."""
    kind = move.kind
    pool = QUESTIONS if move.act == QUESTION else REASONS
    if kind not in pool:
        return [("", move.because)]
    # the speaker is "me" in its own line ("Priya, why me?"), never a third person
    x = "me" if move.about and move.about == speaker else names.get(move.about, move.about)
    fill = {"x": x, "d": move.detail, "t": names.get(move.target, move.target)}
    own = [
        (f"{kind}:{style.value}:{i}", w.format(**fill))
        for i, w in enumerate(STYLE_REASONS.get(style, {}).get(kind, ()))
    ]
    common = [(f"{kind}:{i}", w.format(**fill)) for i, w in enumerate(pool[kind])]
    return own + common


def _person(seat: str, names: dict[str, str], speaker: str, me: str) -> str:
    return me if seat == speaker else names.get(seat, seat)


def like_wordings(
    move: Move, names: dict[str, str], echo: Echo, speaker: str = ""
) -> list[tuple[str, str]]:
    """The reason of ``move`` as the same kind of fact said of ``echo.other`` "too",
    each short clause with each place it was said, as (key, text)."""
    x = _person(move.about, names, speaker, "me")
    y = _person(echo.other, names, speaker, "me")
    s = _person(echo.speaker, names, speaker, "I")
    tails = [
        (j, tail.format(y=y, s=s))
        for j, tail in enumerate(TAILS)
        if "{s}" not in tail or echo.speaker != move.target
    ]
    out: list[tuple[str, str]] = []
    for i, clause in enumerate(LIKE[move.kind]):
        if "{tail}" not in clause:
            clause += "{tail}"
        for j, tail in tails:
            text = clause.format(x=x, d=move.detail, tail=tail)
            out.append((f"{move.kind}:like:{i}:{j}", text))
    return out


def backref_lines(
    move: Move, names: dict[str, str], echo: Echo, style: Playstyle
) -> list[tuple[str, str]]:
    """``move`` said as a back-reference to ``echo.speaker``'s line (the same fact), as
    (key, line), each alone and after each of the style's openers."""
    t = names.get(move.target, move.target)
    s = names.get(echo.speaker, echo.speaker)
    players = set(names.values())
    return [
        (f"ref:{move.act}:{i}", line)
        for i, template in enumerate(BACKREFS[move.act])
        for line in _voiced(template.format(t=t, s=s), style, players)
    ]


def _sentences(move: Move, names: dict[str, str], why: str) -> list[str]:
    """Every template of ``move``'s act around one reason wording (for a question the
    wording is the whole sentence)."""
    if move.act == QUESTION:
        return [why]
    t = names.get(move.target, move.target)
    reading = "a werewolf, or at least evil" if move.reading == "evil" else "not evil"
    role = with_article(Role(move.role)) if move.role else ""
    return [
        template.format(
            t=t,
            why=why,
            why_t=f"{t} {why}",
            T_why=f"{t} {why}",
            why_it=f"{t} {why}",
            s=names.get(move.with_seat, move.with_seat),
            role=role,
            reading=reading,
        )
        for template in TEMPLATES[move.act]
    ]


def _voiced(sentence: str, style: Playstyle, players: set[str]) -> list[str]:
    """The sentence alone and after each of the style's openers."""
    return [sentence, *(_join(opener, sentence, players) for opener in OPENERS[style])]


def candidates(move: Move, names: dict[str, str], style: Playstyle) -> list[str]:
    """Every wording of ``move`` in the voice of ``style``: each reason wording in each
    template, alone and after each of the style's openers."""
    players = set(names.values())
    return [
        line
        for _, why in wordings(move, names, style)
        for sentence in _sentences(move, names, why)
        for line in _voiced(sentence, style, players)
    ]


def render(
    move: Move,
    names: dict[str, str],
    style: Playstyle,
    rng: Rng,
    phrase: str = "",
    avoid: Iterable[str] = (),
    echo: Iterable[str] = (),
    used: Mapping[str, int] | None = None,
    last: str = "",
    speaker: str = "",
    ref: Echo | None = None,
    fewest_repeats: bool = False,
) -> tuple[str, str]:
    """The move as one or two sentences in the voice of ``style`` and the key of the
    reason wording it used; ("", "") for quiet.

    The reason wording: not ``last`` (the wording of the speaker's previous line) while
    another exists, and the least ``used`` in the game so far, seeded among equals.
    Then the sentence (``fewest_repeats``: the wordings repeating the fewest 4-word runs
    of ``avoid`` first, so rendered talk repeats itself less across a game); ``avoid``
    holds lines already said (a line that repeats one, or shares eight tokens with one,
    is passed over while another exists); ``echo``: what
    the seat's prompt shows (its option labels), likewise not copied
    (``core.wording.distinct_line``); a line copying it is said only when every
    wording does.

    ``ref``: an earlier line today that already stated this reason
    (``speech_acts.earlier_statement``): the same fact is referred to by who said it
    (``BACKREFS``), a like fact about another player said short with "too" (``LIKE``)."""
    if move.act == QUIET:
        return "", ""
    counts = used or {}
    players = set(names.values())
    groups: list[tuple[str, list[str]]]
    if ref is not None and not ref.other:
        by_key: dict[str, list[str]] = {}
        for key, text in backref_lines(move, names, ref, style):
            by_key.setdefault(key, []).append(text)
        groups = list(by_key.items())
    else:
        if ref is not None:
            options = like_wordings(move, names, ref, speaker)
        else:
            options = wordings(move, names, style, speaker)
        groups = [
            (
                key,
                [
                    line
                    for sentence in _sentences(move, names, why)
                    for line in _voiced(sentence, style, players)
                ],
            )
            for key, why in options
        ]
    fresh = [g for g in groups if not last or g[0] != last] or groups
    # seeded order, then the least used first (a stable sort keeps the seeded order)
    ordered = sorted(rng.shuffled(fresh), key=lambda g: counts.get(g[0], 0))
    lines: list[str] = []
    key_of: dict[str, str] = {}
    for key, group in ordered:
        for line in rng.shuffled(group):
            key_of.setdefault(line, key)
            lines.append(line)
    labels, said = list(echo), list(avoid)
    if fewest_repeats:  # a stable sort: among equals the least used reason wording still leads
        grams = {g for text in said for g in ngrams(text_tokens(text), 4)}
        lines.sort(key=lambda ln: sum(g in grams for g in ngrams(text_tokens(ln), 4)))
    line = distinct_line(lines, said, rng, labels, ordered=True)
    if shares_run(line, labels):
        # The option label is the game's own words in the prompt: never read it back out
        # while a wording that does not is left which is not a whole line said before.
        # (Checked only when the pick copies one: the usual pick already avoids them.)
        spoken = {" ".join(text_tokens(a)) for a in said}
        own_words = [ln for ln in lines if not shares_run(ln, labels)]
        if any(" ".join(text_tokens(ln)) not in spoken for ln in own_words):
            line = distinct_line(own_words, said, rng, labels, ordered=True)
    return _phrase(line, phrase), key_of[line]
