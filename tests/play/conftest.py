from __future__ import annotations

import pytest

from warbench.play import SetupArgs
from warbench.play.toy import SAMPLE_SETUP, DiceDuel


@pytest.fixture
def duel() -> DiceDuel:
    return DiceDuel()


@pytest.fixture
def setup() -> SetupArgs:
    return SetupArgs(
        tuple(SAMPLE_SETUP["rosters"]), SAMPLE_SETUP["board"], dict(SAMPLE_SETUP["options"])
    )
