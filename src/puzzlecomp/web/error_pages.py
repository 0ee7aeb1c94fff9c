"""The 500 page: the site's own (header, language, a link home), and a plain one when even that
cannot be drawn (static files not collected, a broken template): an error page never fails."""

from __future__ import annotations

import logging

from django.http import HttpRequest, HttpResponseServerError
from django.template import loader

logger = logging.getLogger(__name__)

PLAIN = ("<!doctype html><html><head><meta charset=\"utf-8\"><title>Server error</title></head>"
         "<body><h1>Something went wrong</h1><p><a href=\"/\">puzzlecomp</a></p></body></html>")


def server_error(request: HttpRequest) -> HttpResponseServerError:
    """Django's handler500, rendered without the request (as Django's own is)."""
    try:
        return HttpResponseServerError(loader.get_template("500.html").render())
    except Exception:  # the page of last resort: whatever failed, answer plainly
        logger.exception("the 500 page could not be drawn; a plain one was sent")
        return HttpResponseServerError(PLAIN)
