from django.apps import AppConfig


class EvaluationConfig(AppConfig):
    name = "evaluation"
    verbose_name = "Evaluation"

    def ready(self) -> None:
        from evaluation.services.computers import COMPUTERS, recompute_run
        from evaluation.services.handoffs import RECEIVERS
        from evaluation.services.heartbeat import worker_heartbeat_record
        from evaluation.services.recompute import recompute_fail
        from evaluation.services.sweep import recomputes_sweep_step
        from work import kinds
        from work.sweep import sweep_register

        # background work (work.kinds): what each kind of recompute computes, the body of
        # the recompute task, what the hand-offs ask for, where a worker's heartbeat goes
        for kind, computer in COMPUTERS:
            kinds.kind_register(kind, run=computer, table=kinds.RECOMPUTE)
        kinds.table_register(
            kinds.RECOMPUTE,
            run=lambda pk, *, task_id, worker: recompute_run(
                recompute_id=pk, task_id=task_id, worker=worker
            ),
            fail=lambda pk, exc: recompute_fail(
                recompute_id=pk, error=f"gave up after retries: {exc}"
            ),
        )
        for task, receive in RECEIVERS.items():
            kinds.receiver_register(task, receive)
        kinds.heartbeat_register(worker_heartbeat_record)
        sweep_register("recomputes", recomputes_sweep_step)  # the one sweep of background work
