"""Anyone may check a results package or a certificate: upload the package, or enter (or scan)
the certificate's code, and read whether it is valid, replaced by a later correction, or not
from this installation (docs/results-package.md)."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils.translation import gettext_lazy as _
from django.views.decorators.http import require_http_methods

from puzzlecomp.championships.clock_face import duration
from puzzlecomp.championships.messages import STATUS_LABELS
from puzzlecomp.championships.selectors.results_package import (
    PackageStanding,
    certificate_code,
    installation_public_key,
    package_standing,
    result_code_standing,
)
from puzzlecomp.rules import limits

# A result's validation status (docs/results-package.md) as the page reads it.
VALIDATION_WORDS = {"recorded": _("recorded by a judge"), "checked": _("checked by a judge"),
                    "validated": _("validated: the dispute window has closed"),
                    "corrected": _("corrected after publication")}
LIST_STATUS_WORDS = {"provisional": _("provisional"), "final": _("final"),
                     "correction": _("correction")}


@require_http_methods(["GET", "HEAD", "POST"])
def verify(request: HttpRequest) -> HttpResponse:
    """The form, and the answer for the code in the address or the package uploaded."""
    standing: PackageStanding | None = None
    code = request.GET.get("code", "").strip()[:100]
    file_name = ""
    if request.method == "POST":
        upload = request.FILES.get("package")
        file_name = (upload.name or "")[:200] if upload is not None else ""
        standing = (package_standing(upload.read(limits.MAX_CHAMPIONSHIP_FILE_BYTES + 1))
                    if upload is not None else PackageStanding("invalid", problems=(
                        "no file was chosen",)))
    elif code:
        standing = result_code_standing(code)
    result = standing.result.result if standing and standing.result else None
    public, fingerprint = installation_public_key()
    return render(request, "public/packages/verify.html", {
        "standing": standing, "code": code, "result": result, "file_name": file_name,
        "shown_code": certificate_code(standing.result.code) if standing and standing.result
        else "",
        "final_time": duration(result["final_seconds"]) if result else "",
        "status": STATUS_LABELS.get(result["status"], result["status"]) if result else "",
        "validation": VALIDATION_WORDS.get(result["validation"], "") if result else "",
        "public_key": public, "fingerprint": fingerprint,
        "list_status": LIST_STATUS_WORDS.get(standing.package.list_status, "")
        if standing and standing.package else "",
    })
