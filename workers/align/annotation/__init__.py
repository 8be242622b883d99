"""What the engine computes for the people who make the gold: which documents the next
iteration should annotate (`selection`), which turns an annotator must read (`review`), how
far annotators agree (`agreement`), and rating studies of the automatic pairs (`rating`)."""
