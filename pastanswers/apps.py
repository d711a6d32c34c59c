from django.apps import AppConfig


class PastAnswersConfig(AppConfig):
    name = "pastanswers"
    verbose_name = "Past preference answers"

    def ready(self) -> None:
        from ingest.kinds import upload_kind_register
        from ingest.models import Upload
        from ingest.services.uploads import Role
        from pastanswers.forms import AnswersUploadForm
        from pastanswers.importers.answers import MAX_ROWS
        from pastanswers.services.answer_uploads import upload_answers_run

        # past preference answers (the documented CSV, a CrowdFlower export) are uploaded
        upload_kind_register(
            Upload.ANSWERS,
            roles=(Role("answers", "Answers file (CSV)", (".csv", ".txt", "")),),
            max_lines=MAX_ROWS,
            form=AnswersUploadForm,
            runner=upload_answers_run,
        )
