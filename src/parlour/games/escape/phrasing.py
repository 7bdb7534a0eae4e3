"""How players phrase things, rewritten into the plain imperative the keyword classifier scores.

The classifier matches words; players type contractions ("I'll", "what's"), fillers ("ok",
"hmm, let's"), text-adventure abbreviations ("x note", "rd note"), codes in words
("nineteen sixty two"), instruments before goals ("use the phone to call the desk"), and
phrasal verbs ("punch in", "speak into", "see what's behind"). Each rule here is written
from general English and classic text-adventure habits, not from any labelled set, and
each only rewrites the message: the scoring and its thresholds are unchanged.
"""

from __future__ import annotations

import re

from parlour.games.escape.function_words import PEOPLE, QUESTION_OPENERS

# --- codes in words -----------------------------------------------------------------------

_UNITS = {
    "zero": 0,
    "oh": 0,
    "nought": 0,
    "nil": 0,
    "one": 1,
    "two": 2,
    "three": 3,
    "four": 4,
    "five": 5,
    "six": 6,
    "seven": 7,
    "eight": 8,
    "nine": 9,
}
_TEENS = {
    "ten": 10,
    "eleven": 11,
    "twelve": 12,
    "thirteen": 13,
    "fourteen": 14,
    "fifteen": 15,
    "sixteen": 16,
    "seventeen": 17,
    "eighteen": 18,
    "nineteen": 19,
}
_TENS = {
    "twenty": 20,
    "thirty": 30,
    "forty": 40,
    "fourty": 40,
    "fifty": 50,
    "sixty": 60,
    "seventy": 70,
    "eighty": 80,
    "ninety": 90,
}
_SCALES = {"hundred": 100, "thousand": 1000}
_NUMBER_WORD = "|".join(sorted([*_UNITS, *_TEENS, *_TENS, *_SCALES], key=len, reverse=True))
_NUMBER_RUN = re.compile(
    rf"\b(?:{_NUMBER_WORD})(?:(?:[\s-]+|\s+and\s+)(?:{_NUMBER_WORD}))+\b", re.IGNORECASE
)


def _run_digits(run: list[str]) -> str:
    """ "nineteen sixty two" → "1962" (as people say years and codes: pairs and digits read
    one after another); "one thousand nine hundred and sixty two" → "1962" (arithmetic)."""
    if any(w in _SCALES for w in run):
        total = current = 0
        for w in run:
            if w in _SCALES:
                current = max(current, 1) * _SCALES[w]
                if _SCALES[w] == 1000:
                    total, current = total + current, 0
            else:
                current += _UNITS.get(w, 0) + _TEENS.get(w, 0) + _TENS.get(w, 0)
        return str(total + current)
    out: list[str] = []
    i = 0
    while i < len(run):
        w = run[i]
        if w in _TENS:
            unit = run[i + 1] if i + 1 < len(run) else ""
            if unit in _UNITS and _UNITS[unit] > 0:
                out.append(str(_TENS[w] + _UNITS[unit]))
                i += 2
                continue
            out.append(str(_TENS[w]))
        elif w in _TEENS:
            out.append(str(_TEENS[w]))
        else:
            out.append(str(_UNITS[w]))
        i += 1
    return "".join(out)


def numbers_said(text: str) -> frozenset[str]:
    """The numbers a text says, as digits: digit runs ("4", "1952"), codes said in words
    (``numbers_as_digits``) and a lone number word from two to nineteen ("lane four"); "one"
    is left out ("the red one")."""
    digits = numbers_as_digits(text)
    found = set(re.findall(r"\d+", digits))
    for w in re.findall(r"[a-z]+", digits.lower()):
        n = _UNITS.get(w, _TEENS.get(w))
        if n is not None and n >= 2:
            found.add(str(n))
    return frozenset(found)


def numbers_as_digits(text: str) -> str:
    """Runs of number words that make a code (three digits or more) written as digits; a
    lone "one" ("the red one") or "two buttons" stays a word."""

    def digits(match: re.Match[str]) -> str:
        run = [w for w in re.split(r"[\s-]+", match.group(0).lower()) if w != "and"]
        value = _run_digits(run)
        return value if len(value) >= 3 else match.group(0)

    return _NUMBER_RUN.sub(digits, text)


