"""parlour: an engine for games played by and with LLM agents."""
