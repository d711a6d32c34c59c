# The move by area (issue 30): state only, generated from the models.

from common.migration_state import StateOnlyMove
from django.db import migrations


# Content types follow their models (permissions and admin log entries point at them);
# trash rows keep serialized rows whose "model" names the app ("judging.example") and the
# links a deletion emptied by model label ("judging.Answer"): both name the new apps.
MOVED = {
    "Answer": "crowd",
    "AnswerColumnMapping": "ingest",
    "AssessorScreen": "listening",
    "Assignment": "relevance",
    "AudioServed": "listening",
    "Clip": "catalog",
    "Collection": "catalog",
    "CollectionShare": "catalog",
    "Example": "crowd",
    "ExampleItem": "crowd",
    "HeadphoneTrial": "listening",
    "Invitation": "people",
    "Job": "work",
    "JudgmentActivity": "relevance",
    "JudgmentSource": "catalog",
    "PendingHandoff": "work",
    "Person": "people",
    "PoolEntry": "relevance",
    "PracticeAnswer": "crowd",
    "PreferenceCampaign": "crowd",
    "PreferenceTask": "crowd",
    "Query": "catalog",
    "RelevanceCampaign": "relevance",
    "RelevanceJudgment": "catalog",
    "RunEntry": "catalog",
    "System": "catalog",
    "TrapQuestion": "crowd",
    "TrashItem": "catalog",
    "Upload": "ingest",
    "Worker": "crowd"
}


def _content_types(apps, schema_editor, *, forward):
    ContentType = apps.get_model("contenttypes", "ContentType")
    for model, app in MOVED.items():
        old, new = ("judging", app) if forward else (app, "judging")
        if ContentType.objects.filter(app_label=new, model=model.lower()).exists():
            continue  # already there (a database made after the move): leave the old one
        ContentType.objects.filter(app_label=old, model=model.lower()).update(app_label=new)


def _label(label, *, forward):
    app, _, model = label.partition(".")
    if forward and app == "judging":
        target = MOVED.get(model) or {m.lower(): a for m, a in MOVED.items()}.get(model)
        return f"{target}.{model}" if target else label
    if not forward and app != "judging":
        known = MOVED.get(model) or {m.lower(): a for m, a in MOVED.items()}.get(model)
        return f"judging.{model}" if known == app else label
    return label


def _trash_rows(apps, schema_editor, *, forward):
    TrashItem = apps.get_model("catalog", "TrashItem")
    for item in TrashItem.objects.all().iterator():
        payload = item.rows
        if not isinstance(payload, dict):
            continue
        for row in payload.get("rows", []):
            if isinstance(row, dict) and "model" in row:
                row["model"] = _label(row["model"], forward=forward)
        for link in payload.get("emptied", []):
            if isinstance(link, list) and link:
                link[0] = _label(link[0], forward=forward)
        TrashItem.objects.filter(pk=item.pk).update(rows=payload)


def names_forward(apps, schema_editor):
    _content_types(apps, schema_editor, forward=True)
    _trash_rows(apps, schema_editor, forward=True)


def names_backward(apps, schema_editor):
    _trash_rows(apps, schema_editor, forward=False)
    _content_types(apps, schema_editor, forward=False)