#: Three or more single digits typed apart ("1 9 6 2", "2-9-0-4"): one number. Between the
#: digits a hyphen or a gap: any whitespace in a message the classifier reads (line breaks
#: too), only spaces and tabs for the answer matcher (a code is typed on one line).
_SPACED_DIGITS = {
    across: re.compile(rf"(?<!\w)\d(?:[{gap}-]\d(?!\w)){{2,}}")
    for across, gap in ((True, r"\s"), (False, r" \t"))
}


def digits_joined(text: str, *, across_lines: bool = True) -> str:
    """ "2-9-0-4" and "1 9 6 2" are codes typed apart: join them ("2904", "1962").
    ``across_lines=False`` joins only digits typed apart on one line."""
    return _SPACED_DIGITS[across_lines].sub(lambda m: re.sub(r"\D", "", m.group(0)), text)


# --- words and phrases ----------------------------------------------------------------------

_CONTRACTION = re.compile(r"(?<=\w)['’](?:ll|d|m|re|ve|s)\b", re.IGNORECASE)

#: Text-adventure and chat shorthand, expanded only where a verb or object is expected.
_SHORTHAND = {
    "x": "examine",
    "ex": "examine",
    "exam": "examine",
    "l": "look at",
    "rd": "read",
    "chk": "check",
    "srch": "search",
    "pls": "",
    "plz": "",
    "btn": "button",
    "msg": "message",
    "pic": "picture",
    "u": "you",
}


