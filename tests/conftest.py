"""Shared test fixtures: paths to the real data beside the checkout, skipped with a reason when absent."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parent.parent
SHARED_DATA = Path(os.environ.get("DOCEXTRACT_SHARED_DATA", REPO.parent / "shared" / "data"))


def shared_data(*parts: str) -> Path:
    """A path under ../shared/data; the calling test is skipped with a clear reason if it is absent."""
    path = SHARED_DATA.joinpath(*parts)
    if not path.exists():
        pytest.skip(f"real data not available: {path} (set DOCEXTRACT_SHARED_DATA to the shared/data folder)")
    return path


@pytest.fixture(name="shared_data", scope="session")
def shared_data_fixture():
    """``shared_data("funsd", "testing_data")`` inside a test: the path, or a skip with the reason."""
    return shared_data
