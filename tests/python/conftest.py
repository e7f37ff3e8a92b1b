"""pytest setup for the Python module's tests: CTest runs them with PYTHONPATH set to the
build's python folder (tests/CMakeLists.txt); HITGRID_CLI names the hitgrid command, the
C++ side some tests compare with."""
import os
import shutil

import pytest


@pytest.fixture(scope="session")
def cli():
    path = os.environ.get("HITGRID_CLI") or shutil.which("hitgrid")
    if not path:
        pytest.skip("the hitgrid command is not built (HITGRID_CLI unset)")
    return path
