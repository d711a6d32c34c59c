# Judgment sources become rows (judging/models/sources.py): each relevance campaign and
# each former source string of RelevanceJudgment ("import:<file>", "campaign:<id>",
# "api:<user>", "answers-import:<campaign id>", "demo") becomes a named JudgmentSource of
# its collection, official (counting) as every judgment counted before. This migration
# creates them and points every judgment at its source (source_ref); the next one drops
# the old string column and renames source_ref to source.

import django.db.models.deletion
import common.validation
from django.db import migrations, models


BLANK = "(no source given)"
OLD_PREFIXES = ("import:", "answers-import:", "api:")


def _kind_and_name(text):
    for prefix, kind in (("import:", "import"), ("answers-import:", "answers"), ("api:", "api")):
        if text.startswith(prefix):
            return kind, (text[len(prefix):] if kind == "import" else text) or text
    if text == "demo":
        return "demo", "demo"
    return "import", text or "unnamed"


def _free(taken, name):
    name = name[:200]
    candidate, n = name, 2
    while candidate in taken:
        suffix = f" ({n})"
        candidate, n = name[: 200 - len(suffix)] + suffix, n + 1
    taken.add(candidate)
    return candidate


def sources_from_strings(apps, schema_editor):
    Source = apps.get_model("judging", "JudgmentSource")
    Judgment = apps.get_model("judging", "RelevanceJudgment")
    Campaign = apps.get_model("judging", "RelevanceCampaign")
    taken = {}  # collection id -> names used
    made = {}  # (collection id, old string) -> source id
    for campaign in Campaign.objects.order_by("pk"):
        names = taken.setdefault(campaign.collection_id, set())
        source = Source.objects.create(
            collection_id=campaign.collection_id, name=_free(names, campaign.name), kind="campaign",
            relevance_campaign_id=campaign.pk,
        )
        made[(campaign.collection_id, f"campaign:{campaign.pk}")] = source.pk
    pairs = (
        Judgment.objects.order_by().values_list("query__collection_id", "source").distinct()
    )
    for collection_id, text in sorted(set(pairs)):
        if (collection_id, text) in made:
            continue
        kind, name = _kind_and_name(text)
        names = taken.setdefault(collection_id, set())
        source = Source.objects.create(
            collection_id=collection_id, name=_free(names, name), kind=kind,
            origin=text or BLANK,
        )
        made[(collection_id, text)] = source.pk
    for (collection_id, text), source_id in made.items():
        Judgment.objects.filter(query__collection_id=collection_id, source=text).update(
            source_ref_id=source_id
        )


def strings_from_sources(apps, schema_editor):
    Judgment = apps.get_model("judging", "RelevanceJudgment")
    for judgment in Judgment.objects.select_related("source_ref").exclude(source_ref=None):
        source = judgment.source_ref
        if source.relevance_campaign_id:
            text = f"campaign:{source.relevance_campaign_id}"
        elif source.origin == BLANK:
            text = ""
        elif source.origin.startswith(OLD_PREFIXES) or source.origin == "demo":
            text = source.origin  # a source made by the forward migration
        elif source.kind == "import":
            text = f"import:{source.name}"
        else:
            text = source.name
        Judgment.objects.filter(pk=judgment.pk).update(source=text[:200])


class Migration(migrations.Migration):

    dependencies = [
        ('judging', '0010_validated_names_and_texts'),
    ]

    operations = [
        migrations.CreateModel(
            name='JudgmentSource',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('name', models.CharField(max_length=200, validators=[common.validation.TextValidator('name', 200)])),
                ('kind', models.CharField(choices=[('import', 'imported file'), ('campaign', 'relevance campaign'), ('api', 'REST API'), ('answers', 'judgments given with imported preference answers'), ('demo', 'demo')], max_length=10)),
                ('status', models.CharField(choices=[('official', 'official: counts in results'), ('pilot', 'pilot: left out of results')], default='official', max_length=10)),
                ('origin', models.CharField(blank=True, help_text="What last filled it: a file's name, an API user.", max_length=500)),
                ('created_at', models.DateTimeField(auto_now_add=True)),
                ('updated_at', models.DateTimeField(auto_now=True)),
                ('collection', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='judgment_sources', to='judging.collection')),
                ('relevance_campaign', models.OneToOneField(blank=True, help_text='The campaign whose assessors made these judgments, if any.', null=True, on_delete=django.db.models.deletion.SET_NULL, related_name='judgment_source', to='judging.relevancecampaign')),
            ],
            options={
                'ordering': ['collection', 'name'],
            },
        ),
        migrations.AddConstraint(
            model_name='judgmentsource',
            constraint=models.UniqueConstraint(fields=('collection', 'name'), name='judgment_source_name_per_collection'),
        ),
        migrations.AddField(
            model_name='relevancejudgment',
            name='source_ref',
            field=models.ForeignKey(null=True, on_delete=django.db.models.deletion.CASCADE, related_name='+', to='judging.judgmentsource'),
        ),
        migrations.RunPython(sources_from_strings, strings_from_sources),
    ]
