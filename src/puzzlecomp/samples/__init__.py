"""Bundled sample data and a synthetic championship generator (for the demo and benchmarks)."""

from pathlib import Path

# The pseudonymised WJPC 2019-2025 results (docs/archive.md): the archive's sample and the
# demo's history.
SAMPLE_RESULTS = Path(__file__).resolve().parent / "wjpc-results.csv"
