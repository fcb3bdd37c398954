"""Fixtures: the synthetic forum of forum_fixture.py, parsed."""
from __future__ import annotations

import pytest
from forum_fixture import raw_forum

from partitions import catalogue
from tests.forums import parse_forum


@pytest.fixture(scope="session")
def iclr2024():
    return catalogue().get("iclr-2024")


@pytest.fixture
def forum(iclr2024):
    return parse_forum(raw_forum(), iclr2024)
