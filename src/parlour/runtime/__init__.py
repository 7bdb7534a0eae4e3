"""The runtime: the loop that asks seats and applies actions, persistence, observers."""
