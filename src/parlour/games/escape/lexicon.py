"""Word senses for the keyword classifier: everyday words a player may use for the same deed.

``text.SYNONYMS`` folds a word onto *one* form, which suits the validator's near-duplicate
check. A player's word often fits several deeds ("kick" the door is banging on it, "kick"
the grate is forcing it), so here a word belongs to any number of *senses* and two words
match when they share one. The lists are plain English for rooms, doors, locks, lights and
talk, written from the language; a scenario's own words need no entry (they match
themselves). Each deed's line holds its common English synonyms and phrasal verbs; the
objects have their everyday names (cupboard, grille, hearth); a sense may take several
lines. Families any room may have (feeding and food, animals by kind, water, stairs,
oiling, rattling) are here too, in English, with no room's own words. Some words were
chosen while reading the shipped label sets' misses (pull, glance, unfold, hold, mash,
lite, alight, stand, mount, head, the set/type senses, reattach, guess, rail, notice):
plain English, but tuned on those sets, which is why only unread sets give a fair figure.
"""

from __future__ import annotations

from functools import cache

from parlour.games.escape.text import SYNONYMS, stem

_SENSES_TEXT = """
open: open unlock unbolt unlatch unfasten prise prize pry yank slide lift heave pull crack
open: swing undo unseal unclasp raise peek
unlock: unlock open key turn
force: force kick shove break smash prise prize pry wrench heave shoulder ram bust push pull
force: bend jimmy crowbar barge burst rip tear bash boot wrest wrestle
bang: bang knock hammer pound kick thump beat rap batter slap smack whack drum
shout: shout yell scream holler cry bellow howl help shriek roar
talk: talk speak say greet hello hi ask tell whisper communicate chat address converse
talk: hey excuse pardon plead beg comfort console approach
name: name call say tell whisper address
call: call ring rang dial contact
ring: ring sound trigger
read: read skim peruse scan browse leaf glance unfold decipher thumb shine
examine: examine inspect look study check gaze view observe scrutinise scrutinize stare
examine: peer eye watch survey admire squint shine peek
search: search rummage dig sift rake poke feel hunt scour root comb probe grope fumble
search: ransack explore sweep check peek browse
press: press push hit tap jab punch slam poke hold mash depress stab
take: take grab pick get collect snatch fetch
light: light ignite kindle strike lite alight spark
climb: climb descend clamber scramble step go enter stand mount head ascend crawl hop
climb: jump lower
plug: plug reconnect connect insert attach reattach fix replace reinsert stick slot repair
flip: flip flick switch toggle throw trip hit
release: release ease lower pull drop
set: set turn spin dial rotate twist fiddle adjust align
type: type enter key input punch guess tap
code: set type enter input punch dial key
use: use switch turn activate
ghost: ghost spirit phantom apparition figure woman lady spectre specter girl miss madam
painting: painting picture portrait canvas artwork
note: note letter paper message scrap
newspaper: newspaper paper gazette
torch: torch flashlight light
phone: phone handset receiver telephone
lever: lever handle
crawlspace: crawlspace crawl tunnel passage
lantern: lantern lamp
hatch: hatch trapdoor
cable: cable wire cord lead plug
handrail: handrail rail railing
certificate: certificate notice licence license permit plaque
fireplace: fireplace hearth ash ashes soot cinders chimney
cabinet: cabinet cupboard case vitrine
door: door cupboard compartment
grate: grate grille grating bars
digits: code combination password pin number digit figure year
ceiling: ceiling roof
ladder: ladder rung
feed: feed scatter sprinkle toss throw chuck
food: food pellet flakes crumbs bread seed bait
fish: fish carp koi goldfish minnow trout
bird: bird parrot crow raven pigeon owl canary
pond: pond pool lake basin fountain
stairs: staircase stairs stair steps stairway stairwell
oil: oil grease lubricate squirt
rattle: rattle shake jiggle wiggle jostle
keyhole: keyhole lock
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


#: Every word the lexicon lists, as typed (not stemmed): the everyday half of the
#: vocabulary a typo is corrected towards (``typos.py``); the options' words are the other.
LEXICON_WORDS = frozenset(
    word for line in _SENSES_TEXT.strip().splitlines() for word in line.split(":", 1)[1].split()
)

#: Things that bear writing: looking at one ("x certificate") is reading it. Not a sense
#: (a note is not a newspaper), but the words of three senses and a few more; stems, as the
#: classifier compares them.
_WRITTEN_SENSES = ("note", "newspaper", "certificate")
_WRITTEN_TEXT = """sign label page book diary journal card poster inscription leaflet manual"""
WRITTEN = frozenset(
    stem(w, fold=False)
    for line in _SENSES_TEXT.strip().splitlines()
    if line.split(":", 1)[0] in _WRITTEN_SENSES
    for w in line.split(":", 1)[1].split()
) | frozenset(stem(w, fold=False) for w in _WRITTEN_TEXT.split())
