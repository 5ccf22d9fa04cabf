"""The web page of ``edgerag serve`` at ``/`` (docs/serve.md, "The web page"): ask, see why,
manage documents, read the token ledger, from any browser, offline.

    routes.py     the pages (Ask, Why, Documents, Tokens, the login) and ``POST /web/ask``,
                  the stream an answer comes in
    ask.py        a question answered on the model's thread for the page, and the recent
                  answers kept for their Why pages
    evidence.py   an answer's evidence as a small graph (names, passages, linking entities,
                  hops), laid out with networkx for an inline SVG
    tokens.py     the ledger by stage, method and model, as bars and a table
    access.py     the key's login, the session cookie, and writes refused from other sites
    templates/    Jinja2 pages, rendered on the server; assets/ their one script and stylesheet

Nothing is fetched from outside: no CDN, no font, no build step (tests/test_web.py checks that
no template or asset names an outside address). Jinja2 (BSD-3) renders the pages.
"""

from __future__ import annotations

from pathlib import Path

HERE = Path(__file__).parent


def mount(app) -> None:
    """Add the page's routes, its assets and its access check to the server's app; call after
    the `Guard` is added, so that the access check runs first."""
    from fastapi.staticfiles import StaticFiles

    from . import routes
    from .access import WebAccess
    from .ask import Answers

    app.state.web_answers = Answers()
    app.include_router(routes.router)
    app.mount("/assets", StaticFiles(directory=str(HERE / "assets")), name="web-assets")
    app.add_middleware(WebAccess, api_key=app.state.edgerag.config.api_key)
