from django.apps import AppConfig


class CrowdConfig(AppConfig):
    name = "crowd"
    verbose_name = "Crowd preference judging"

    def ready(self) -> None:
        from catalog.services.trash import Kind, trash_kind_register, trash_work_register
        from crowd.models import Answer, Example, PreferenceCampaign, TrapQuestion

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
