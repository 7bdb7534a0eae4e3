"""Who may do what on a web host: the owner, the visitors, and what each may choose.

A host has one owner, who proves it with the owner token (printed by ``parlour serve``,
or set by ``--owner-token``/``$PARLOUR_OWNER_TOKEN``). The login page exchanges it for
an HttpOnly, SameSite=Strict cookie holding a keyed digest of the token, so the token
itself never rides on later requests and every web process of one host (they share the
token) recognises the cookie. Visitors may create games within limits: model specs from
the owner's allow-list only (no visitor spends the owner's API key), options from a
bounded safe list, content by name, a random seed. ``open_table`` makes every visitor
the owner: a local, trusted table.

The Host header is checked against the host names the server answers to, on every
route, so a page on another site cannot reach the server through DNS rebinding.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
from collections.abc import Mapping
from dataclasses import dataclass, field

from pydantic import BaseModel

from parlour.core.errors import ParlourError

#: The cookie a browser proves it is the owner with.
OWNER_COOKIE = "parlour_owner"
#: Model specs a visitor may seat without the owner: none of them calls a paid API.
DEFAULT_MODELS = ("scripted", "random", "local")
#: Host names a server bound to this machine answers to (``--host-name`` adds more).
LOCAL_HOSTS = frozenset({"127.0.0.1", "localhost", "::1"})
#: The largest seed anyone may set: exact in JSON readers that use doubles, and far
#: beyond searching (a cast shown before the start does not give the seed away).
MAX_SEED = 2**53 - 1
#: The most players a lobby form may ask for.
MAX_PLAYERS = 20

#: Numeric options a visitor may set, with the bounds a visitor may set them within
#: (the game's own bounds apply as well). Any other option needs the owner. Booleans
#: are switches of rules, not of cost, and are open to visitors.
VISITOR_BOUNDS: Mapping[str, tuple[int, int]] = {
    "end_year": (1901, 1912),  # diplomacy: each year is a round of orders
    "max_turns": (1, 100),  # escape
    "max_days": (1, 30),  # werewolf
    "minutes": (1, 60),  # missing: the clock
    "sessions": (1, 5),  # campaign
    "turns_per_session": (1, 20),  # campaign
    "press_rounds": (0, 3),  # diplomacy
    "press_max_messages": (1, 5),  # diplomacy
}


def _digest(token: str) -> str:
    return hmac.new(token.encode("utf-8"), b"parlour owner cookie", hashlib.sha256).hexdigest()


@dataclass(frozen=True)
class Limits:
    """How much visitors may make the host work (the owner is not limited)."""

    #: games one client may create in a minute, and all visitors together
    per_client_per_minute: int = 5
    per_minute: int = 30
    #: games created by one client that may be running at once, and by all visitors
    running_per_client: int = 3
    running: int = 20


@dataclass(frozen=True)
class HostPolicy:
    """A host's owner token, its host names, its allow-list and its limits."""

    owner_token: str = field(default_factory=lambda: secrets.token_urlsafe(32), repr=False)
    #: everyone is the owner (a local, trusted table)
    open_table: bool = False
    hosts: frozenset[str] = LOCAL_HOSTS
    models: tuple[str, ...] = DEFAULT_MODELS
    limits: Limits = Limits()

    def __post_init__(self) -> None:
        if len(self.owner_token) < 16:
            raise ParlourError("the owner token must be at least 16 characters")

    @classmethod
    def local_table(cls) -> HostPolicy:
        """Everyone is the owner, on this machine's names (and the test client's):
        ``create_app``'s default for tests and embedding; ``parlour serve`` passes its
        own."""
        return cls(open_table=True, hosts=LOCAL_HOSTS | {"testserver"})

    # -- the owner ---------------------------------------------------------------------

    def cookie_value(self) -> str:
        return _digest(self.owner_token)

    def is_owner_token(self, token: str) -> bool:
        return hmac.compare_digest(token.encode("utf-8"), self.owner_token.encode("utf-8"))

    def is_owner(self, cookies: Mapping[str, str]) -> bool:
        if self.open_table:
            return True
        cookie = cookies.get(OWNER_COOKIE, "")
        return hmac.compare_digest(cookie.encode("utf-8"), self.cookie_value().encode("utf-8"))

    # -- the Host header ---------------------------------------------------------------

    def host_allowed(self, host_header: str) -> bool:
        """Whether the Host header names this server (its port is not checked)."""
        name = host_name(host_header)
        return bool(name) and name in self.hosts

    # -- what a visitor may choose -------------------------------------------------------

    def check_spec(self, text: str, owner: bool) -> None:
        """A seat's spec: people and scripts always; a model only from the allow-list."""
        if owner or text in ("human", "scripted") or text in self.models:
            return
        raise ParlourError(
            "only the host's owner seats that model; this host offers: " + ", ".join(self.models)
        )

    def check_options(
        self, options: Mapping[str, object], config_model: type[BaseModel] | None, owner: bool
    ) -> None:
        """Options a visitor set: booleans, and numbers within ``VISITOR_BOUNDS``."""
        if owner:
            return
        fields = config_model.model_fields if config_model is not None else {}
        for key, value in options.items():
            if isinstance(value, bool) and (key in fields or config_model is None):
                continue
            bounds = VISITOR_BOUNDS.get(key)
            if bounds is None:
                raise ParlourError(f"{key}: only the host's owner sets this option")
            low, high = bounds
            if not isinstance(value, int) or isinstance(value, bool) or not low <= value <= high:
                raise ParlourError(f"{key} must be a whole number from {low} to {high}")


def host_name(header: str) -> str:
    """The host name of a Host header, lower case, without its port."""
    header = header.strip().lower()
    if header.startswith("["):  # [::1]:8000
        end = header.find("]")
        return header[1:end] if end > 0 else ""
    name, _, _port = header.partition(":")
    return name


def visitor_options(config_model: type[BaseModel] | None) -> list[str]:
    """The safe options a game accepts (the lobby's hint): its fields in the safe list."""
    if config_model is None:
        return []
    return [key for key in VISITOR_BOUNDS if key in config_model.model_fields]