#: Phrasal verbs and idioms, rewritten into the one plain verb a description would use.
#: Each is common English for a deed an escape room has (looking inside, keying a code,
#: talking down a phone line, calling out), not a sentence from a labelled set.
_PHRASES: tuple[tuple[re.Pattern[str], str], ...] = tuple(
    (re.compile(pattern, re.IGNORECASE), replacement)
    for pattern, replacement in (
        # "see what's inside the drawer", "find out what is behind the hatch"
        (
            r"\b(?:see|look|check|find\s+out|discover)\s+what\s*(?:is|s)?\s+"
            r"(?:inside|in|behind|under|beneath|underneath)\b",
            "peek into",
        ),
        # "see what the note says": reading it
        (r"\b(?:see|find\s+out|check)\s+what\s+(?P<thing>[\w\s]+?)\s+says\b", r"read \g<thing>"),
        (
            r"\b(?:have|take)\s+(?:a\s+|another\s+|one\s+more\s+)?(?:good\s+|close\s+|quick\s+)?"
            r"look\s+at\b",
            "examine",
        ),
        # "a closer look at the portrait" (after a wish: "I'd like a closer look at"), "get a
        # good look at it": the noun phrase of looking is looking.
        (
            r"\b(?:(?:get|give\s+\w+)\s+)?an?\s+(?:(?:good|close|closer|quick|better|proper|"
            r"little|long|careful)\s+)?look\s+(?:at|over)\b",
            "examine",
        ),
        # "examine what the note says" (after "have a look at" became "examine"): reading
        (r"\bexamine\s+what\s+(?P<thing>[\w\s]+?)\s+says\b", r"read \g<thing>"),
        # "I wonder if there's anything in the drawer", "... if anything is buried in the
        # ashes", "I bet something's hidden behind it": musing about what a place hides is
        # looking in it
        (
            r"\bi\s+(?:wonder|bet|guess|suspect)\s+(?:if\s+|whether\s+)?"
            r"(?:there\s*(?:(?:is|s|are|might\s+be|could\s+be)\s+)?|theres\s+)?"
            r"(?:anything|something|stuff)\s+(?:(?:is|s|are|was|might\s+be|could\s+be)\s+)?"
            r"(?:(?:hidden|buried|tucked|stashed|kept|lying|left|lost)\s+(?:away\s+)?)?"
            r"(?:inside|in|behind|under|beneath|underneath|among)\b",
            "peek into",
        ),
        # "I wonder what's in the drawer": musing about what a place holds is looking in it
        (
            r"\bi\s+wonder\s+what\s*(?:is|s|might\s+be|could\s+be)?\s+"
            r"(?:inside|in|behind|under|beneath|underneath)\b",
            "peek into",
        ),
        # "I wonder what the note says": reading it
        (r"\bi\s+wonder\s+what\s+(?P<thing>[\w\s]+?)\s+says\b", r"read \g<thing>"),
        # "I wonder if the key fits the cabinet", "maybe the key with the tag fits that
        # cabinet": trying the one thing on the other
        (
            r"\b(?:i\s+wonder\s+(?:if|whether)|maybe|perhaps|i\s+bet|i\s+guess|i\s+think)\s+"
            r"(?P<tool>(?:\w+\s+){1,5}?)"
            r"(?:fits|opens|unlocks|works\s+(?:on|in|with)|goes\s+in(?:to)?)\b",
            r"use \g<tool> on",
        ),
        # "I wonder if the emergency phone works", "... whether the torch still works":
        # wishing a thing works is trying it (the room decides what trying it does)
        (
            r"\bi\s+wonder\s+(?:if|whether)\s+(?P<thing>(?:the|that|this|my)\s+(?:\w+\s+){0,2}?\w+)"
            r"\s+(?:still\s+)?(?:works|is\s+working|does\s+anything)\b(?!\s+(?:on|in|with)\b)",
            r"try \g<thing>",
        ),
        # "have a chat with the lady", "a quick word with her": talking to someone
        (
            r"\b(?:have|had|having)\s+(?:a\s+)?(?:little\s+|quick\s+|short\s+)?"
            r"(?:chat|word|talk|conversation|natter)\s+with\b",
            "talk to",
        ),
        (r"\b(?:look|peek|peep|peer)\s+(?:inside|into|in|behind)\b", "peek into"),
        (r"\b(?:look|leaf|flick|flip|thumb|go)\s+through\b", "browse"),
        (r"\b(?:look|feel|grope|dig|root|rummage)\s+(?:around\s+)?for\b", "search"),
        # "run my hands through the ashes", "push my fingers into the soot": feeling through
        # a thing with one's hands is searching it
        (
            r"\b(?:run|ran|running|put|stick|push|plunge|sink)\s+(?:my\s+|both\s+|your\s+)?"
            r"(?:hands?|fingers?)\s+(?:through|into|in|among)\b",
            "search",
        ),
        (r"\blook\s+(?:at|over)\b", "examine"),
        # "one more time", "once more", "one last time": said again, no deed of its own
        (
            r"\b(?:(?:one|a)\s+(?:more|last|final)\s+time|once\s+(?:more|again)|"
            r"for\s+the\s+(?:last|final|second)\s+time)\b",
            "again",
        ),
        (r"\b(?:punch|tap|type|enter)\s+in\b", "type"),
        (r"(?:^|(?<=[.!?;:,] )|(?<=\band )|(?<=\bthen )|(?<=\bi ))key\s+in\b", "type"),
        (r"\b(?:speak|talk)\s+(?:into|down|through|on)\b", "call on"),
        (r"\b(?:call|cry)\s+out\b", "shout"),
        (r"\b(?:turn|switch|put)\s+on\b", "switch on"),
        # "switch that on": the pronoun "that" / "this" alone is "it" (resolved later)
        (
            r"\b(?P<verb>(?:turn|switch|put|get|flick)\w*)\s+(?:that|this)\s+on\b",
            r"\g<verb> it on",
        ),
        # "put the torch on", "turn it on": the particle after its object, ending the clause
        (
            r"\b(?:turn(?:s|ed|ing)?|switch(?:es|ed|ing)?|put(?:s|ting)?|get(?:s|ting)?|"
            r"flick(?:s|ed|ing)?)\s+(?P<thing>it|them|(?:the|my|that|this)\s+"
            r"(?:\w+\s+){0,2}?\w+)\s+on(?=\s*(?:[,.!?;:]|$|\s+(?:and|then|now|please|with)\b))",
            r"switch on \g<thing>",
        ),
        (r"\b(?:set\s+off|sound|trigger)\b", "ring"),
        (r"\b(?:go|get|climb|make\s+my\s+way)\s+down\b", "climb down"),
        # "in the torchlight", "by the light of my phone": the light is the looking's
        # instrument ("squint at the certificate in the torchlight" reads it by the torch)
        (
            r"\b(?:in|by|under)\s+(?:the\s+|my\s+)?(?P<light>torch|phone|lamp|lantern|candle)"
            r"\s*light\b",
            r"with the \g<light>",
        ),
        (
            r"\b(?:in|by|under)\s+the\s+light\s+(?:of|from)\s+(?P<light>(?:the\s+|my\s+)?\w+)",
            r"with \g<light>",
        ),
        # "shine the torch on the certificate": reading or examining it by that light, the
        # light its instrument ("shine the certificate with the torch")
        (
            r"\bshine\s+(?P<light>(?:the\s+|my\s+|a\s+)?(?:\w+\s+){0,2}?\w+)\s+"
            r"(?:on|at|onto|over)\s+(?P<thing>[^,.!?;]+?)(?=\s+and\b|\s*[,.!?;]|\s*$)",
            r"shine \g<thing> with \g<light>",
        ),
        (
            r"\b(?:plug|push|stick|slot|jam|put)(?P<what>\s+(?:it|them|the(?:\s+\w+){1,3}?))?\s+"
            r"(?:back\s+)?in(?:to)?\b",
            r"plug\g<what> in",
        ),
        (r"\bwake\s+up\b", ""),
        # "get the lamp lit", "get it burning": making a thing burn is lighting it;
        # "get it going / working / started": making it do what it does is using it.
        (
            r"\b(?:get|make|have|set)\s+(?P<thing>it|them|(?:the|my|that|this)\s+(?:\w+\s+){0,2}?\w+)"
            r"\s+(?:lit|alight|burning|lighted|aflame|on\s+fire|lit\s+up)\b",
            r"light \g<thing>",
        ),
        (
            r"\b(?:get|make|have)\s+(?P<thing>it|them|(?:the|my|that|this)\s+(?:\w+\s+){0,3}?\w+)"
            r"\s+(?:going|working|started|running)\b",
            r"use \g<thing>",
        ),
        # "do what marek said with the lever": the deed someone told of, on that thing, is
        # the thing's own deed (using it)
        (
            r"\bdo\s+(?:what|as)\s+(?:\w+\s+){1,2}?(?:said|says|told\s+(?:me|us)|suggested)"
            r"\s+(?:with|to)\b",
            "use",
        ),
        # "like marek said", "as the note says", "the way she told me": the deed's reason
        # or manner recalled, no deed of its own.
        (
            r",?\s*\b(?:like|as|the\s+way)\s+(?:\w+\s+){1,2}?(?:said|says|told\s+(?:me|us)|"
            r"suggested|showed\s+(?:me|us)|explained|described)\b",
            "",
        ),
        # "maybe my phone torch would help": a thing that would help is a thing to use.
        (
            r"\b(?:maybe\s+|perhaps\s+)?(?P<thing>(?:the|my|a|an|this|that)\s+(?:\w+\s+){0,2}?"
            r"\w+)\s+(?:would|could|might|may|will|should)\s+(?:really\s+)?help\b",
            r"use \g<thing>",
        ),
        # An intention said is an order: "I'm going to try it", "I'm gonna open it".
        (
            r"\b(?:i|we)\s+(?:am\s+|are\s+)?(?:(?:obviously|just|definitely|now|then)\s+)?"
            r"(?:going\s+to|gonna|about\s+to)\s+(?=[a-z])",
            "",
        ),
        # A wish is an order: "I'd like to see inside", "I want to open it", "I'd love to".
        (
            r"\b(?:i|we)\s+(?:would\s+|really\s+|d\s+)?(?:like|love|want|wanna|need|wish|"
            r"mean|intend|plan|hope)\s+(?:to\s+)?(?=[a-z])",
            "",
        ),
        # A request for light as a noun ("light from my phone", "some light please"): asking
        # for what a lamp or torch gives is switching one on ("light the lantern" is a verb).
        (
            r"(?:^|(?<=[.!?,;]\s))(?:(?:some|more|a\s+bit\s+of|a\s+little)\s+)?light"
            r"(?=\s+(?:from|off|out\s+of|please|pls|plz|now|in\s+here|here)\b|\s*[.!?,]|\s*$)",
            "switch on the light",
        ),
        # Direction verbs: "descend", "head down", "go up" are climbing that way.
        (r"\b(?:descend|head\s+down)\b", "climb down"),
        (r"\b(?:ascend|go\s+up|head\s+up|get\s+up)\b", "climb up"),
        # "ask whoever answers for help", "tell the person on the other end": speaking to
        # someone who answers is calling them.
        (
            r"\b(?:ask|tell|talk\s+to|speak\s+to|beg)\s+(?:whoever|whomever|anyone\s+who|"
            r"someone\s+who|the\s+person\s+who|whoever\s+it\s+is\s+that)\s+"
            r"(?:answers|picks\s+up|is\s+there)\b"
            r"|\b(?:ask|tell|talk\s+to|speak\s+to)\s+(?:the\s+person|someone|whoever)\s+"
            r"(?:on|at)\s+the\s+other\s+end\b"
            # "wait for someone to answer", "listen for an answer": waiting on a line
            r"|\b(?:wait|listen|hope)\s+(?:for\s+)?(?:someone|somebody|anyone|anybody|"
            r"them|a\s+person)\s+to\s+(?:answer|pick\s+up|reply|respond)\b"
            r"|\b(?:wait|listen)\s+for\s+(?:an?\s+)?(?:answer|reply|response|voice)\b",
            "call someone",
        ),
        # "pick up the handset and ask for help": asking, with a handset taken up, is asking
        # down the line, not shouting (shouting needs no handset).
        (
            r"\b(?:pick\s+up|lift|grab|take\s+up|take|hold)\s+(?P<thing>(?:the|a|that|this)\s+"
            r"(?:\w+\s+){0,2}?(?:handset|receiver|phone|telephone))(?:\s+up)?,?\s+(?:and\s+)?"
            r"(?:then\s+)?(?:ask|beg|plead)\s+(?:someone\s+|them\s+|whoever\s+)?for\s+help\b",
            r"call someone on \g<thing>",
        ),
        # "get someone", "get help", "ring them": calling someone (the phone decides which).
        (
            r"\b(?:get|fetch|reach|raise)\s+(?:someone|somebody|anyone|anybody|help)\b",
            "call someone",
        ),
        (
            r"\b(?:ring|rang|rung|dial|dialled|dialed)\s+"
            r"(?=(?:them|him|her|someone|somebody|anyone|anybody)\b)",
            "call ",
        ),
        # "dial down to whoever is on duty", "ring through to someone": calling along a
        # phone line (dialling and ringing through need a phone; calling down may shout)
        (
            r"\b(?:ring|dial|phone)\s+(?:down|up|through|over|downstairs|upstairs)\s+to\s+"
            r"(?:whoever|whomever|someone|somebody|anyone|anybody)"
            r"(?:\s+(?:is|s)\s+(?:on\s+duty|there|awake|around))?\b",
            "call someone on the phone",
        ),
    )
)

