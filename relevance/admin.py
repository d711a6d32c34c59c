from django.contrib import admin

from relevance.models import Assignment, JudgmentActivity, PoolEntry, RelevanceCampaign


@admin.register(RelevanceCampaign)
class RelevanceCampaignAdmin(admin.ModelAdmin):
    list_display = ["name", "collection", "cutoff", "assessors_per_query", "is_open", "created_at"]
    list_filter = ["is_open", "collection"]
    filter_horizontal = ["assessors"]


@admin.register(PoolEntry)
class PoolEntryAdmin(admin.ModelAdmin):
    list_display = ["campaign", "query", "clip"]
    list_filter = ["campaign"]
    raw_id_fields = ["query", "clip"]


@admin.register(Assignment)
class AssignmentAdmin(admin.ModelAdmin):
    list_display = [
        "campaign",
        "query",
        "slot",
        "assessor",
        "assigned_at",
        "touched_at",
        "completed_at",
    ]
    list_filter = ["campaign"]
    raw_id_fields = ["query"]


@admin.register(JudgmentActivity)
class JudgmentActivityAdmin(admin.ModelAdmin):
    list_display = ["assignment", "pool_entry", "listened_seconds", "judging_seconds", "plays"]
    raw_id_fields = ["assignment", "pool_entry", "judgment"]
