"""Checks a cast must pass before a game uses it: what a player reads must make sense.

A small model's cast fails in a few recognisable ways (seen on the embedded model for
"a space station"): a bio that contradicts the character's gender ("Dorothy | male |
Dorothy is a 25-year-old female"), a bio that is a fragment or someone else's line
("Eryklyn: In the midst of a long night, I was…", "Cody, a space smuggler with a
penchant for."), and a bio that names a game role ("the station's doctor"), which a
player would read as a claim. Each check returns the reason in words, or None, so the
builder can replace the piece and say why, and a hand-edited cast file gets one line.

Gender is read from words that mark it (pronouns, "woman", "brother", …); singular
"they" fits everyone. The checks are deliberately narrow: a sentence that passes them
may still be dull, but one that fails them is wrong for the reader.
"""

from __future__ import annotations

import re

from parlour.games.werewolf.roles import Role


def _words(text: str) -> frozenset[str]:
    return frozenset(text.split())


_FEMALE = _words(
    "she her hers herself woman girl female lady mother daughter sister wife aunt "
    "niece queen princess actress waitress grandmother"
)
_MALE = _words(
    "he him his himself man boy male gentleman father son brother husband uncle "
    "nephew king prince actor waiter grandfather"
)
#: Game roles (and plurals) a bio must not name: a player would take it as a claim. Not
#: "villager" (everyone is one in a village) nor "wolves" ("lost a friend to the wolves").
_ROLES = frozenset(
    word for r in Role if r is not Role.VILLAGER for word in (r.value, f"{r.value}s")
) | {"werewolves"}
_FIRST_PERSON = re.compile(r"\b(I|me|my|mine|myself|we|us|our|ours)\b")
#: "Name:" or "A:" inside the text: a line of dialogue or a transcript, not a bio.
_SPEAKER = re.compile(r"(?:^|\s)[A-Z][\w'-]*:\s")
#: Words a whole sentence does not end on: the answer was cut at its bound.
_DANGLING = _words(
    "a an the and or but of with to by for from in on at as his her their its who that which"
)
_WORD = re.compile(r"[A-Za-z']+")


def gender_in(text: str) -> str | None:
    """The gender ``text``'s own words mark (``female``/``male``), or None: no such word,
    or words of both (a bio that speaks of someone else too)."""
    found: list[str] = _WORD.findall(text)
    words = {w.casefold() for w in found}
    female, male = bool(words & _FEMALE), bool(words & _MALE)
    if female == male:
        return None
    return "female" if female else "male"


def role_named(text: str) -> str | None:
    """The first game role ``text`` names as a word, or None."""
    words: list[str] = _WORD.findall(text)
    for word in words:
        folded = word.casefold()
        if folded in _ROLES:
            return folded
    return None


def _prose_problem(text: str) -> str | None:
    """What makes ``text`` not plain narrated prose, or None."""
    if _SPEAKER.search(text):
        return "it is written as dialogue, a 'Name:' line"
    if _FIRST_PERSON.search(text):
        return "it speaks in the first person"
    if not text.endswith((".", "!", "?")) or text.endswith(("..", "…")):
        return "it is not a whole sentence"
    words = _WORD.findall(text)
    if words and words[-1].casefold() in _DANGLING:
        return f"it stops mid-sentence ('…{words[-1]}.')"
    if "{" in text or "[" in text or "<" in text:
        return "it holds markup"
    return None


def story_problem(name: str, gender: str, story: str) -> str | None:
    """Why ``story`` cannot be ``name``'s bio, or None when it can.

    A bio is one whole sentence about the character that starts with the name and goes
    on as a sentence ("Aoi is …", "Ren keeps …", "Mika, the pilot, never …"; not "Cody,
    a smuggler with …" nor "Ren and …"), names no game role and marks no gender other
    than the character's.
    """
    problem = _prose_problem(story)
    if problem:
        return problem
    match = re.match(rf"{re.escape(name)}(?:, [^,]{{1,60}},)? ([A-Za-z']+)", story)
    if match is None:
        return f"it does not start with '{name} is …'"
    if match.group(1).casefold() in _DANGLING:
        return f"it is not a sentence about {name} ('{name} {match.group(1)} …')"
    role = role_named(story)
    if role:
        return f"it names a game role ('{role}')"
    marked = gender_in(story)
    if marked is not None and marked != gender:
        return f"it calls {name} {marked}, but the gender is {gender}"
    return None


def scene_problem(scene: str) -> str | None:
    """Why ``scene`` cannot open the game, or None. The scene may speak of werewolves
    (that is the premise) but not in someone's voice, nor cut off."""
    if len(scene) < 20:
        return "it is too short"
    return _prose_problem(scene)
