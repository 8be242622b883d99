"""Speed of the alignment engine as JSON (`python -m bench.align_speed`): DP kernel vs the naive
definition, whole-corpus alignment wall time with embeddings (vectors trained beforehand), peak
memory."""

from __future__ import annotations

import json

from workers.align.performance import run_benchmarks

if __name__ == "__main__":
    print(json.dumps(run_benchmarks(), indent=2))
