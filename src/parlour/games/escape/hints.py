"""Which hint comes next: the way to a good ending as a player who does not know the answers.

The walkthrough bot knows every answer, so its shortest way to a good ending may type a
code without ever reading where the room tells it. A player asking for a hint does not
know the code: for them an answer action also needs a *clue*, an action whose consequence
tells its answer (unless the intro or the world already tells it). Hints follow that way,
clue before code, so "/hint" points at the brass plaque before it points at the padlock.
"""

from __future__ import annotations

from parlour.games.escape.analysis import GraphFacts, analyse
from parlour.games.escape.answers import answer_in_text
from parlour.games.escape.scenario import Scenario
from parlour.games.escape.text_index import WordIndex


def clue_for(scenario: Scenario, facts: GraphFacts) -> dict[str, str]:
    """Each answer action whose answer the room tells only in a consequence, and the clue
    to read first: of the reachable actions whose consequence holds the answer (and that do
    not need the answer action itself), the one with the shortest way to it."""
    told = " ".join((scenario.intro, *scenario.world))
    # Only consequences holding the answer's words are read (a room of thousands of
    # actions would otherwise read every consequence once per answer).
    index = WordIndex(a.consequence for a in scenario.actions)
    clues: dict[str, str] = {}
    for act in scenario.actions:
        if act.answer is None or answer_in_text(act.answer, told):
            continue
        tellers = [
            other.id
            for other in (scenario.actions[n] for n in index.candidates(act.answer))
            if other.id != act.id
            and other.id in facts.reachable
            and not other.ends_game
            and not facts.is_ancestor(act.id, other.id)
            and answer_in_text(act.answer, other.consequence)
        ]
        if tellers:
            clues[act.id] = min(tellers, key=facts.path_length)
    return clues


def player_way(scenario: Scenario) -> list[str]:
    """The shortest way to a good ending for a player who must find each answer first
    (``clue_for``), in the order it is done; empty when no good ending can happen."""
    clues = clue_for(scenario, analyse(scenario))
    finding = scenario.model_copy(
        update={
            "actions": tuple(
                a.model_copy(update={"needs": (*a.needs, clues[a.id])}) if a.id in clues else a
                for a in scenario.actions
            )
        }
    )
    # Clues that need each other's codes could close a loop; then the bot's own way stands.
    return shortest_good_way(finding) or shortest_good_way(scenario)


def hint_order(scenario: Scenario) -> dict[str, tuple[int, int]]:
    """Sort key for hints: the steps of ``player_way`` first, in the order they are done;
    then the rest in file order."""
    step = {aid: n for n, aid in enumerate(player_way(scenario))}
    return {
        a.id: (0, step[a.id]) if a.id in step else (1, n) for n, a in enumerate(scenario.actions)
    }


def shortest_good_way(scenario: Scenario) -> list[str]:
    """The walkthrough bot's way: the fewest actions to a good ending, answers known
    (file order among equals); empty if there is none."""
    facts = analyse(scenario)
    good = [a.id for a in scenario.actions if a.is_good_ending and a.id in facts.reachable]
    return min((facts.path_to(g) for g in good), key=len, default=[])
