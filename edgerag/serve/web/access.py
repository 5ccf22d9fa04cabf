"""Who may use the web page (`WebAccess`, an ASGI middleware outside the server's `Guard`).

* Without a key (the server listens on this machine only, config.py `check_bind`): no login.
  The page's own routes answer only a loopback ``Host`` (a page elsewhere that rebinds its
  DNS name to 127.0.0.1 reaches nothing of the index).
* With a key: a browser without a session is sent to ``/login``, which asks for the key once
  and keeps a session cookie (HttpOnly, SameSite=Strict, signed with a secret derived from the
  key, so changing the key ends every session). A request carrying a valid session gets the
  key's ``Authorization`` header added before the `Guard` sees it: the page calls the same
  ``/edgerag/…`` routes a script does. Without a session or the key nothing of an index is
  readable: pages redirect to the login, every other route answers the Guard's 401.
* Cross-site requests: every POST, PUT, PATCH or DELETE that carries an ``Origin`` other than
  this server's own is refused (403), with or without a key; a request authenticated by the
  session cookie must also carry the session's CSRF token in ``X-CSRF-Token`` (the page puts it
  in a ``<meta>``; a form from another site can neither read it nor set a header).
  Scripts sending ``Authorization: Bearer KEY`` send no ``Origin`` and pass as before.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import secrets
import time
from http.cookies import SimpleCookie
from urllib.parse import quote, urlsplit

COOKIE = "edgerag_session"
SESSION_S = 7 * 24 * 3600
"""A session lasts a week; the key is asked again after it."""
CSRF_HEADER = b"x-csrf-token"
UNSAFE = frozenset({"POST", "PUT", "PATCH", "DELETE"})
LOOPBACK_HOSTS = frozenset({"127.0.0.1", "localhost", "::1"})
PUBLIC_PREFIXES = ("/login", "/logout", "/assets/")
"""The web paths open without a session: the login form, the logout and the static files (no index data)."""
PAGE_PREFIXES = ("/", "/documents", "/tokens", "/why", "/web/")
"""The page's own routes: a browser without a session is sent to the login."""
PASSAGE = "/passage/"
"""A cited passage's page (serve/passage_page.py): a signed link opens it without the key (the
Guard checks the signature); without one, a browser is sent to the login."""


def _secret(key: str) -> bytes:
    return hmac.new(key.encode(), b"edgerag web session v1", hashlib.sha256).digest()


def _sign(secret: bytes, payload: str) -> str:
    return hmac.new(secret, payload.encode(), hashlib.sha256).hexdigest()


def new_session(key: str, now: float | None = None) -> str:
    """A session cookie's value: ``expires.nonce.signature``."""
    payload = f"{int((now or time.time()) + SESSION_S)}.{secrets.token_hex(16)}"
    return f"{payload}.{_sign(_secret(key), payload)}"


def session_nonce(key: str | None, value: str | None, now: float | None = None) -> str | None:
    """The nonce of a valid, unexpired session cookie, else None."""
    if not key or not value:
        return None
    parts = value.split(".")
    if len(parts) != 3 or not parts[0].isdigit():
        return None
    payload = f"{parts[0]}.{parts[1]}"
    if not hmac.compare_digest(parts[2], _sign(_secret(key), payload)):
        return None
    return parts[1] if int(parts[0]) > (now or time.time()) else None


def csrf_token(key: str | None, nonce: str | None) -> str:
    """The token a session's page sends with its writes ("" without a key: none is needed)."""
    if not key or not nonce:
        return ""
    return _sign(_secret(key), "csrf:" + nonce)


def cookie_header(value: str, max_age: int = SESSION_S) -> str:
    return f"{COOKIE}={value}; Path=/; Max-Age={max_age}; HttpOnly; SameSite=Strict"


def is_page(path: str) -> bool:
    return path == "/" or any(path.startswith(p) for p in PAGE_PREFIXES[1:])


def is_public(path: str) -> bool:
    return any(path == p or (p.endswith("/") and path.startswith(p)) for p in PUBLIC_PREFIXES)


