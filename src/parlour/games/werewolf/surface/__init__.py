"""Werewolf's surface adapters: ``parlour werewolf cast`` and the ``--theme``/``--cast``/
``--speech`` flags of ``watch`` and ``play`` (a themed cast is written by a model)."""
