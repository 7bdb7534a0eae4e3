"""What diplomacy hands the surfaces that needs the engine: its evaluation harness."""
