"""Escape's surface adapters: its ``parlour escape ...`` sub-commands."""
