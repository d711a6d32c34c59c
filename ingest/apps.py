from django.apps import AppConfig


class IngestConfig(AppConfig):
    name = "ingest"
    verbose_name = "Uploads"

    def ready(self) -> None:
        from catalog.job_pages import JobPage, job_page_register
        from ingest.models import Upload
        from ingest.services.upload_runners import UPLOAD_RUNNERS
        from work.job_runners import job_runner_register

        # each kind of upload is imported by a background job: upload_<kind>
        for kind, title in Upload.KINDS:
            if f"upload_{kind}" in UPLOAD_RUNNERS:
                job_runner_register(f"upload_{kind}", UPLOAD_RUNNERS[f"upload_{kind}"])
                job_page_register(
                    f"upload_{kind}",
                    JobPage(f"Upload of {title}", "ingest/job_results/upload.html"),
                )
