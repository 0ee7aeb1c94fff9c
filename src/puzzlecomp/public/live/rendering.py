"""A round's results tables as HTML, rendered once per live notice number, group and language.

The template engine needs about 300 ms for the demo's 600-line first round; readers without
JavaScript reload the page to follow a round, so the tables are kept until the next notice
changes the number (the page around them, with the clock, is rendered on every request).
"""

from __future__ import annotations

from typing import Any

from django.core.cache import cache
from django.template.loader import render_to_string
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import get_language

from puzzlecomp.championships.models import Round
from puzzlecomp.live.snapshot import Snapshot
from puzzlecomp.public.live.display import Words, group_tables

# Long enough to serve a quiet round; a notice moves every page to a new key anyway.
TABLES_SECONDS = 600


def tables_html(*, template: str, rnd: Round, snapshot: Snapshot, data: dict[str, Any],
                group: str | None, words: Words, official_ranking: str | None,
                entrant_url: str) -> SafeString:
    """The rendered `template` (a tables partial) for the snapshot, from the cache if there."""
    championship = rnd.event.championship
    # The championship's creation instant tells apart databases that reuse ids and numbers.
    key = ":".join(("puzzlecomp.results", template, str(championship.pk),
                    str(championship.created_at.timestamp()), str(rnd.pk), str(snapshot.seq),
                    group or "", get_language() or ""))
    html = cache.get(key)
    if html is None:
        html = render_to_string(template, {
            "tables": group_tables(data, group=group, words=words),
            "official_ranking": official_ranking, "entrant_url": entrant_url, "group": group,
        })
        cache.set(key, html, TABLES_SECONDS)
    # Rendered by our own template with autoescaping: safe to insert as it is.
    return mark_safe(html)
