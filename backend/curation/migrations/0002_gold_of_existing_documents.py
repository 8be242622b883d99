"""Stores the gold of documents annotated before the rule was explicit.

Open work gets the rule's verdict. A document of a closed iteration keeps the gold recorded
when the iteration closed (its records and tuning rest on it): under the rule's name when the
rule gives the same labels, else as an adjudication by the lead who closed the iteration,
which is what that close was under the former rule (the latest submission won).
"""

from django.db import migrations

from backend.curation.rule import CompletedAdjudication, Submission, decide_gold


def store_gold(apps, schema_editor):
    Document = apps.get_model("documents", "Document")
    Annotation = apps.get_model("alignments", "Annotation")
    AccuracyRecord = apps.get_model("iterations", "AccuracyRecord")
    Adjudication = apps.get_model("curation", "Adjudication")
    Gold = apps.get_model("curation", "Gold")
    documents = Document.objects.filter(annotations__submitted_at__isnull=False).distinct()
    for document in documents.select_related("iteration"):
        submissions = [
            Submission(annotation.pk, annotation.annotator_id, tuple(annotation.assignments))
            for annotation in Annotation.objects.filter(
                document=document, submitted_at__isnull=False
            ).order_by("submitted_at", "id")
        ]
        assignees = list(document.assignees.order_by("pk").values_list("pk", flat=True))
        decision = decide_gold(assignee_ids=assignees, submissions=submissions, adjudication=None)
        record = None
        if document.iteration is not None and document.iteration.closed_at is not None:
            record = AccuracyRecord.objects.filter(
                iteration=document.iteration, document=document
            ).first()
        if record is not None and decision.labels != tuple(record.gold_labels):
            iteration = document.iteration
            adjudication = Adjudication.objects.create(
                document=document,
                curator_id=iteration.closed_by_id,
                sources=[record.annotation_id] if record.annotation_id else [],
                baseline=record.gold_labels,
                assignments=record.gold_labels,
                completed_at=iteration.closed_at,
                note=f"The gold recorded when iteration {iteration.number} closed, "
                "under the former rule (the latest submission won).",
            )
            decision = decide_gold(
                assignee_ids=assignees,
                submissions=submissions,
                adjudication=CompletedAdjudication(adjudication.pk, tuple(record.gold_labels)),
            )
        if not decision.is_gold:
            continue
        Gold.objects.create(
            document=document,
            rule=decision.rule,
            labels=list(decision.labels),
            annotation_id=decision.annotation_id,
            adjudication_id=decision.adjudication_id,
            annotators=[submission.annotator_id for submission in decision.counted],
            decided_at=record.recorded_at if record is not None else document.updated_at,
        )
        if record is not None:
            AccuracyRecord.objects.filter(pk=record.pk).update(gold_rule=decision.rule)


class Migration(migrations.Migration):
    dependencies = [
        ("curation", "0001_initial"),
        ("iterations", "0004_accuracy_record_gold_rule"),
        ("alignments", "0002_initial"),
    ]

    operations = [migrations.RunPython(store_gold, migrations.RunPython.noop)]
