"""pytest setup for the Python module's tests: CTest runs them with PYTHONPATH set to the
build's python folder (tests/CMakeLists.txt); HITGRID_CLI names the hitgrid command, the
C++ side some tests compare with, and HITGRID_C_LIBRARY libhitgrid_c.so, the C API the rope's
tests compare with."""
import os
import shutil
import threading
import time

import pytest


@pytest.fixture(scope="session")
def cli():
    path = os.environ.get("HITGRID_CLI") or shutil.which("hitgrid")
    if not path:
        pytest.skip("the hitgrid command is not built (HITGRID_CLI unset)")
    return path


@pytest.fixture(scope="session")
def capi():
    """libhitgrid_c.so through ctypes (HITGRID_C_LIBRARY, set by CTest), for tests that
    compare the module with the C API."""
    import ctypes
    path = os.environ.get("HITGRID_C_LIBRARY")
    if not path:
        pytest.skip("the C API library is not built (HITGRID_C_LIBRARY unset)")
    return ctypes.CDLL(path)


@pytest.fixture(scope="session")
def assert_releases_gil():
    """A check that call() releases the GIL while it works: it runs on a second thread
    while this one counts ticks. Holding the GIL, the call would let this thread run for
    at most one switch interval (5 ms) of it; released, this thread runs through it."""
    def check(call):
        span = {}
        started = threading.Event()

        def work():
            started.set()
            span["start"] = time.perf_counter()
            call()
            span["end"] = time.perf_counter()

        worker = threading.Thread(target=work)
        ticks = []
        worker.start()
        started.wait()
        while worker.is_alive():
            ticks.append(time.perf_counter())
        worker.join()
        inside = [t for t in ticks if span["start"] <= t <= span["end"]]
        assert inside and inside[-1] - inside[0] > 0.5 * (span["end"] - span["start"])
    return check
