"""Ray scale-out: the only test that starts Ray (a local instance with two CPUs)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from parlour.runtime.store import Store
from parlour.tournament import run as runs
from parlour.tournament import storage
from parlour.tournament.backends import ray_init
from parlour.tournament.play import same_result

#: ``slow`` (not in the fast part): starts Ray.
pytestmark = pytest.mark.slow


@pytest.fixture
def ray_local(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    # Read when Ray is imported: workers use this interpreter, not a `uv run` of their own.
    monkeypatch.setenv("RAY_ENABLE_UV_RUN_RUNTIME_ENV", "0")
    ray = pytest.importorskip("ray")
    ray_init("local", num_cpus=2)
    yield
    ray.shutdown()


def _outcomes(store: Store, **how: object) -> list[dict[str, object]]:
    params = runs.prepare(store, "werewolf", ["a=scripted", "b=random"], games=20, seed=17)
    tid = runs.create(store, params)
    report = runs.run(store, tid, **how)  # type: ignore[arg-type]
    assert report.status == "finished" and report.played == 20
    out = [g.outcome for g in storage.games(store, tid)]
    assert all(o is not None for o in out)
    return out  # type: ignore[return-value]


def test_ray_jobs1_and_jobs2_give_the_same_results(store: Store, ray_local: None) -> None:
    ray_results = _outcomes(store, ray="local")
    one = _outcomes(store, jobs=1)
    two = _outcomes(store, jobs=2)
    # games in flight: 4 per async actor on Ray, 4 per worker process, 4 inline
    actors = _outcomes(store, ray="local", concurrency=4)
    batches = _outcomes(store, jobs=2, concurrency=4)
    inline = _outcomes(store, concurrency=4)
    for a, b, c, d, e, f in zip(one, two, ray_results, actors, batches, inline, strict=True):
        assert same_result(a, b) and same_result(a, c)
        assert same_result(a, d) and same_result(a, e) and same_result(a, f)
    assert len({o["game_id"] for o in ray_results}) == 20  # 20 stored games
    assert len({o["game_id"] for o in actors}) == 20
