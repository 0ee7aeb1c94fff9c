"""The JSON API under /api/v1/ with its OpenAPI document: public reads, judges' device writes.

Refusals share one shape: 422 for a broken rule (`violations`, each naming its entry and
field), 409 for a result that changed since the writer saw it (`current` is the stored result),
401 for a device token that does not work and 403 for a device outside its tables (`code`,
`field`).
"""

from django.http import HttpRequest, HttpResponse
from ninja import NinjaAPI

from puzzlecomp.api.devices import ConflictOut, DeviceErrorOut, RulesErrorOut, ViolationOut
from puzzlecomp.api.devices import router as devices_router
from puzzlecomp.api.packages import router as packages_router
from puzzlecomp.api.public import router as public_router
from puzzlecomp.championships.messages import message_of, violation_message
from puzzlecomp.championships.schemas import result_out as result_json
from puzzlecomp.championships.services.devices import DeviceError, DeviceForbidden, DeviceRefused
from puzzlecomp.championships.services.results import ResultConflict
from puzzlecomp.rules.errors import RulesError

api = NinjaAPI(title="puzzlecomp", version="1", urls_namespace="api")
api.add_router("/", public_router)
api.add_router("/device/", devices_router)
api.add_router("/", packages_router)


@api.exception_handler(RulesError)
def rules_error(request: HttpRequest, error: RulesError) -> HttpResponse:
    violations = [ViolationOut(code=v.code, message=violation_message(v),
                               entry=v.entry, field=v.field, params=dict(v.params))
                  for v in error.violations]
    body = RulesErrorOut(detail=" ".join(v.message for v in violations), violations=violations)
    return api.create_response(request, body.model_dump(mode="json"), status=422)


@api.exception_handler(ResultConflict)
def result_conflict(request: HttpRequest, error: ResultConflict) -> HttpResponse:
    body = ConflictOut(
        detail=message_of("result.version_conflict", str(error), {}),
        code="result.version_conflict", base_version=error.base_version,
        current=result_json(error.current) if error.current else None)
    return api.create_response(request, body.model_dump(mode="json"), status=409)


@api.exception_handler(DeviceError)
def device_error(request: HttpRequest, error: DeviceError) -> HttpResponse:
    status = 401 if isinstance(error, DeviceRefused) else \
        403 if isinstance(error, DeviceForbidden) else 422
    body = DeviceErrorOut(detail=message_of(error.code, error.message, error.params),
                          code=error.code, field=error.field)
    response = api.create_response(request, body.model_dump(mode="json"), status=status)
    if status == 401:
        response["WWW-Authenticate"] = (
            f'Bearer error="invalid_token", error_description="{error.code}"')
    return response
