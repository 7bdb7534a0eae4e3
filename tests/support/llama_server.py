"""llama-cpp-python's OpenAI-compatible server (``python -m llama_cpp.server`` and its
arguments), loading the model as parlour's local backend does: without the AMX buffers
that crash on CPUs listing AMX (``parlour.models.local.avoid_amx_buffers``)."""

import runpy

from parlour.models.local import avoid_amx_buffers

if __name__ == "__main__":
    avoid_amx_buffers()
    runpy.run_module("llama_cpp.server", run_name="__main__", alter_sys=True)
