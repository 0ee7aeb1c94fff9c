"""Public reads: championships, rounds, clocks, ranking snapshots, entrants."""

from ninja import Router

router = Router(tags=["public"])
