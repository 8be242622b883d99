"""A tuning run's three tasks: `prepare` (cpu), a chord of `evaluate_slice` per stage (cpu),
and `finish_stage`, the chord's callback (default queue: it only merges and queues)."""

from typing import Any

from celery import shared_task

from workers.tasks.base import JobTask


class _SliceTask(JobTask):
    def job_id_of(self, args: tuple[Any, ...]) -> int | None:
        from backend.tuning.models import TuningSlice

        return TuningSlice.objects.filter(pk=args[0]).values_list("run__job_id", flat=True).first()


class _StageTask(JobTask):
    def job_id_of(self, args: tuple[Any, ...]) -> int | None:
        from backend.tuning.models import TuningRun

        return TuningRun.objects.filter(pk=args[0]).values_list("job_id", flat=True).first()


@shared_task(bind=True, name="workers.tasks.tuning.prepare", base=JobTask)
def prepare(self, job_id: int) -> None:
    from backend.tuning.services import tuning_prepare_run

    tuning_prepare_run(job_id=job_id, task_id=self.request.id)


@shared_task(name="workers.tasks.tuning.evaluate_slice", base=_SliceTask)
def evaluate_slice(slice_id: int) -> None:
    from backend.tuning.services import tuning_evaluate_slice

    tuning_evaluate_slice(slice_id=slice_id)


@shared_task(name="workers.tasks.tuning.finish_stage", base=_StageTask)
def finish_stage(run_id: int, stage: int) -> None:
    from backend.tuning.services import tuning_finish_stage

    tuning_finish_stage(run_id=run_id, stage=stage)
