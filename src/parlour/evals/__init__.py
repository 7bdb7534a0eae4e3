"""Game-free helpers for evaluation reports (plots, talk-quality rules); each game's own
harness lives in its package (``GameModule.evaluation``)."""
