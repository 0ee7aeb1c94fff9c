"""Public pages across championships: a person's results, a country's, the ranking lists and
the records, from checked results of final rounds (docs/archive.md)."""

from __future__ import annotations

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, render
from django.urls import reverse
from django.views.decorators.http import require_safe
from django_countries import countries

from puzzlecomp.championships.country_names import by_name
from puzzlecomp.championships.engine import ioc
from puzzlecomp.championships.selectors.careers import counted_results
from puzzlecomp.championships.selectors.person_pages import (
    country_page,
    iso_of_ioc,
    person_career,
    public_people,
)
from puzzlecomp.championships.selectors.rankings import (
    holders_of,
    ranking_events,
    ranking_list_get,
    records_get,
)
from puzzlecomp.planning.ranking_list import EDITIONS_COUNTED
from puzzlecomp.public.live.display import duration, flag_emoji
from puzzlecomp.public.people.display import career_chart, points_words, result_words
from puzzlecomp.rules.subcategories import OVERALL


@require_safe
def person(request: HttpRequest, person_id: int) -> HttpResponse:
    """Every counted result of a person who consented to publication, bests and a chart."""
    found = get_object_or_404(public_people(), pk=person_id)
    career = person_career(found)
    flag = ioc(found.nationality) or ""
    return render(request, "public/people/person.html", {
        "person": found, "career": career, "chart": career_chart(career.chart),
        "flag": flag, "flag_emoji": flag_emoji(flag),
        "bests": [(best, result_words(best.result)) for best in career.bests],
        "lines": [(line, result_words(line.result), points_words(line.points))
                  for line in career.lines],
    })


@require_safe
def country(request: HttpRequest, code: str) -> HttpResponse:
    """A country's people and best results, podiums per edition and national records."""
    iso = iso_of_ioc(code)
    if iso is None or code != code.upper():
        raise Http404("no such country")
    archive = counted_results()
    page = country_page(code, archive=archive)
    if not page.people and not page.medals and not page.records:
        raise Http404("nothing recorded for this country")
    holders = holders_of(timed for _, timed, _ in page.records)
    return render(request, "public/people/country.html", {
        "page": page, "name": countries.name(iso), "flag_emoji": flag_emoji(code),
        "ranking_events": ranking_events(archive),
        "medals": [{
            "championship_slug": edition.championship_slug,
            "championship_name": edition.championship_name, "gold": edition.gold,
            "silver": edition.silver, "bronze": edition.bronze,
            "podiums": [{"result": podium.result, "name": podium.name,
                         "time": result_words(podium.result)} for podium in edition.podiums],
        } for edition in page.medals],
        "records": [{"event_name": event_name, "timed": timed, "result": result,
                     "time": duration(timed.final_seconds), "holders": holders[timed.result]}
                    for event_name, timed, result in page.records],
        "people": [{"person": one.person, "editions": one.editions,
                    "best_place": one.best_place, "points": points_words(one.best_points),
                    "bests": [(best, result_words(best.result)) for best in one.bests]}
                   for one in page.people],
    })


@require_safe
def rankings(request: HttpRequest) -> HttpResponse:
    """Every ranking list: each series' events, world-wide and by category."""
    return render(request, "public/people/rankings.html", {
        "events": ranking_events(), "editions_counted": EDITIONS_COUNTED})


@require_safe
def ranking(request: HttpRequest, series: str, event_code: str) -> HttpResponse:
    """A ranking list, world-wide or of one country (`?country=`), of a category (`?category=`),
    a hundred people a page (`?page=`)."""
    category = request.GET.get("category") or OVERALL
    country_code = (request.GET.get("country") or "").upper()
    try:
        page = int(request.GET.get("page") or 1)
    except ValueError:
        page = 1
    found = ranking_list_get(series=series, event_code=event_code, category=category,
                             country=country_code, page=page)
    if found is None:
        raise Http404("no such ranking list")
    # A hundred rows: links are made from prefixes rather than a `{% url %}` per cell.
    return render(request, "public/people/ranking.html", {
        "ranking": found, "event": found.event,
        "countries": by_name((code, str(countries.name(iso_of_ioc(code) or "")))
                             for code in found.countries),
        "country_name": countries.name(iso_of_ioc(country_code) or "") if country_code else "",
        "pages": range(1, found.pages + 1),
        "page_query": (f"&country={found.country}" if found.country else "")
        + (f"&category={found.category}" if found.category != OVERALL else ""),
        "category_name": dict(found.event.categories).get(found.category, ""),
        "rows": [{"row": row, "time": result_words(row.result),
                  "points": points_words(row.points)} for row in found.rows],
        "championship_prefix": url_prefix("public:championship", "x"),
        "person_prefix": url_prefix("public:people:person", 0),
        "country_prefix": url_prefix("public:people:country", "XXX"),
        "editions_counted": EDITIONS_COUNTED,
    })


def url_prefix(name: str, placeholder: object) -> str:
    """A URL with one argument, without the argument: the template appends `<arg>/`."""
    return reverse(name, args=[placeholder]).removesuffix(f"{placeholder}/")


@require_safe
def records(request: HttpRequest) -> HttpResponse:
    """The fastest final time of each event, puzzle size and category."""
    return render(request, "public/people/records.html", {"records": [
        (record, duration(record.timed.final_seconds), any(h.name for h in record.holders))
        for record in records_get()]})
