"""Missing's surface adapters: its ``parlour missing ...`` sub-commands."""
