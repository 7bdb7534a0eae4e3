"""CPU per page: what rendering one read-only page costs the process that renders it.

Plays one scripted werewolf game part way (15 batches, still running) and one to the
end on a temporary SQLite file, then renders, ``--repeat`` times each, the spectator
page of each game and the lobby, exactly as the web app does (``Pages.render``), and
prints the CPU milliseconds per page. The first render of each is not counted (it
replays the game from its opening; later renders only bring it up to date).

    uv run python benchmarks/web_page_cost.py
"""

from __future__ import annotations

import argparse
import asyncio
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from parlour.runtime import session as sessions  # noqa: E402
from parlour.runtime.seating import SeatPlan  # noqa: E402
from parlour.runtime.store import Store, db_url  # noqa: E402
from parlour.web.pages import Pages  # noqa: E402


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--repeat", type=int, default=200)
    args = p.parse_args(argv)
    with tempfile.TemporaryDirectory() as tmp:
        store = Store(db_url(str(Path(tmp) / "pages.sqlite")))
        plan = SeatPlan(default="scripted", system_default="scripted", overrides={})
        live = sessions.start(store, "werewolf", players=6, seed=1, options={}, plan=plan)
        asyncio.run(live.run(max_batches=15))
        ended = sessions.start(store, "werewolf", players=6, seed=2, options={}, plan=plan)
        asyncio.run(ended.run())
        pages = Pages(store)
        cases = [
            (
                f"spectator page, running game ({store.event_count(live.game_id)} events)",
                "watch",
                (live.game_id, ""),
            ),
            (
                f"spectator page, finished game ({store.event_count(ended.game_id)} events)",
                "watch",
                (ended.game_id, ""),
            ),
            ("lobby (2 games)", "lobby", ()),
        ]
        for label, name, page_args in cases:
            page = pages.render(name, page_args)
            assert page.status == 200, label
            started = time.process_time()
            for _ in range(args.repeat):
                pages.render(name, page_args)
            cpu = (time.process_time() - started) / args.repeat
            print(f"{label}: {1000 * cpu:.2f} ms CPU per page ({len(page.html)} bytes)")
        store.close()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
