"""A tuning run's three tasks: `prepare` (cpu), a chord of `evaluate_slice` per stage (cpu),
and `finish_stage`, the chord's callback (default queue: it only merges and queues)."""

from typing import Any

from celery import shared_task

from backend.jobs.tasks import JobTask
from backend.tuning.selectors import tuning_run_job_id, tuning_slice_job_id
from backend.tuning.services import tuning_evaluate_slice, tuning_finish_stage, tuning_prepare_run


class _SliceTask(JobTask):
    """A chord's header task: the chord counts its results in the result backend."""

    ignore_result = False

    def job_id_of(self, args: tuple[Any, ...]) -> int | None:
        return tuning_slice_job_id(slice_id=args[0])


class _StageTask(JobTask):
    def job_id_of(self, args: tuple[Any, ...]) -> int | None:
        return tuning_run_job_id(run_id=args[0])


@shared_task(bind=True, name="backend.tuning.tasks.prepare", base=JobTask)
def prepare(self: JobTask, job_id: int) -> None:
    tuning_prepare_run(job_id=job_id, task_id=self.request.id)


@shared_task(name="backend.tuning.tasks.evaluate_slice", base=_SliceTask)
def evaluate_slice(slice_id: int) -> None:
    tuning_evaluate_slice(slice_id=slice_id)


@shared_task(name="backend.tuning.tasks.finish_stage", base=_StageTask)
def finish_stage(run_id: int, stage: int) -> None:
    tuning_finish_stage(run_id=run_id, stage=stage)
