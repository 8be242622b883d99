"""Paths through the similarity matrix: the paper's monotone dynamic programme, its gapped
variant, the turn-level programme the annotators' task calls for (with its memory-bounded
block scoring and per-turn margins), and the step from a sentence path to one segment per
turn. `workers/align/reference/` holds the slow definitions the compiled kernels must equal."""
