"""Which player actions can fail, and so call for a check: a typed rule, not a director's
whim. A message is matched against the campaign's own ``checks`` first, then the general
list below; the first rule with a word (or phrase) found in the message, whole or with a
plain ending ("picking", "mixed"), decides the skill.

A general rule names candidate skills in order; the first one the campaign has is
rolled. A campaign with none of them gets no check from that rule (its own ``checks``
can say which of its skills covers the action).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from parlour.games.campaign.content import Campaign


@dataclass(frozen=True)
class Risk:
    """A check the engine holds the action to: skill, difficulty name, why."""

    skill: str
    difficulty: str
    reason: str


@dataclass(frozen=True)
class GeneralRule:
    words: tuple[str, ...]
    skills: tuple[str, ...]
    reason: str


#: actions that can fail in any campaign (checked in this order: sneaking past someone
#: "without being noticed" is stealth, not noticing)
GENERAL: tuple[GeneralRule, ...] = (
    GeneralRule(
        (
            "pick the lock",
            "picking the lock",
            "pick a lock",
            "picking a lock",
            "lockpick",
            "jimmy",
            "pry",
            "force the",
            "forcing the",
        ),
        ("lockpicking", "thievery", "sleight", "sneak", "strength"),
        "a lock or a stuck thing can hold",
    ),
    GeneralRule(
        ("sneak", "creep", "hide", "slip past", "tiptoe", "unnoticed", "without being"),
        ("stealth", "sneak", "hide"),
        "someone may notice",
    ),
    GeneralRule(
        ("steal", "pickpocket", "pocket the", "swipe"),
        ("thievery", "sleight", "sneak"),
        "a hand can be seen",
    ),
    GeneralRule(
        (
            "persuade",
            "convince",
            "talk them into",
            "talk her into",
            "talk him into",
            "bluff",
            "lie to",
            "charm",
            "bribe",
            "haggle",
        ),
        ("persuade", "persuasion", "talk", "deception", "charm"),
        "they may not be moved",
    ),
    GeneralRule(
        ("threaten", "intimidate", "scare"),
        ("intimidate", "intimidation", "persuade", "talk", "strength"),
        "they may call the bluff",
    ),
    GeneralRule(
        (
            "climb",
            "jump",
            "leap",
            "lift",
            "break down",
            "smash",
            "shove",
            "wrestle",
            "fight",
            "punch",
            "run from",
            "outrun",
        ),
        ("athletics", "climb", "strength"),
        "a body can fail",
    ),
    GeneralRule(
        (
            "search",
            "look for",
            "examine",
            "inspect",
            "investigate",
            "eavesdrop",
            "listen at",
            "spot",
        ),
        ("notice", "perception", "search", "investigate"),
        "it may be missed",
    ),
)


#: the endings a rule's word may take in a message ("pick" → "picking", "mix" → "mixed";
#: never "mix" → "mixture"), its last letter doubled or not ("jimmying", "stopping")
_ENDINGS = r"(?:(?:[a-z])?(?:s|es|ed|d|ing|ings))?"


def _matches(word: str, text: str) -> bool:
    w = word.lower()
    forms = re.escape(w) + _ENDINGS
    if w.endswith("e"):  # "hide" → "hiding"
        forms = f"(?:{forms}|{re.escape(w[:-1])}ings?)"
    return re.search(r"(?<![a-z])" + forms + r"(?![a-z])", text) is not None


def _middle(c: Campaign) -> str:
    levels = sorted(c.difficulties, key=lambda k: (c.difficulties[k], k))
    return levels[(len(levels) - 1) // 2]


def risk_of(message: str, c: Campaign) -> Risk | None:
    """The check ``message`` calls for in campaign ``c``, or None (nothing in it can fail)."""
    text = " ".join(message.lower().split())
    if not text or text.startswith("/"):
        return None
    for rule in c.checks:
        if any(_matches(w, text) for w in rule.words):
            return Risk(rule.skill, rule.difficulty or _middle(c), rule.reason)
    for general in GENERAL:
        if not any(_matches(w, text) for w in general.words):
            continue
        skill = next((s for s in general.skills if s in c.skills), None)
        if skill is not None:
            return Risk(skill, _middle(c), general.reason)
    return None
