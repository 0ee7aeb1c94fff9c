"""The results package's published JSON Schema (docs/results-package.md)."""

from __future__ import annotations

import json

from django.http import HttpRequest, HttpResponse
from ninja import Router

from puzzlecomp.formats.results_package.document import package_schema

router = Router(tags=["results package"])


@router.get("/schemas/results-package.schema.json", response={200: dict},
            summary="The JSON Schema of the signed results package (its `$id` names the "
            "version)")
def results_package_schema(request: HttpRequest) -> HttpResponse:
    return HttpResponse(json.dumps(package_schema(), indent=1),
                        content_type="application/schema+json")
