"""Running functions at the same instant in threads (races: two answers, two arrivals)."""

from __future__ import annotations

import threading

from django.db import connection


def run_together(functions):
    """Run the functions in threads released at the same moment; return results/errors."""
    barrier = threading.Barrier(len(functions))
    results: list = [None] * len(functions)

    def run(i, function):
        try:
            barrier.wait()
            results[i] = function()
        except Exception as error:  # reported to the test
            results[i] = error
        finally:
            connection.close()

    threads = [threading.Thread(target=run, args=(i, f)) for i, f in enumerate(functions)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return results
