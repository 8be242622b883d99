from django.db import migrations, models


def calibration_of_existing(apps, schema_editor) -> None:
    """A pre-alignment whose parameter set carries a learned decision was calibrated by it; one
    with a run correlation and no such decision, by the shipped prior (the only other decision
    that sets one); the rest keep `none`, as do the shipped prior's made before run
    correlations were stored."""
    PreAlignment = apps.get_model("alignments", "PreAlignment")
    PreAlignment.objects.filter(parameter_set__learned__isnull=False).update(calibration="learned")
    PreAlignment.objects.filter(run_correlation__isnull=False, calibration="none").update(
        calibration="prior"
    )


class Migration(migrations.Migration):
    dependencies = [
        ("alignments", "0009_pre_alignment_run_correlation"),
    ]

    operations = [
        migrations.AddField(
            model_name="prealignment",
            name="calibration",
            field=models.CharField(
                choices=[
                    ("learned", "a decision learned on the project's own gold"),
                    ("prior", "the shipped prior, fitted on public_meetings gold"),
                    ("none", "none known: the engine's own confidence, or a file's"),
                ],
                default="none",
                help_text="What calibrated the confidences (the decision behind `run_correlation`).",
                max_length=8,
            ),
        ),
        migrations.RunPython(calibration_of_existing, migrations.RunPython.noop),
    ]
