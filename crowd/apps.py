from django.apps import AppConfig


class CrowdConfig(AppConfig):
    name = "crowd"
    verbose_name = "Crowd preference judging"

    def ready(self) -> None:
        from catalog.job_pages import JobPage, job_page_register
        from catalog.services.trash import Kind, trash_kind_register, trash_work_register
        from crowd.models import Answer, Example, PreferenceCampaign, TrapQuestion
        from crowd.services.generator import generator_run
        from evaluation.core.example_generator import N_BINS, bin_label
        from work.kinds import kind_register

        # the §3.2.1 example generator runs as a background job
        kind_register("generate_examples", run=generator_run)
        job_page_register(
            "generate_examples",
            JobPage(
                "Example generator",
                "crowd/job_results/generate_examples.html",
                context=lambda job: {"bin_labels": [bin_label(b) for b in range(N_BINS)]},
            ),
        )

        # examples, trap questions and campaigns are deleted with undo; answers are work
        trash_kind_register(
            "example", Kind(Example, lambda c: Example.objects.filter(campaign__collection=c))
        )
        trash_kind_register(
            "trap",
            Kind(
                TrapQuestion, lambda c: TrapQuestion.objects.filter(example__campaign__collection=c)
            ),
        )
        trash_kind_register(
            "preference_campaign",
            Kind(PreferenceCampaign, lambda c: c.preference_campaigns.all()),
        )
        trash_work_register(Answer)
