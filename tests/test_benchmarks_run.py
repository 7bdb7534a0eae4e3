"""Every model-free benchmark still runs, on small inputs.

The figures in docs/benchmarks.md come from these scripts; a kernel change that breaks one
(an API it uses moved) must fail here rather than on the day someone re-measures. Only
that the script runs and reports is checked: the figures themselves are not timed here.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

#: ``slow`` (not in the fast part): each benchmark script as its own process.
pytestmark = pytest.mark.slow

ROOT = Path(__file__).resolve().parents[1]

RUNS = {
    "runtime_throughput": ["--games", "1"],
    "events_for": ["--events", "500", "--repeat", "1"],
    "host_load": ["--games", "2", "--no-postgres"],
    "escape_validate": ["--sizes", "50", "100", "--repeats", "1"],
    "escape_engine": ["--actions", "50", "--repeats", "1"],
    "werewolf_context": ["--players", "7", "--day", "2", "--reps", "1"],
    "werewolf_routing": ["--players", "5"],
    "werewolf_call_budget": ["--games", "1", "--players", "5"],
    "campaign_context": ["--sessions", "2", "--turns", "2"],
    "campaign_recall": ["--json"],
    "diplomacy_bot_game": ["--games", "1", "--end-year", "1901"],
    "tournament_scale": ["--games", "2", "--no-ray"],
    "rendered_talk": ["--games", "1", "--players", "5"],
    "web_page_cost": ["--repeat", "3"],
    "audit_speed": ["--minutes", "10"],
    "gate_screen": [],
    "field_guards": ["tests/fixtures/campaign_local.sqlite", "tests/fixtures/dipbot_local.json"],
    "talk_quality": ["--db", "tests/fixtures/missing_local.sqlite", "--examples", "2"],
    "missing_person_wait": ["--model", "scripted", "--minutes", "6", "--timeout", "60"],
    "campaign_wait": ["--play", "--model", "scripted", "--turns", "2", "--timeout", "60"],
}


@pytest.mark.parametrize("name", sorted(RUNS))
def test_benchmark_runs_on_small_inputs(name: str) -> None:
    out = subprocess.run(
        [sys.executable, str(ROOT / "benchmarks" / f"{name}.py"), *RUNS[name]],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert out.returncode == 0, out.stderr[-3000:]
    assert out.stdout.strip(), "the benchmark printed nothing"
    last = out.stdout.strip().splitlines()[-1]
    if last.startswith("{"):
        assert json.loads(last), "the benchmark's closing JSON is empty"
