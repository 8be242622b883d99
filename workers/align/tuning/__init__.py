"""Choosing the aligner's parameters from gold: the paper's successive-halving grid search
(`tune`), its K-fold cross-validation by document (`crossval`), and whether a run's best
settings beat the ones in use by more than chance (`proposal`)."""
