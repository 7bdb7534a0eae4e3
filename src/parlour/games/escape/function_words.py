"""Closed lists of plain English words that the phrasing rules and the keyword classifier
read: question openers, determiners and subjects, fillers, greetings, words for a person.

Each list has its one home here and is imported where it is read; a list built from others
(``DETERMINERS``, ``SUBJECTS``, ``QUESTION_OPENERS``) is their union, so a word is written
once. None holds a scenario's words or a labelled set's sentence.
"""

from __future__ import annotations


def _listed(text: str) -> frozenset[str]:
    return frozenset(text.split())


#: The words that open a question about something (wh-words).
WH_WORDS = _listed("what where who whom whose why how which")
#: Wh-words run together with "is" as players type them ("whats on the note").
WH_CONTRACTED = _listed("whats wheres whos hows")
#: Words that mean every one of a set at once ("press both buttons"): no one of them.
EVERY_ONE = _listed("both every each")
#: Auxiliaries that open a yes/no question before their subject ("is the door locked").
AUXILIARIES = _listed("is are am was were does did has have")
#: What a question opens with for ``is_question``: a wh-word or an auxiliary.
QUESTION_STARTS = WH_WORDS | AUXILIARIES
#: Modal and "do" openers: a question when they open a call to someone ("can you hear me").
MODALS = _listed("do can could will would should may might")
#: Modals that weigh a choice when the player is their subject ("should i ...", "shall we
#: ..."): a question to oneself, never a deed, with or without its "?".
DELIBERATING = _listed("should shall")
#: What a question opens with when it is no call by name ("what lady?" is no "talk to").
QUESTION_OPENERS = QUESTION_STARTS | MODALS

DEMONSTRATIVES = _listed("this that these those")
POSSESSIVES = _listed("my your her his its our their")
#: Somebody unnamed: "CAN ANYONE HEAR ME" is a call, not a polite order.
ANYONE = _listed("anyone anybody someone somebody")
#: Words that open a noun phrase: a clause opening with one names a thing, not a deed.
DETERMINERS = _listed("the a an some another") | DEMONSTRATIVES | POSSESSIVES
#: What may follow an auxiliary in a question ("is the door", "have you").
SUBJECTS = (
    _listed("i you he she it we they there the anything something any")
    | DEMONSTRATIVES
    | POSSESSIVES
    | ANYONE
)

#: Words a sentence may open with before its verb ("ok", "hmm", "right, let's").
FILLERS = _listed(
    """
ok okay k hmm hm um umm uh er erm well right alright yes yeah yep sure fine maybe perhaps
actually next let lets think suppose time ah aha oh wow great cool first instead now
finally
obviously clearly probably definitely naturally surely honestly basically
"""
)
#: A sentence opening with a greeting is speech to someone, even when it ends in "?"
#: ("hello? excuse me, can you hear me?").
GREETINGS = _listed("hello hi hey hallo oi excuse pardon greetings evening morning")
#: The people a player may call to by what they are ("ghost lady?", "miss, can you hear
#: me?"): plain English words for a person, not any scenario's.
PEOPLE = _listed(
    """ghost spirit phantom apparition spectre specter woman lady girl miss madam madame
maam man sir mister mate"""
)
