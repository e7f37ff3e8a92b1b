"""pytest setup for the Python module's tests: CTest runs them with PYTHONPATH set to the
build's python folder (tests/CMakeLists.txt); HITGRID_CLI names the hitgrid command, the
C++ side some tests compare with, and HITGRID_C_LIBRARY libhitgrid_c.so, the C API the rope's
tests compare with."""
import os
import shutil

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
