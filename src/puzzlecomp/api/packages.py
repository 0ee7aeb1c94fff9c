"""The results package's published JSON Schema (docs/results-package.md)."""

from __future__ import annotations

from typing import Any

from django.http import HttpRequest
from ninja import Router

from puzzlecomp.formats.results_package.document import package_schema

router = Router(tags=["results package"])


@router.get("/schemas/results-package.schema.json", response={200: dict},
            summary="The JSON Schema of the signed results package (its `$id` names the "
            "version)")
def results_package_schema(request: HttpRequest) -> dict[str, Any]:
    return package_schema()
