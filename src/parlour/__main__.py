"""``python -m parlour`` is the ``parlour`` command."""

from parlour.cli.app import main

main()
