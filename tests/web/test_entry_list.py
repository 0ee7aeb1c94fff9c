"""The organiser's entry list: every entry, escaped, with its links."""

from __future__ import annotations

from puzzlecomp.championships.models import Entry, EntryStatus, Role


def test_the_entry_list_escapes_names_and_links_each_entry(championship, client_as):
    event = championship.events.get(code="individual")
    Entry.objects.create(event=event, number=7, name="<script>x</script>", country="CZE",
                         status=EntryStatus.CONFIRMED, contact_email="a@example.org")
    page = client_as(championship, Role.ORGANISER).get(
        f"/control/{championship.slug}/registrations/individual/").content.decode()
    assert "<script>x</script>" not in page
    assert "&lt;script&gt;x&lt;/script&gt;" in page
    assert f"/control/{championship.slug}/registrations/individual/7/payment/" in page
