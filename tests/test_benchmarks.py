"""The engine's benchmarks run (their figures are in bench/README.md, never asserted here)."""

from __future__ import annotations

from puzzlecomp.benchmarks import bench_ranking


def test_the_ranking_benchmark_reports_its_growth_beside_a_bare_allocations():
    report = bench_ranking(sizes=(10, 100))
    assert set(report["median_ms"]) == {"10", "100"}
    assert report["ratio_largest_to_smallest"] > 0
    assert report["allocation_ratio_baseline"] > 0
