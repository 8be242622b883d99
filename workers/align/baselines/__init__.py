"""What the aligners are measured against: the paper's diagonal path and two classic
segmenters (TextTiling, C99) turned into turn labels."""
