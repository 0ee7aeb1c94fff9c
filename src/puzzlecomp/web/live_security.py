"""Django's SecurityMiddleware for /live/, which runs on the event loop outside Django's handler:
the HTTPS redirect, HSTS and `X-Content-Type-Options: nosniff`, from the same settings."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.http.request import split_domain_port, validate_host

from puzzlecomp.live.sse import Receive, Scope, Send

App = Any


def _header(scope: Scope, name: bytes) -> str:
    for key, value in scope.get("headers", []):
        if key == name:
            return str(value.decode("latin-1"))
    return ""


def _is_secure(scope: Scope) -> bool:
    if scope.get("scheme") == "https":
        return True
    proxy = settings.SECURE_PROXY_SSL_HEADER
    if proxy:
        name, value = proxy
        header = name.removeprefix("HTTP_").replace("_", "-").lower().encode()
        return _header(scope, header).split(",")[0].strip() == value
    return False


def _security_headers(secure: bool) -> list[tuple[bytes, bytes]]:
    headers = []
    if settings.SECURE_CONTENT_TYPE_NOSNIFF:
        headers.append((b"x-content-type-options", b"nosniff"))
    if secure and settings.SECURE_HSTS_SECONDS:
        value = f"max-age={settings.SECURE_HSTS_SECONDS}"
        if settings.SECURE_HSTS_INCLUDE_SUBDOMAINS:
            value += "; includeSubDomains"
        if settings.SECURE_HSTS_PRELOAD:
            value += "; preload"
        headers.append((b"strict-transport-security", value.encode()))
    return headers


async def _answer(send: Send, status: int, headers: list[tuple[bytes, bytes]]) -> None:
    await send({"type": "http.response.start", "status": status,
                "headers": [*headers, (b"content-length", b"0")]})
    await send({"type": "http.response.body", "body": b""})


def secured(app: App) -> App:
    """The ASGI app with the site's HTTPS settings applied to every response."""

    async def guarded(scope: Scope, receive: Receive, send: Send) -> None:
        secure = _is_secure(scope)
        if settings.SECURE_SSL_REDIRECT and not secure:
            host = settings.SECURE_SSL_HOST or _header(scope, b"host")
            domain, _port = split_domain_port(host)
            if not domain or not validate_host(domain, settings.ALLOWED_HOSTS):
                await _answer(send, 400, [])
                return
            query = scope.get("query_string", b"").decode("latin-1")
            location = f"https://{host}{scope['path']}" + (f"?{query}" if query else "")
            await _answer(send, 301, [(b"location", location.encode())])
            return
        extra = _security_headers(secure)

        async def send_secured(message: dict[str, Any]) -> None:
            if message["type"] == "http.response.start":
                message = {**message, "headers": [*message.get("headers", []), *extra]}
            await send(message)

        await app(scope, receive, send_secured)

    return guarded
