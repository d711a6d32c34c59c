from django.contrib import admin

from catalog.models import (
    Clip,
    Collection,
    CollectionShare,
    Query,
    RelevanceJudgment,
    RunEntry,
    System,
)


@admin.register(Collection)
class CollectionAdmin(admin.ModelAdmin):
    list_display = ["name", "owner", "created_at"]
    search_fields = ["name"]


@admin.register(Clip)
class ClipAdmin(admin.ModelAdmin):
    list_display = ["external_id", "title", "artist", "genre", "duration", "collection"]
    list_filter = ["collection", "genre"]
    search_fields = ["external_id", "title", "artist"]


@admin.register(Query)
class QueryAdmin(admin.ModelAdmin):
    list_display = ["__str__", "collection"]
    list_filter = ["collection"]
    raw_id_fields = ["clip"]


@admin.register(System)
class SystemAdmin(admin.ModelAdmin):
    list_display = ["name", "team", "collection"]
    list_filter = ["collection"]


@admin.register(RunEntry)
class RunEntryAdmin(admin.ModelAdmin):
    list_display = ["system", "query", "rank", "clip", "score"]
    list_filter = ["system__collection", "system"]
    raw_id_fields = ["query", "clip"]


@admin.register(RelevanceJudgment)
class RelevanceJudgmentAdmin(admin.ModelAdmin):
    list_display = ["query", "clip", "assessor", "source", "broad", "fine", "updated_at"]
    list_filter = ["query__collection", "source"]
    raw_id_fields = ["query", "clip"]


@admin.register(CollectionShare)
class CollectionShareAdmin(admin.ModelAdmin):
    list_display = ["collection", "user", "access", "created_at"]
    list_filter = ["access"]
