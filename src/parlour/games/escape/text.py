"""Light text normalisation shared by the validator (near-duplicates) and the keyword classifier.

Deliberately small: lower-case word tokens, a stop list, a few verb synonyms folded onto one
form and suffix stripping ("stemming-lite") so that "pressing", "presses" and "pressed"
meet "press". Not linguistics; a baseline that is easy to predict.
"""

from __future__ import annotations

import re

_WORD = re.compile(r"[a-z0-9]+")

_STOP_TEXT = """
a an the to of on in into at by with from for and or then so up down out off over my your his
her its it this that these those there here i me you we us he she they them is are was were be
been am do does did just now again some any all very really please let lets try trying attempt
going gonna want wanna would will shall should could can may might must first also too bit
little carefully slowly quickly gently above below beside behind under inside through onto
across near next against
"""
STOPWORDS = frozenset(_STOP_TEXT.split())

#: Verb synonyms folded onto one canonical stem (applied after stemming).
SYNONYMS = {
    "look": "examin",
    "inspect": "examin",
    "check": "examin",
    "study": "examin",
    "observ": "examin",
    "view": "examin",
    "peer": "examin",
    "investigat": "examin",
    "grab": "take",
    "pick": "take",
    "get": "take",
    "push": "press",
    "hit": "press",
    "jab": "press",
    "punch": "press",
    "speak": "talk",
    "chat": "talk",
    "ask": "talk",
    "address": "talk",
    "peruse": "read",
    "skim": "read",
    "phone": "call",
    "telephon": "call",
    "descend": "climb",
    "clamber": "climb",
    "shove": "press",
    "yell": "shout",
    "scream": "shout",
    "holler": "shout",
    "spirit": "ghost",
    "phantom": "ghost",
    "apparition": "ghost",
    "trapdoor": "hatch",
    "picture": "paint",
    "portrait": "paint",
    "letter": "note",
    "paper": "note",
    "lamp": "lantern",
    "diall": "dial",
    "tak": "take",
    "flashlight": "torch",
    "hammer": "bang",
    "pound": "bang",
    "knock": "bang",
}

_SUFFIXES = ("ings", "ing", "edly", "ed", "es", "ly", "s")


def stem(word: str, fold: bool = True) -> str:
    """Strip one common suffix and a trailing 'e', then fold synonyms (unless ``fold`` is
    false: the keyword classifier matches words through their senses instead)."""
    for suffix in _SUFFIXES:
        if word.endswith(suffix) and len(word) - len(suffix) >= 3:
            if suffix == "s" and word.endswith("ss"):
                break
            if suffix == "es" and not word.endswith(("ses", "shes", "ches", "xes", "zes")):
                word = word[:-1]  # "handles" → "handle": only the s is a suffix
                break
            word = word[: -len(suffix)]
            break
    if len(word) > 4 and word.endswith("e"):
        word = word[:-1]
    if len(word) > 3 and word[-1] == word[-2] and word[-1] not in "aeiouls":
        word = word[:-1]  # "stopp" → "stop"
    return SYNONYMS.get(word, word) if fold else word


def plain(message: str) -> str:
    """A message as the command and look patterns read it: lower case, curly apostrophes
    straightened, white space folded, and no closing or opening punctuation of a sentence."""
    return " ".join(message.lower().replace("’", "'").split()).strip(" .!?")


def words(text: str) -> list[str]:
    return _WORD.findall(text.lower())


def tokens(text: str, fold: bool = True) -> list[str]:
    """Content tokens in order: stop words and single letters dropped, stemmed, synonyms folded
    (unless ``fold`` is false)."""
    return [
        stem(w, fold) for w in words(text) if w not in STOPWORDS and (len(w) > 1 or w.isdigit())
    ]


def near(a: str, b: str) -> bool:
    """A likely typo: same first letter, both 4+ long, one edit apart (swaps count as one)."""
    if a == b:
        return True
    if len(a) < 4 or len(b) < 4 or a[0] != b[0] or abs(len(a) - len(b)) > 1:
        return False
    return _one_edit(a, b)


def _one_edit(a: str, b: str) -> bool:
    if len(a) == len(b):
        diff = [i for i in range(len(a)) if a[i] != b[i]]
        if len(diff) == 1:
            return True
        i, j = diff[0], diff[-1]
        return len(diff) == 2 and j == i + 1 and a[i] == b[j] and a[j] == b[i]
    short, long_ = (a, b) if len(a) < len(b) else (b, a)
    return any(long_[:i] + long_[i + 1 :] == short for i in range(len(long_)))


def token_set(text: str, fold: bool = True) -> frozenset[str]:
    return frozenset(tokens(text, fold))


def jaccard(a: frozenset[str], b: frozenset[str]) -> float:
    if not a and not b:
        return 1.0
    return len(a & b) / len(a | b)
