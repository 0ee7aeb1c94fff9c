"""Every page carries the content security policy (the browser test checks nothing breaks)."""

from __future__ import annotations

import re
from pathlib import Path

from django.test import Client

import puzzlecomp

POLICY = ["default-src 'self'", "script-src 'self'", "style-src 'self'",
          "img-src 'self' data:", "connect-src 'self'", "frame-ancestors 'none'",
          "form-action 'self'", "base-uri 'self'", "object-src 'none'"]


def test_pages_and_the_api_docs_send_the_policy(championship):
    client = Client()
    for url in ["/", f"/c/{championship.slug}/", "/accounts/login/", "/api/v1/docs"]:
        header = client.get(url)["Content-Security-Policy"]
        assert sorted(part.strip() for part in header.split(";")) == sorted(POLICY), url


def test_no_template_runs_inline_code():
    """Inline handlers and script blocks would be blocked: JSON data blocks are fine."""
    root = Path(puzzlecomp.__file__).parent
    found = []
    for template in root.rglob("templates/**/*.html"):
        text = template.read_text()
        if re.search(r"\son[a-z]+\s*=", text) or re.search(r"\sstyle\s*=", text):
            found.append(template.name)
        for tag in re.findall(r"<script\b[^>]*>", text):
            if "src=" not in tag and 'type="application/json"' not in tag:
                found.append(f"{template.name}: {tag}")
    assert found == []
