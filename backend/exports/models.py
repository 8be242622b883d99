from django.db import models


class UnitCounts(models.Model):
    """The words and sentences of each transcript turn and report segment of a document,
        cleaned with one combination of the export's cleaning options. The export preview sums
        these for every pair instead of cleaning the pairs' texts on each request (several
        seconds for a project of thousands of documents). Texts never change after import, so a
        row, computed the first time a preview needs it, stays true. The counts are raw arrays,
    not JSON: a preview reads thousands of rows, and parsing them was a third of its time."""

    document = models.ForeignKey(
        "documents.Document", on_delete=models.CASCADE, related_name="unit_counts"
    )
    cleaning = models.CharField(
        max_length=100,
        help_text="The cleaning options that were on, comma-separated in a fixed order "
        "(empty: none).",
    )
    turns = models.BinaryField(
        help_text="Words and sentences per transcript turn, in order: (turns, 2) int32, "
        "little-endian, row by row."
    )
    segments = models.BinaryField(
        help_text="Words and sentences per report segment, in order, as `turns`."
    )

    class Meta:
        constraints = [
            models.UniqueConstraint(
                fields=["document", "cleaning"], name="unit_counts_one_per_cleaning"
            )
        ]

    def __str__(self) -> str:
        return f"unit counts of document {self.document_id} ({self.cleaning or 'uncleaned'})"
