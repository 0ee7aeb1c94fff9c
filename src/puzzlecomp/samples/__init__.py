"""Bundled sample data and a synthetic championship generator (for the demo and benchmarks)."""

from pathlib import Path

# The pseudonymised WJPC 2019-2025 results (docs/archive.md): the archive's sample and the
# demo's history.
SAMPLE_RESULTS = Path(__file__).resolve().parent / "wjpc-results.csv"
# The sizes of the sample's editions where they differed from the wjpc-2025 ruleset.
SAMPLE_EDITIONS = Path(__file__).resolve().parent / "wjpc-editions.toml"
