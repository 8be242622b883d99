"""Aligned pairs (a report segment with the transcript turns assigned to it) as the exports
write them: one record shape, the cleaning and length filters, the train/validation/test
split and the JSON Lines and CSV writers, shared by the web application's exports and the
engine's command line."""
