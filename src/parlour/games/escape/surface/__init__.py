"""Escape's surface adapters: its ``parlour escape ...`` sub-commands and its classifier
evaluation (``parlour eval escape``)."""
