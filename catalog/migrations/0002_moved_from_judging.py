# The move by area (issue 30): state only, generated from the models.

import catalog.search
import django.db.models.deletion
from django.conf import settings
from common.migration_state import StateOnlyMove
from django.db import migrations, models


class Migration(migrations.Migration):

    initial = True

    dependencies = [
        ('catalog', '0001_moved_from_judging'),
        ('relevance', '0001_moved_from_judging'),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        StateOnlyMove(
            state_operations=[
                migrations.AddField(
                    model_name='judgmentsource',
                    name='relevance_campaign',
                    field=models.OneToOneField(blank=True, help_text='The campaign whose assessors made these judgments, if any.', null=True, on_delete=django.db.models.deletion.SET_NULL, related_name='judgment_source', to='relevance.relevancecampaign'),
                ),
                migrations.AddField(
                    model_name='query',
                    name='clip',
                    field=models.ForeignKey(on_delete=django.db.models.deletion.RESTRICT, related_name='as_queries', to='catalog.clip'),
                ),
                migrations.AddField(
                    model_name='query',
                    name='collection',
                    field=models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='queries', to='catalog.collection'),
                ),
                migrations.AddField(
                    model_name='relevancejudgment',
                    name='assessor',
                    field=models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.SET_NULL, related_name='relevance_judgments', to=settings.AUTH_USER_MODEL),
                ),
                migrations.AddField(
                    model_name='relevancejudgment',
                    name='clip',
                    field=models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='judgments', to='catalog.clip'),
                ),
                migrations.AddField(
                    model_name='relevancejudgment',
                    name='query',
                    field=models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='judgments', to='catalog.query'),
                ),
                migrations.AddField(
                    model_name='relevancejudgment',
                    name='source',
                    field=models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='judgments', to='catalog.judgmentsource'),
                ),
                migrations.AddField(
                    model_name='runentry',
                    name='clip',
                    field=models.ForeignKey(on_delete=django.db.models.deletion.RESTRICT, related_name='run_entries', to='catalog.clip'),
                ),
                migrations.AddField(
                    model_name='runentry',
                    name='query',
                    field=models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='run_entries', to='catalog.query'),
                ),
                migrations.AddField(
                    model_name='system',
                    name='collection',
                    field=models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='systems', to='catalog.collection'),
                ),
                migrations.AddField(
                    model_name='runentry',
                    name='system',
                    field=models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='run_entries', to='catalog.system'),
                ),
                migrations.AddField(
                    model_name='trashitem',
                    name='collection',
                    field=models.ForeignKey(blank=True, help_text="Who may restore it: the collection's organisers.", null=True, on_delete=django.db.models.deletion.CASCADE, related_name='trash', to='catalog.collection'),
                ),
                migrations.AddField(
                    model_name='trashitem',
                    name='owner',
                    field=models.ForeignKey(blank=True, help_text="Who deleted it; a deleted collection is its owner's.", null=True, on_delete=django.db.models.deletion.SET_NULL, related_name='+', to=settings.AUTH_USER_MODEL),
                ),
                migrations.AddConstraint(
                    model_name='collection',
                    constraint=models.UniqueConstraint(fields=('owner', 'name'), name='collection_name_per_owner'),
                ),
                migrations.AddIndex(
                    model_name='clip',
                    index=models.Index(models.F('collection'), catalog.search.SearchKey('external_id'), name='clip_id_search'),
                ),
                migrations.AddIndex(
                    model_name='clip',
                    index=models.Index(models.F('collection'), catalog.search.SearchKey('title'), name='clip_title_search'),
                ),
                migrations.AddIndex(
                    model_name='clip',
                    index=models.Index(models.F('collection'), catalog.search.SearchKey('artist'), name='clip_artist_search'),
                ),
                migrations.AddConstraint(
                    model_name='clip',
                    constraint=models.UniqueConstraint(fields=('collection', 'external_id'), name='clip_external_id_per_collection'),
                ),
                migrations.AddConstraint(
                    model_name='collectionshare',
                    constraint=models.UniqueConstraint(fields=('collection', 'user'), name='share_once_per_user'),
                ),
                migrations.AddConstraint(
                    model_name='collectionshare',
                    constraint=models.CheckConstraint(condition=models.Q(('access__in', ['read', 'full'])), name='share_access'),
                ),
                migrations.AddConstraint(
                    model_name='judgmentsource',
                    constraint=models.UniqueConstraint(fields=('collection', 'name'), name='judgment_source_name_per_collection'),
                ),
                migrations.AddConstraint(
                    model_name='query',
                    constraint=models.UniqueConstraint(fields=('collection', 'clip'), name='query_clip_per_collection'),
                ),
                migrations.AddConstraint(
                    model_name='relevancejudgment',
                    constraint=models.UniqueConstraint(condition=models.Q(('assessor__isnull', False)), fields=('query', 'clip', 'assessor', 'source'), name='judgment_once_per_assessor'),
                ),
                migrations.AddConstraint(
                    model_name='relevancejudgment',
                    constraint=models.UniqueConstraint(condition=models.Q(('assessor__isnull', True)), fields=('query', 'clip', 'source'), name='judgment_once_per_source'),
                ),
                migrations.AddConstraint(
                    model_name='relevancejudgment',
                    constraint=models.CheckConstraint(condition=models.Q(('broad__isnull', True), ('broad__lte', 2), _connector='OR'), name='judgment_broad_0_2'),
                ),
                migrations.AddConstraint(
                    model_name='relevancejudgment',
                    constraint=models.CheckConstraint(condition=models.Q(('fine__isnull', True), ('fine__lte', 100), _connector='OR'), name='judgment_fine_0_100'),
                ),
                migrations.AddConstraint(
                    model_name='system',
                    constraint=models.UniqueConstraint(fields=('collection', 'name'), name='system_name_per_collection'),
                ),
                migrations.AddConstraint(
                    model_name='runentry',
                    constraint=models.UniqueConstraint(fields=('system', 'query', 'rank'), name='run_rank_unique'),
                ),
                migrations.AddConstraint(
                    model_name='runentry',
                    constraint=models.UniqueConstraint(fields=('system', 'query', 'clip'), name='run_clip_unique'),
                ),
                migrations.AddConstraint(
                    model_name='runentry',
                    constraint=models.CheckConstraint(condition=models.Q(('rank__gte', 1)), name='run_rank_from_one'),
                ),
            ],
        ),
    ]