def _host_name(host: str) -> str:
    """``127.0.0.1:8080`` → ``127.0.0.1``; ``[::1]:8080`` → ``::1``."""
    if host.startswith("["):
        return host[1 : host.find("]")] if "]" in host else host
    return host.rsplit(":", 1)[0] if host.count(":") == 1 else host


def same_origin(origin: str, host: str) -> bool:
    """Whether a request's ``Origin`` is this server as the browser reached it (``Host``)."""
    if not origin or origin == "null":
        return False
    parts = urlsplit(origin)
    return parts.scheme in ("http", "https") and parts.netloc.lower() == host.lower()


class WebAccess:
    def __init__(self, app, *, api_key: str | None) -> None:
        self.app = app
        self.key = api_key

    async def _refuse(self, send, status: int, message: str, headers: list[tuple[bytes, bytes]] = ()) -> None:
        raw = json.dumps({"error": {"message": message, "type": "permission_error", "param": None, "code": status}}).encode()
        start = [(b"content-type", b"application/json"), (b"content-length", str(len(raw)).encode()), *headers]
        await send({"type": "http.response.start", "status": status, "headers": start})
        await send({"type": "http.response.body", "body": raw})

    async def _redirect(self, send, location: str) -> None:
        headers = [(b"location", location.encode()), (b"content-length", b"0"), (b"cache-control", b"no-store")]
        await send({"type": "http.response.start", "status": 303, "headers": headers})
        await send({"type": "http.response.body", "body": b""})

    async def __call__(self, scope, receive, send):
        if scope["type"] != "http":
            return await self.app(scope, receive, send)
        path, method = scope["path"], scope["method"]
        headers = dict(scope.get("headers") or [])
        host = headers.get(b"host", b"").decode("latin-1")
        origin = headers.get(b"origin", b"").decode("latin-1")
        if method in UNSAFE and origin and not same_origin(origin, host):
            return await self._refuse(
                send, 403, f"a request from {origin} to this server is refused: pages of other sites may not write here"
            )
        if self.key is None:
            if is_page(path) and _host_name(host).lower() not in LOOPBACK_HOSTS:
                return await self._refuse(
                    send, 403, "this server has no key and answers its page on this machine only (http://127.0.0.1:PORT/)"
                )
            return await self.app(scope, receive, send)
        if b"authorization" in headers:  # a script with the key (or without it: the Guard answers 401)
            return await self.app(scope, receive, send)
        cookie = SimpleCookie()
        try:
            cookie.load(headers.get(b"cookie", b"").decode("latin-1"))
        except Exception:  # a malformed Cookie header is no session
            cookie = SimpleCookie()
        nonce = session_nonce(self.key, cookie[COOKIE].value if COOKIE in cookie else None)
        if nonce is not None:
            if method in UNSAFE and not hmac.compare_digest(headers.get(CSRF_HEADER, b"").decode("latin-1"), csrf_token(self.key, nonce)):
                if not (is_public(path) and origin and same_origin(origin, host)):
                    return await self._refuse(send, 403, "this request lacks the page's CSRF token: reload the page")
            scope = dict(scope, headers=[*scope["headers"], (b"authorization", f"Bearer {self.key}".encode())])
            scope["edgerag.session"] = nonce
            return await self.app(scope, receive, send)
        if is_public(path):  # the login form and static files: let them past the Guard
            scope = dict(scope, headers=[*scope["headers"], (b"authorization", f"Bearer {self.key}".encode())])
            return await self.app(scope, receive, send)
        unsigned_passage = path.startswith(PASSAGE) and b"sig=" not in scope.get("query_string", b"")
        if method == "GET" and ((is_page(path) and not path.startswith("/web/")) or unsigned_passage):
            target = path + ("?" + scope["query_string"].decode("latin-1") if scope.get("query_string") else "")
            return await self._redirect(send, "/login?next=" + quote(target, safe=""))
        return await self.app(scope, receive, send)  # the Guard answers 401
