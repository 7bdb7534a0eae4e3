"""A tiny real game that exercises every path of the runner (see ``game.py``)."""
