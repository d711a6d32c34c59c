from django.apps import AppConfig


class IngestConfig(AppConfig):
    name = "ingest"
    verbose_name = "Uploads"

    def ready(self) -> None:
        from catalog.job_pages import JobPage, job_page_register
        from ingest.models import Upload
        from ingest.services.upload_runners import UPLOAD_RUNNERS
        from work.kinds import kind_register

        # each kind of upload is imported by a background job: upload_<kind>
        titles = dict(Upload.KINDS)
        for kind, runner in UPLOAD_RUNNERS:
            kind_register(f"upload_{kind}", run=runner)
            job_page_register(
                f"upload_{kind}",
                JobPage(f"Upload of {titles[kind]}", "ingest/job_results/upload.html"),
            )
