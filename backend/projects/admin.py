from django.contrib import admin

from backend.projects.models import Membership, Project


class MembershipInline(admin.TabularInline):
    model = Membership
    extra = 1
    autocomplete_fields = ["user"]


@admin.register(Project)
class ProjectAdmin(admin.ModelAdmin):
    list_display = ["name", "language", "promoted_parameter_set", "created_by", "created_at"]
    search_fields = ["name", "description"]
    list_filter = ["language"]
    raw_id_fields = ["promoted_parameter_set", "created_by"]
    inlines = [MembershipInline]


@admin.register(Membership)
class MembershipAdmin(admin.ModelAdmin):
    list_display = ["project", "user", "role", "created_at"]
    list_filter = ["role", "project"]
    search_fields = ["project__name", "user__username"]
    autocomplete_fields = ["user", "project"]
