"""Writes on alignments, one module per idea: `pre_alignments` (the engine's proposals and the
job that computes them), `annotations` (annotators' corrections) and `positions` (where each
person left off in the editor)."""
