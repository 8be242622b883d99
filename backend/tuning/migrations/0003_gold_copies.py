"""Tuning runs keep copies of their gold labels instead of the id of the annotation that was
gold (adjudicated gold is not an annotation); earlier runs get their annotations' labels."""

from django.db import migrations, models


def copy_gold_labels(apps, schema_editor):
    TuningRun = apps.get_model("tuning", "TuningRun")
    Annotation = apps.get_model("alignments", "Annotation")
    for run in TuningRun.objects.all():
        copies = []
        for gold in run.gold_documents:
            if "labels" in gold:
                copies.append(gold)
                continue
            labels = (
                Annotation.objects.filter(pk=gold.get("annotation"))
                .values_list("assignments", flat=True)
                .first()
            )
            copies.append({"document": gold["document"], "rule": "", "labels": labels or []})
        run.gold_documents = copies
        run.save(update_fields=["gold_documents"])


class Migration(migrations.Migration):
    dependencies = [
        ("tuning", "0002_tuning_run_ranked_by"),
        ("alignments", "0002_initial"),
    ]

    operations = [
        migrations.AlterField(
            model_name="tuningrun",
            name="gold_documents",
            field=models.JSONField(
                help_text="[{document, rule, labels}]: copies of the gold, in evaluation order "
                "(the first stages use the first)."
            ),
        ),
        migrations.RunPython(copy_gold_labels, migrations.RunPython.noop),
    ]
