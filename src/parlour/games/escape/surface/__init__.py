"""What escape hands the surfaces that needs the engine: its classifier evaluation."""
