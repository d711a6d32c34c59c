from django.contrib import admin

from work.models import Job


@admin.register(Job)
class JobAdmin(admin.ModelAdmin):
    list_display = ["pk", "kind", "state", "owner", "collection", "done", "total", "created_at"]
    list_filter = ["kind", "state"]
    readonly_fields = ["created_at", "started_at", "finished_at", "updated_at"]
