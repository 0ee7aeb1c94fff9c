"""The JSON API under /api/v1/ with its OpenAPI document: public reads, judges' device writes."""

from ninja import NinjaAPI

from puzzlecomp.api.devices import router as devices_router
from puzzlecomp.api.public import router as public_router

api = NinjaAPI(title="puzzlecomp", version="1", urls_namespace="api")
api.add_router("/", public_router)
api.add_router("/device/", devices_router)
