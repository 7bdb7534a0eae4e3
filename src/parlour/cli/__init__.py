"""User surfaces on the terminal (Typer + Rich)."""
