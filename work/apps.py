from django.apps import AppConfig


class WorkConfig(AppConfig):
    name = "work"
    verbose_name = "Background work"

    def ready(self) -> None:
        from work import kinds
        from work.handoff import handoffs_sweep_step
        from work.job_runners import job_run
        from work.jobs import job_fail, jobs_sweep_step
        from work.sweep import sweep_register

        kinds.table_register(  # the body of the job task (work.tasks)
            kinds.JOB,
            run=lambda pk, *, task_id, worker: job_run(job_id=pk, task_id=task_id),
            fail=lambda pk, exc: job_fail(job_id=pk, error=f"The database kept failing: {exc}"),
        )
        # the one sweep of background work: jobs, then the hand-offs the broker did not
        # take (before the recomputes, evaluation's step, so what they ask for is sent)
        sweep_register("jobs", jobs_sweep_step)
        sweep_register("handoffs", handoffs_sweep_step)
