"""Alignment of meeting transcripts with their written reports, free of any web framework."""
