"""Collections shared with co-organisers (read-only or full), archived collections, and
the indexes of the collection page's prefix search (catalog.search)."""

import django.db.models.deletion
import catalog.search
from django.conf import settings
from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ('judging', '0004_preference_campaign_imported_from'),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.CreateModel(
            name='CollectionShare',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('access', models.CharField(choices=[('read', 'read-only'), ('full', 'full')], max_length=4)),
                ('created_at', models.DateTimeField(auto_now_add=True)),
            ],
            options={
                'ordering': ['collection', 'user__username'],
            },
        ),
        migrations.AddField(
            model_name='collection',
            name='archived_at',
            field=models.DateTimeField(blank=True, help_text='Archived collections are left out of the list.', null=True),
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
        migrations.AddField(
            model_name='collectionshare',
            name='collection',
            field=models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='shares', to='judging.collection'),
        ),
        migrations.AddField(
            model_name='collectionshare',
            name='user',
            field=models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='collection_shares', to=settings.AUTH_USER_MODEL),
        ),
        migrations.AddConstraint(
            model_name='collectionshare',
            constraint=models.UniqueConstraint(fields=('collection', 'user'), name='share_once_per_user'),
        ),
        migrations.AddConstraint(
            model_name='collectionshare',
            constraint=models.CheckConstraint(condition=models.Q(('access__in', ['read', 'full'])), name='share_access'),
        ),
    ]
