"""Hypothesis strategies for the turn path's property tests: evidence with ties and impossible
matches, and the settings worth crossing with it."""

from __future__ import annotations

import numpy as np
from hypothesis import strategies as st

from workers.align.paths.turn_dp import TurnSettings

evidence_values = st.sampled_from([0.0, 1.0, -1.0, 2.5, -np.inf]) | st.floats(
    -5, 5, allow_nan=False, allow_infinity=False
)
"""Evidence cells with ties, impossible matches (-inf) and arbitrary values."""
turn_settings = st.builds(
    TurnSettings,
    unaligned_gain=st.sampled_from([-1.0, 0.0, 1.0, 4.0]),
    gap_open=st.sampled_from([0.0, 1.0, 5.0, 40.0]),
)