#: "use the matches to light the lantern": the goal decides, the instrument follows.
_INSTRUMENT = re.compile(
    r"\b(?:use|using|take|grab|get)\s+(?P<tool>(?:(?!\bto\b)[\w'’ -])+?)\s+(?:to|and)\s+"
    r"(?P<goal>(?!be\b|see\b)[a-z]+\b[^.!?;]*)",
    re.IGNORECASE,
)
#: Orders over several things, or over an unspecified one of them ("press a button").
_QUANTIFIED = re.compile(
    r"\b(?:every|each|all|everything|any|some|one\s+of(?:\s+the)?)\b"
    r"|^\W*\w+\s+an?\s+\w+\W*$",
    re.IGNORECASE,
)
_IDIOMS = re.compile(r"\b(?:all\s+the\s+way|all\s+over|at\s+all|all\s+i\s+can)\b", re.IGNORECASE)


#: "your name is Eleanor, isn't it?": a statement with a tag, not a question.
_TAG_QUESTION = re.compile(
    r",\s*(?:isn['’]?t|is|aren['’]?t|are|wasn['’]?t|don['’]?t|doesn['’]?t|won['’]?t|right|"
    r"yes|no|eh|ok|okay)(?:\s+(?:it|you|she|he|they|that|i))?\s*\?"
    r"|(?<=[a-z])\s+(?:right|eh)\s*\?+\s*$",  # "ur name is margret right?"
    re.IGNORECASE,
)


