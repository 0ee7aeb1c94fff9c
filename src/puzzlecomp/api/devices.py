"""Judges' device writes, authorised by a device token (Authorization: Bearer)."""

from ninja import Router

router = Router(tags=["devices"])
