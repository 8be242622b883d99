"""TalkSumm (Lev et al. 2019): a hidden Markov model of which paper sentence each spoken word
describes (also one of the aligners for meetings), the paper's states, and the importance
scores and extractive summaries drawn from the alignment."""
