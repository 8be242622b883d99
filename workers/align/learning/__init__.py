"""What gold teaches the engine beyond its grid search: the per-turn decision
(`turn_decision`) and the generic statistics it is fitted and measured with (`statistics`)."""
