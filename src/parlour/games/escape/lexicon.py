"""Word senses for the keyword classifier: everyday words a player may use for the same deed.

``text.SYNONYMS`` folds a word onto *one* form, which suits the validator's near-duplicate
check. A player's word often fits several deeds ("kick" the door is banging on it, "kick"
the grate is forcing it), so here a word belongs to any number of *senses* and two words
match when they share one. The lists are plain English for rooms, doors, locks, lights and
talk, written from the language; a scenario's own words need no entry (they match
themselves). The words added with the head-noun step (pull, glance, unfold, hold, mash,
lite, alight, stand, mount, head, the set/type senses, reattach, guess, rail, notice) are
plain English too, but were chosen while reading the shipped label sets' misses: they are
tuned on those sets, which is why the blind sets exist.
"""

from __future__ import annotations

from functools import cache

from parlour.games.escape.text import SYNONYMS, stem

_SENSES_TEXT = """
open: open unlock unbolt unlatch unfasten prise prize pry yank slide lift heave pull
unlock: unlock open key
force: force kick shove break smash prise prize pry wrench heave shoulder ram bust push pull
bang: bang knock hammer pound kick thump beat rap batter
shout: shout yell scream holler cry bellow howl help
talk: talk speak say greet hello hi ask tell whisper communicate chat address converse
name: name call say tell whisper address
call: call ring dial
read: read skim peruse scan browse leaf glance unfold
examine: examine inspect look study check gaze view observe scrutinise scrutinize stare
search: search rummage dig sift rake poke feel hunt scour root comb
press: press push hit tap jab punch slam poke hold mash
take: take grab pick get collect
light: light ignite kindle strike lite alight
climb: climb descend clamber scramble step go enter stand mount head
plug: plug reconnect connect insert attach reattach fix
flip: flip flick switch toggle throw
release: release ease lower pull
set: set turn spin dial rotate twist fiddle
type: type enter key input punch guess
use: use switch turn activate
ghost: ghost spirit phantom apparition figure woman lady spectre specter
painting: painting picture portrait canvas
note: note letter paper message
newspaper: newspaper paper
torch: torch flashlight
phone: phone handset receiver telephone
lever: lever handle
crawlspace: crawlspace crawl tunnel
lantern: lantern lamp
hatch: hatch trapdoor
cable: cable wire cord lead plug
handrail: handrail rail railing
certificate: certificate notice licence permit
fireplace: fireplace hearth ash ashes soot cinders
"""


def _parse(text: str) -> dict[str, frozenset[str]]:
    senses: dict[str, set[str]] = {}
    for line in text.strip().splitlines():
        name, members = line.split(":", 1)
        for word in members.split():
            senses.setdefault(stem(word, fold=False), set()).add(name)
    # The validator's one-form folds are senses too ("lamp" / "lantern").
    for word, canonical in SYNONYMS.items():
        for member in (word, canonical):
            senses.setdefault(member, set()).add(f"={canonical}")
    return {w: frozenset(s) for w, s in senses.items()}


SENSES = _parse(_SENSES_TEXT)


@cache
def senses(token: str) -> frozenset[str]:
    """The token itself plus every sense it belongs to (``#``-prefixed)."""
    return frozenset({token, *(f"#{s}" for s in SENSES.get(token, ()))})