#: "could I have a look at the note?": a polite request for a go at something, not a
#: question about whether it is possible ("can I open the doors now?" stays a question).
_POLITE = re.compile(
    r"\b(?:could|can|may|might)\s+(?:i|we)\s+(?P<want>(?:have|take)\s+a\s+(?:\w+\s+)?"
    r"(?:look|peek|read|go|try|chat|word|listen)\b[^?.!]*)\?+",
    re.IGNORECASE,
)


#: "I wonder if someone would pick up if I rang them": musing whether a deed would work is
#: that deed (its if-clause), the rest is the player thinking aloud. A question about what
#: a deed does ("what happens if I press red?") stays a question.
_MUSING = re.compile(
    r"\bi\s+wonder\s+(?:if|whether)\b[^.!?]*?"
    r"\bif\s+(?:i|we)\s+(?P<act>[^.!?]+)[.!?]*",
    re.IGNORECASE,
)
_VOCATIVE = re.compile(
    r"(?:^|(?<=[.!?]\s))(?P<lead>(?:(?:um+|uh+|er+m?|hmm+|oh|ah|well|ok|okay),?\s+)*)"
    r"(?P<who>[A-Za-z' ]{2,30}?)\s*(?P<end>[?!,]+)",
    re.IGNORECASE,
)


