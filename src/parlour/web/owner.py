"""The host's owner: signing in with the owner token, and what only the owner may do.

``POST /owner`` exchanges the token for an HttpOnly, SameSite=Strict cookie (see
``web/policy.py``): the token is typed once, never put in a link (links end up in
histories and logs). The owner then gets every option, model and seed in the lobby,
no limits on new games, and ``POST /owner/admin``, which issues a fresh admin link for
any game on the host (the creator's link is shown once; the owner can always get in).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Protocol

from fastapi import FastAPI, HTTPException, Request
from fastapi.responses import HTMLResponse, RedirectResponse, Response
from fastapi.templating import Jinja2Templates
from starlette.concurrency import run_in_threadpool

from parlour.core.errors import ParlourError
from parlour.web.forms import read_form
from parlour.web.policy import OWNER_COOKIE, HostPolicy

if TYPE_CHECKING:
    from parlour.runtime.store import Store
    from parlour.web.links import Links


class Site(Protocol):
    """What the owner's routes use of the app's state (``parlour.web.app.Web``)."""

    @property
    def policy(self) -> HostPolicy: ...

    @property
    def links(self) -> Links: ...

    @property
    def store(self) -> Store: ...


def install(app: FastAPI, web: Site, templates: Jinja2Templates) -> None:
    def page(request: Request, note: str = "", status: int = 200) -> Response:
        ctx: dict[str, Any] = {
            "owner": web.policy.is_owner(request.cookies),
            "open_table": web.policy.open_table,
            "note": note,
        }
        return templates.TemplateResponse(request, "owner.html", ctx, status_code=status)

    def require_owner(request: Request) -> None:
        if not web.policy.is_owner(request.cookies):
            raise HTTPException(status_code=403, detail="only the host's owner may do that")

    @app.get("/owner", response_class=HTMLResponse)
    async def owner_page(request: Request) -> Response:
        return page(request)

    @app.post("/owner", response_class=HTMLResponse)
    async def sign_in(request: Request) -> Response:
        form = await read_form(request)
        token = (form.get("token") or [""])[0].strip()
        if not web.policy.is_owner_token(token):
            return page(request, "that is not this host's owner token", status=403)
        done = RedirectResponse("/", status_code=303)
        done.set_cookie(
            OWNER_COOKIE,
            web.policy.cookie_value(),
            httponly=True,
            samesite="strict",
            secure=request.url.scheme == "https",
        )
        return done

    @app.post("/owner/out", response_class=HTMLResponse)
    async def sign_out(request: Request) -> Response:
        done = RedirectResponse("/", status_code=303)
        done.delete_cookie(OWNER_COOKIE, httponly=True, samesite="strict")
        return done

    @app.post("/owner/admin", response_class=HTMLResponse)
    async def admin_link(request: Request) -> Response:
        require_owner(request)
        form = await read_form(request)
        game_id = (form.get("game") or [""])[0].strip()
        try:
            await run_in_threadpool(web.store.get_game, game_id)
        except ParlourError:
            return page(request, "no such game on this host", status=404)
        token = await run_in_threadpool(web.links.issue, game_id, "admin")
        return RedirectResponse(f"/admin/{token}", status_code=303)
