from django.apps import AppConfig


class ListeningConfig(AppConfig):
    name = "listening"
    verbose_name = "Listening"

    def ready(self) -> None:
        from catalog.job_pages import JobPage, job_page_register
        from listening.services.listening_copies import listening_copies_run
        from work.kinds import kind_register

        # what listeners hear (equal loudness, excerpts) is made by a background job
        kind_register("listening_copies", run=listening_copies_run)
        job_page_register("listening_copies", JobPage("Copies of the clips for listeners"))