def _addressed(text: str) -> str:
    """Calling someone by what they are ("ghost lady?", "miss, can you hear me?") is talking
    to them: a phrase of at most three words, naming a person and no question word, before
    "?", "!" or "," at the start of a sentence becomes "talk to <phrase>."."""

    def talk(match: re.Match[str]) -> str:
        said = match.group("who").lower().split()
        if not (1 <= len(said) <= 3) or said[0] in QUESTION_OPENERS:
            return match.group(0)
        if not any(w.strip("'") in PEOPLE for w in said):
            return match.group(0)
        return f"{match.group('lead')}talk to {match.group('who').strip()}. "

    return _VOCATIVE.sub(talk, text)


def untagged(text: str) -> str:
    """Tag questions turned into statements: "your name is Eleanor, isn't it?" → "your name
    is Eleanor." (the negation in the tag is not the player refusing anything); a polite
    request ("could I have a look at the note?") into the request it is; a musing over a
    deed into the deed ("I wonder if anyone answers if I ring them" → "ring them."); calling
    someone ("ghost lady?") into talking to them."""
    text = _MUSING.sub(r"\g<act>.", _POLITE.sub(r"\g<want>.", _TAG_QUESTION.sub(".", text)))
    return _addressed(text)


#: "X. Before that though, I'm going to Y": Y is to be done first.
_BEFORE_THAT = re.compile(
    r"^\s*(?:but\s+)?before\s+(?:that|this|then)\b,?\s*(?:though,?\s*)?", re.IGNORECASE
)
#: "…the desk properly, starting with pulling the drawer out": the first step is a deed.
_STARTING = re.compile(r",?\s+(?:starting|beginning)\s+(?:with|by)\s+", re.IGNORECASE)
_SENTENCES = re.compile(r"[^.!?;]+[.!?;]*")


def in_order(text: str) -> str:
    """Sentences in the order the player wants them done: a sentence opening "before that"
    goes before the one it follows; "starting with X" makes X a clause of its own."""
    sentences = [s for s in _SENTENCES.findall(_STARTING.sub(". ", text)) if s.strip()]
    for i in range(1, len(sentences)):
        if _BEFORE_THAT.match(sentences[i]):
            first = _BEFORE_THAT.sub("", sentences[i]).strip()
            sentences[i - 1], sentences[i] = first + " ", sentences[i - 1]
    return "".join(sentences)


def is_quantified(text: str) -> bool:
    """An order over several things ("press every button"), not "all the way"."""
    return bool(_QUANTIFIED.search(_IDIOMS.sub(" ", text)))


def _shorthand(text: str) -> str:
    def one(match: re.Match[str]) -> str:
        word = match.group(0)
        return _SHORTHAND.get(word.lower(), word)

    return re.sub(r"\b[a-zA-Z]+\b", one, text)


def _goal_first(text: str) -> str:
    def swap(match: re.Match[str]) -> str:
        return f"{match.group('goal')} with {match.group('tool')}"

    return _INSTRUMENT.sub(swap, text)


#: "holding the lantern up I go down": a participle phrase, then the player's own clause.
_PARTICIPLE_THEN_I = re.compile(
    r"(?:^|(?<=[.!?]\s))(?P<phrase>\w+ing\b[^,.!?;]*?)\s+(?=(?:i|we)\s+[a-z])", re.IGNORECASE
)


#: A message that is only "d" or "u" (a text adventure's shorthand for down and up) is going
#: that way; inside a sentence "u" stays "you" (``_shorthand``).
_BARE_WAY = re.compile(r"^\s*([dDuU])\s*[.!]*\s*$")
_WAYS = {"d": "down", "u": "up"}


def rewrite(text: str) -> str:
    """The message in plainer words for scoring (never shown to anyone)."""
    text = _CONTRACTION.sub("", text)
    text = _PARTICIPLE_THEN_I.sub(r"\g<phrase>, ", text)
    text = numbers_as_digits(text)
    text = _BARE_WAY.sub(lambda m: f"climb {_WAYS[m.group(1).lower()]}", text)
    text = _shorthand(text)
    text = _goal_first(text)
    for pattern, replacement in _PHRASES:
        text = pattern.sub(replacement, text)
    return text
