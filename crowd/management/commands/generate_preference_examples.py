"""Add §3.2.1 generated examples to a preference campaign and print the coverage table."""

from django.core.management.base import BaseCommand, CommandError

from crowd.models import PreferenceCampaign
from crowd.services.examples import examples_generate
from evaluation.core.example_generator import bin_label


class Command(BaseCommand):
    help = (
        "Fill (measure, scale, |Δλ| bin) combinations with artificial examples built from the "
        "collection's Fine judgments (thesis §3.2.1) and add them to the campaign."
    )

    def add_arguments(self, parser):
        parser.add_argument("campaign", type=int, help="id of the preference campaign")
        parser.add_argument(
            "--measure", action="append", required=True,
            help="e.g. 'CG(scale=fine)@5' or 'RBP(form=user,scale=graded4)@5'; repeat for several",
        )  # fmt: skip
        parser.add_argument("--per-bin", type=int, default=200)
        parser.add_argument("--seed", type=int, default=0)

    def handle(self, *args, **options):
        campaign = PreferenceCampaign.objects.filter(pk=options["campaign"]).first()
        if campaign is None:
            raise CommandError(f"no preference campaign {options['campaign']}")
        try:
            report = examples_generate(
                campaign=campaign, measures=options["measure"], per_bin=options["per_bin"],
                seed=options["seed"],
            )  # fmt: skip
        except ValueError as error:
            raise CommandError(str(error)) from error
        self.stdout.write(report.table())
        for measure, b, n in report.unfilled:
            self.stdout.write(f"not filled: ({measure}, {bin_label(b)}) got {n}")
