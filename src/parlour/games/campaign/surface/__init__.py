"""Campaign's surface adapters: its ``parlour campaign ...`` sub-commands."""
