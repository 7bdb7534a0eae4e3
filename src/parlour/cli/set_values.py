"""``--set KEY=VALUE`` parsing, kept importable from the CLI (it lives in the runtime, so
the web reads options the same way without importing the CLI)."""

from parlour.runtime.set_values import parse_set_options

__all__ = ["parse_set_options"]
