"""Admin: lessons, tables and seats, read-mostly. There is no ballot linkage to show: an open
vote is stored as receipts (who voted) and sealed ballots (no seat), a counted one as its
tally in the action log."""

from django.contrib import admin

from facilitator.forms import AdminLoginForm
from facilitator.models import ClassSession, Seat, Table

# The admin's login is throttled like the teacher's (same counter per address).
admin.site.login_form = AdminLoginForm


class TableInline(admin.TabularInline):
    model = Table
    fields = ("number", "seed")
    readonly_fields = fields
    extra = 0
    can_delete = False
    show_change_link = True


@admin.register(ClassSession)
class ClassSessionAdmin(admin.ModelAdmin):
    list_display = ("__str__", "owner", "game", "status", "stage", "round", "created_at")
    list_filter = ("status", "game", "language")
    search_fields = ("title", "join_code", "owner__username")
    readonly_fields = ("join_code", "status", "stage", "round", "created_at", "started_at",
                       "finished_at")
    inlines = [TableInline]


@admin.register(Table)
class TableAdmin(admin.ModelAdmin):
    list_display = ("__str__", "session", "number")
    fields = ("session", "number", "seed", "config")
    readonly_fields = fields


@admin.register(Seat)
class SeatAdmin(admin.ModelAdmin):
    list_display = ("nickname", "session", "table", "position", "is_bot", "removed")
    list_filter = ("is_bot", "removed")
    search_fields = ("nickname",)
    # The token and claim hashes are credentials: never shown.
    fields = ("session", "table", "nickname", "player_name", "position", "is_bot",
              "bot_policy", "shares", "removed", "joined_at")
    readonly_fields = fields
