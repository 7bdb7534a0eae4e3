"""The scripted player: it reasons from its own dice and the number of dice it cannot see.

For a bid of ``q`` × ``f`` it knows how many of its own dice show ``f``; each unseen die
shows ``f`` with probability 1/6, so the chance the bid is true is a binomial tail. It
calls liar when the standing bid is more likely false than its own best raise is true,
and otherwise makes the raise it believes most (ties: the lower bid, then its commoner face).
Like any seat, it sees only its view.
"""

from __future__ import annotations

from math import comb

from parlour.core.actions import Action, Choice
from parlour.core.decisions import Decision
from parlour.core.rng import Rng
from parlour.core.view import AnyView
from parlour_liars_dice.game import LIAR
from parlour_liars_dice.rules import Bid, parse_option


def at_least(k: int, n: int, p: float = 1 / 6) -> float:
    """P(at least ``k`` successes in ``n`` draws of chance ``p``)."""
    if k <= 0:
        return 1.0
    if k > n:
        return 0.0
    return sum(comb(n, i) * p**i * (1 - p) ** (n - i) for i in range(k, n + 1))


def belief(bid: Bid, own: tuple[int, ...], dice_in_play: int) -> float:
    """How likely ``bid`` is true, given the seat's own dice and how many it cannot see."""
    return at_least(bid.quantity - own.count(bid.face), dice_in_play - len(own))


def scripted_policy(view: AnyView, decision: Decision, rng: Rng) -> Action:
    own: tuple[int, ...] = view.private.dice
    unseen_total: int = view.public.dice_in_play
    standing: Bid | None = view.public.bid
    raises = [b for o in decision.options if (b := parse_option(o.id)) is not None]
    best = max(
        raises,
        key=lambda b: (belief(b, own, unseen_total), -b.quantity, own.count(b.face)),
        default=None,
    )
    may_call = any(o.id == LIAR for o in decision.options)
    if may_call and standing is not None:
        standing_true = belief(standing, own, unseen_total)
        if best is None or 1 - standing_true > belief(best, own, unseen_total):
            return Choice(option=LIAR)
    if best is None:  # no raise left and no bid to call: cannot happen in a legal decision
        return Choice(option=decision.options[0].id)
    return Choice(option=best.option_id)
