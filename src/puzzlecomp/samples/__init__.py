"""Bundled sample data and a synthetic championship generator (for the demo and benchmarks)."""
