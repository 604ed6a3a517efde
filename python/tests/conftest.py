import os
import pathlib

import pytest

import tdpe

REPOSITORY = pathlib.Path(__file__).resolve().parents[2]


@pytest.fixture(scope="session")
def likelihood():
    """The default run's likelihood (the GW150914-like injection), set up once."""
    return tdpe.Likelihood("default")


@pytest.fixture(scope="session")
def tdpe_binary():
    """The command line of the same sources: $TDPE_BIN, or the workspace's release build."""
    path = pathlib.Path(os.environ.get("TDPE_BIN", REPOSITORY / "target" / "release" / "tdpe"))
    if not path.is_file():
        pytest.fail(f"no tdpe binary at {path}: build it (cargo build --release) or set TDPE_BIN")
    return path
