from django.db import migrations, models

from backend.alignments.pair_confidences import pair_confidences_to_store


def store_pair_confidences(apps, schema_editor):
    """Pre-alignments stored before the field get their pairs' confidences from their own
    labels and confidences, as new ones do."""
    PreAlignment = apps.get_model("alignments", "PreAlignment")
    batch = []
    rows = PreAlignment.objects.only("labels", "confidences").order_by("pk")
    for pre_alignment in rows.iterator(chunk_size=200):
        pre_alignment.pair_confidences = pair_confidences_to_store(
            pre_alignment.labels, pre_alignment.confidences
        )
        batch.append(pre_alignment)
        if len(batch) == 200:
            PreAlignment.objects.bulk_update(batch, ["pair_confidences"])
            batch = []
    PreAlignment.objects.bulk_update(batch, ["pair_confidences"])


class Migration(migrations.Migration):
    dependencies = [
        ("alignments", "0005_parameter_set_learned_decision"),
    ]

    operations = [
        migrations.AddField(
            model_name="prealignment",
            name="pair_confidences",
            field=models.BinaryField(
                editable=False,
                help_text="Each automatic pair's confidence, ascending, as little-endian "
                "float64 (`automatic_pair_confidences`); null without confidences.",
                null=True,
            ),
        ),
        migrations.RunPython(store_pair_confidences, migrations.RunPython.noop),
    ]
