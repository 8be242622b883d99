"""The slow, obviously correct definitions that the compiled kernels are checked against.

Each module here writes one kernel's recurrence cell by cell over Python floats, with the
tie-breaking rules spelled out, so that a reader can check it against the paper or the
docstring by eye: `dp` (the paper's forward pass, backtrace and assignment), `gapped_dp`
(the gapped sentence path and its turn votes), `turn_dp` (the turn path, its evidence and the
whole-matrix sums the blocked engine must equal) and `hmm` (Viterbi over the dense transition
matrix). The tests in tests/align hold each kernel equal to its definition here, and
`python -m workers.align bench` times both, which is why they live in the engine rather than
in tests/: the bench must run wherever the engine is installed. Nothing in the engine's
production paths imports them.
"""
