"""``parlour escape validate`` on big generated scenarios: parse + validate must stay linear.

A generated scenario of N actions (a layered random DAG: each action needs up to three of
the previous 40; one in ten is a code answer revealed by an earlier consequence; words are
drawn from a small vocabulary, so descriptions share tokens as real ones do) is written as
YAML and validated like the CLI does. Reported per size: parse seconds, validate seconds,
their sum, and the ratio against the smallest size (linear: ratio ≈ size ratio).

    uv run python benchmarks/escape_validate.py [--sizes 1000 10000] [--repeats 3]
"""

from __future__ import annotations

import argparse
import json
import time
from pathlib import Path
from tempfile import TemporaryDirectory

from parlour.core.rng import Rng
from parlour.games.escape.loader import load_scenario
from parlour.games.escape.validate import has_errors, validate

VERBS = [
    "open",
    "pull",
    "push",
    "read",
    "turn",
    "lift",
    "light",
    "climb",
    "search",
    "unlock",
    "move",
    "shake",
]
NOUNS = [
    "lamp",
    "rope",
    "key",
    "door",
    "chest",
    "map",
    "coin",
    "bell",
    "book",
    "clock",
    "mask",
    "ring",
    "sword",
    "shell",
    "stone",
]
PLACES = [
    "hall",
    "cellar",
    "attic",
    "garden",
    "tower",
    "vault",
    "kitchen",
    "library",
    "chapel",
    "stable",
]


def scenario_yaml(n: int, seed: int = 7) -> str:
    rng = Rng(seed)
    out = ["title: Generated", "intro: A house of many rooms.", "world: [Doors everywhere.]"]
    out.append("actions:")
    codes: dict[int, str] = {}
    for i in range(n - 1):
        window = list(range(max(0, i - 40), i))
        needs = sorted(rng.sample(window, min(len(window), rng.randint(0, 3))))
        verb, noun, place = rng.choice(VERBS), rng.choice(NOUNS), rng.choice(PLACES)
        consequence = f"Step {i} happens in the {place}."
        if i % 10 == 5:  # this consequence reveals the code of the next answer action
            codes[i + 5] = f"{rng.randint(1000, 9999)}-{i}"
            consequence += f" Scratched on the wall: {codes[i + 5]}."
            needs = sorted({*needs, i - 1})
        out.append(f"  - id: s{i}")
        out.append(f"    description: {verb} the {noun} in the {place} ({i})")
        out.append(f"    consequence: {json.dumps(consequence)}")
        if needs:
            out.append(f"    needs: [{', '.join(f's{j}' for j in needs)}]")
        if i in codes:
            out.append(f"    answer: '{codes[i]}'")
            out.append(f"    hint: The wall in step {i - 5} shows a code.")
        elif rng.random() < 0.2:
            out.append(f"    hint: Try the {noun}.")
    out.append(f"  - id: s{n - 1}")
    out.append("    description: leave by the front door")
    out.append("    consequence: You are out.")
    out.append(f"    needs: [s{n - 2}]")
    out.append("    ends_game: true")
    out.append("    good: true")
    return "\n".join(out) + "\n"


def measure(n: int, folder: Path, repeats: int) -> tuple[float, float]:
    path = folder / f"gen{n}.yaml"
    path.write_text(scenario_yaml(n), encoding="utf-8")
    parse_s, validate_s = [], []
    for _ in range(repeats):
        start = time.perf_counter()
        scenario = load_scenario(path)
        parse_s.append(time.perf_counter() - start)
        start = time.perf_counter()
        problems = validate(scenario)
        validate_s.append(time.perf_counter() - start)
        assert not has_errors(problems), [str(p) for p in problems[:3]]
    return min(parse_s), min(validate_s)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[1000, 10_000])
    parser.add_argument("--repeats", type=int, default=3)
    args = parser.parse_args()
    with TemporaryDirectory() as tmp:
        rows = [(n, *measure(n, Path(tmp), args.repeats)) for n in args.sizes]
    base_n, base_p, base_v = rows[0]
    print("| actions | parse s | validate s | total s | total ÷ smallest | size ÷ smallest |")
    print("|---:|---:|---:|---:|---:|---:|")
    for n, p, v in rows:
        ratio = (p + v) / (base_p + base_v)
        print(f"| {n:,} | {p:.3f} | {v:.3f} | {p + v:.3f} | {ratio:.1f} | {n / base_n:.0f} |")


if __name__ == "__main__":
    main()
