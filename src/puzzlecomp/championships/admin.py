from django.contrib import admin

from puzzlecomp.championships import models
from puzzlecomp.championships.actions import action_message


@admin.register(models.Championship)
class ChampionshipAdmin(admin.ModelAdmin):
    list_display = ["name", "ruleset_id", "starts_at", "published"]
    search_fields = ["name", "slug"]


@admin.register(models.Entry)
class EntryAdmin(admin.ModelAdmin):
    list_display = ["number", "name", "event", "country", "status", "group"]
    list_filter = ["status", "event__championship"]
    search_fields = ["name"]


@admin.register(models.Person)
class PersonAdmin(admin.ModelAdmin):
    list_display = ["last_name", "first_name", "nationality"]
    search_fields = ["last_name", "first_name", "email"]


@admin.register(models.AuditEntry)
class AuditEntryAdmin(admin.ModelAdmin):
    list_display = ["at", "championship", "user", "description"]
    list_filter = ["championship"]

    @admin.display(description="what happened")
    def description(self, entry: models.AuditEntry) -> str:
        return action_message(entry.action, entry.data)


for model in (models.Membership, models.Event, models.Round, models.Puzzle, models.Seat,
              models.Result, models.GroupMove, models.GroupDraw, models.RelayDraw,
              models.ModelChoice, models.TimeCreditGrant):
    admin.site.register(model)
