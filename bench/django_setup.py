"""What the benchmarks of server-side page times share: Django on a temporary SQLite database
with the dev settings and DEBUG off, and the median of repeated runs after a warm-up."""

from __future__ import annotations

import os
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path


def median_ms(run: Callable[[], object], repeat: int) -> float:
    run()  # warm-up
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        run()
        times.append(time.perf_counter() - start)
    return round(statistics.median(times) * 1000, 1)


def django_on_a_temporary_database() -> None:
    """Configure and set up Django (dev settings, DEBUG off) on a new, migrated SQLite file."""
    data_dir = Path(tempfile.mkdtemp(prefix="puzzlecomp-bench-"))
    (data_dir / "static").mkdir()
    os.environ.update({"PUZZLECOMP_DATA_DIR": str(data_dir), "DEBUG": "0",
                       "ALLOWED_HOSTS": "testserver,localhost",
                       "DJANGO_SETTINGS_MODULE": "puzzlecomp.settings.dev"})
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "src"))
    import django

    django.setup()
    from django.core.management import call_command

    call_command("migrate", interactive=False, verbosity=0)