class Migration(migrations.Migration):

    dependencies = [
        ('catalog', '0002_moved_from_judging'),
        ('contenttypes', '0002_remove_content_type_name'),
        ('crowd', '0001_moved_from_judging'),
        ('evaluation', '0013_foreign_keys_to_moved_models'),
        ('ingest', '0001_moved_from_judging'),
        ('judging', '0034_agreement_and_quiz_questions_per_worker'),
        ('listening', '0001_moved_from_judging'),
        ('people', '0001_moved_from_judging'),
        ('relevance', '0001_moved_from_judging'),
        ('work', '0001_moved_from_judging'),
    ]

    operations = [
        StateOnlyMove(
            state_operations=[
                migrations.RemoveField(
                    model_name='answer',
                    name='example',
                ),
                migrations.RemoveField(
                    model_name='answer',
                    name='task',
                ),
                migrations.RemoveField(
                    model_name='answer',
                    name='worker',
                ),
                migrations.RemoveField(
                    model_name='answercolumnmapping',
                    name='collection',
                ),
                migrations.RemoveField(
                    model_name='answercolumnmapping',
                    name='owner',
                ),
                migrations.RemoveField(
                    model_name='assessorscreen',
                    name='assessor',
                ),
                migrations.RemoveField(
                    model_name='assessorscreen',
                    name='campaign',
                ),
                migrations.RemoveField(
                    model_name='headphonetrial',
                    name='screen',
                ),
                migrations.RemoveField(
                    model_name='assignment',
                    name='assessor',
                ),
                migrations.RemoveField(
                    model_name='assignment',
                    name='campaign',
                ),
                migrations.RemoveField(
                    model_name='assignment',
                    name='pool_entry',
                ),
                migrations.RemoveField(
                    model_name='assignment',
                    name='query',
                ),
                migrations.RemoveField(
                    model_name='audioserved',
                    name='assignment',
                ),
                migrations.RemoveField(
                    model_name='judgmentactivity',
                    name='assignment',
                ),
                migrations.RemoveField(
                    model_name='audioserved',
                    name='clip',
                ),
                migrations.RemoveField(
                    model_name='audioserved',
                    name='task',
                ),
                migrations.RemoveField(
                    model_name='clip',
                    name='collection',
                ),
                migrations.RemoveField(
                    model_name='runentry',
                    name='clip',
                ),
                migrations.RemoveField(
                    model_name='relevancejudgment',
                    name='clip',
                ),
                migrations.RemoveField(
                    model_name='query',
                    name='clip',
                ),
                migrations.RemoveField(
                    model_name='poolentry',
                    name='clip',
                ),
                migrations.RemoveField(
                    model_name='exampleitem',
                    name='clip',
                ),
                migrations.RemoveField(
                    model_name='collection',
                    name='owner',
                ),
                migrations.RemoveField(
                    model_name='trashitem',
                    name='collection',
                ),
                migrations.RemoveField(
                    model_name='judgmentsource',
                    name='collection',
                ),
                migrations.RemoveField(
                    model_name='upload',
                    name='collection',
                ),
                migrations.RemoveField(
                    model_name='query',
                    name='collection',
                ),
                migrations.RemoveField(
                    model_name='collectionshare',
                    name='collection',
                ),
                migrations.RemoveField(
                    model_name='relevancecampaign',
                    name='collection',
                ),
                migrations.RemoveField(
                    model_name='job',
                    name='collection',
                ),
                migrations.RemoveField(
                    model_name='preferencecampaign',
                    name='collection',
                ),
                migrations.RemoveField(
                    model_name='system',
                    name='collection',
                ),
                migrations.RemoveField(
                    model_name='collectionshare',
                    name='user',
                ),
                migrations.RemoveField(
                    model_name='example',
                    name='campaign',
                ),
                migrations.RemoveField(
                    model_name='example',
                    name='query',
                ),
                migrations.RemoveField(
                    model_name='example',
                    name='system_a',
                ),
                migrations.RemoveField(
                    model_name='example',
                    name='system_b',
                ),
                migrations.RemoveField(
                    model_name='exampleitem',
                    name='example',
                ),
                migrations.RemoveField(
                    model_name='trapquestion',
                    name='example',
                ),
                migrations.RemoveField(
                    model_name='preferencetask',
                    name='example',
                ),
                migrations.RemoveField(
                    model_name='headphonetrial',
                    name='worker',
                ),
                migrations.RemoveField(
                    model_name='invitation',
                    name='created_by',
                ),
                migrations.RemoveField(
                    model_name='invitation',
                    name='user',
                ),
                migrations.RemoveField(
                    model_name='job',
                    name='owner',
                ),
                migrations.RemoveField(
                    model_name='upload',
                    name='job',
                ),
                migrations.RemoveField(
                    model_name='judgmentactivity',
                    name='judgment',
                ),
                migrations.RemoveField(
                    model_name='judgmentactivity',
                    name='pool_entry',
                ),
                migrations.RemoveField(
                    model_name='judgmentsource',
                    name='relevance_campaign',
                ),
                migrations.RemoveField(
                    model_name='relevancejudgment',
                    name='source',
                ),
                migrations.DeleteModel(
                    name='PendingHandoff',
                ),
                migrations.RemoveField(
                    model_name='person',
                    name='created_by',
                ),
                migrations.RemoveField(
                    model_name='person',
                    name='user',
                ),
                migrations.RemoveField(
                    model_name='poolentry',
                    name='campaign',
                ),
                migrations.RemoveField(
                    model_name='poolentry',
                    name='query',
                ),
                migrations.RemoveField(
                    model_name='practiceanswer',
                    name='task',
                ),
                migrations.RemoveField(
                    model_name='worker',
                    name='campaign',
                ),
                migrations.RemoveField(
                    model_name='preferencetask',
                    name='worker',
                ),
                migrations.RemoveField(
                    model_name='relevancejudgment',
                    name='query',
                ),
                migrations.RemoveField(
                    model_name='runentry',
                    name='query',
                ),
                migrations.RemoveField(
                    model_name='relevancecampaign',
                    name='assessors',
                ),
                migrations.RemoveField(
                    model_name='relevancejudgment',
                    name='assessor',
                ),
                migrations.RemoveField(
                    model_name='runentry',
                    name='system',
                ),
                migrations.RemoveField(
                    model_name='trashitem',
                    name='owner',
                ),
                migrations.RemoveField(
                    model_name='upload',
                    name='owner',
                ),
                migrations.DeleteModel(
                    name='Answer',
                ),
                migrations.DeleteModel(
                    name='AnswerColumnMapping',
                ),
                migrations.DeleteModel(
                    name='AssessorScreen',
                ),
                migrations.DeleteModel(
                    name='Assignment',
                ),
                migrations.DeleteModel(
                    name='AudioServed',
                ),
                migrations.DeleteModel(
                    name='Clip',
                ),
                migrations.DeleteModel(
                    name='Collection',
                ),
                migrations.DeleteModel(
                    name='CollectionShare',
                ),
                migrations.DeleteModel(
                    name='ExampleItem',
                ),
                migrations.DeleteModel(
                    name='TrapQuestion',
                ),
                migrations.DeleteModel(
                    name='Example',
                ),
                migrations.DeleteModel(
                    name='HeadphoneTrial',
                ),
                migrations.DeleteModel(
                    name='Invitation',
                ),
                migrations.DeleteModel(
                    name='Job',
                ),
                migrations.DeleteModel(
                    name='JudgmentActivity',
                ),
                migrations.DeleteModel(
                    name='JudgmentSource',
                ),
                migrations.DeleteModel(
                    name='Person',
                ),
                migrations.DeleteModel(
                    name='PoolEntry',
                ),
                migrations.DeleteModel(
                    name='PracticeAnswer',
                ),
                migrations.DeleteModel(
                    name='PreferenceCampaign',
                ),
                migrations.DeleteModel(
                    name='PreferenceTask',
                ),
                migrations.DeleteModel(
                    name='Worker',
                ),
                migrations.DeleteModel(
                    name='Query',
                ),
                migrations.DeleteModel(
                    name='RelevanceCampaign',
                ),
                migrations.DeleteModel(
                    name='RelevanceJudgment',
                ),
                migrations.DeleteModel(
                    name='RunEntry',
                ),
                migrations.DeleteModel(
                    name='System',
                ),
                migrations.DeleteModel(
                    name='TrashItem',
                ),
                migrations.DeleteModel(
                    name='Upload',
                ),
            ],
        ),
        migrations.RunPython(names_forward, names_backward),
    ]
