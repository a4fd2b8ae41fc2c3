"""Forms for the few HTTP pages that change something: joining, creating a lesson, logging in."""

from __future__ import annotations

from typing import Any

from django import forms
from django.conf import settings
from django.contrib.admin.forms import AdminAuthenticationForm
from django.contrib.auth.forms import AuthenticationForm
from django.core.exceptions import ValidationError
from django.http import HttpRequest
from django.utils.translation import gettext_lazy as _

from facilitator import ratelimit
from facilitator.models import CLASS_SIZE_DEFAULT, CLASS_SIZE_MAX, CLASS_SIZE_MIN, ClassSession
from games.state_in_class import bots


class JoinForm(forms.Form):
    code = forms.CharField(
        label=_("Lesson code"), max_length=12,
        widget=forms.TextInput(attrs={"autocomplete": "off", "autocapitalize": "characters",
                                      "spellcheck": "false", "inputmode": "text"}))
    nickname = forms.CharField(
        label=_("Your nickname"), max_length=60,
        help_text=_("Up to 20 characters. Your classmates will see it."),
        widget=forms.TextInput(attrs={"autocomplete": "nickname", "maxlength": "20"}))


class NewLessonForm(forms.Form):
    title = forms.CharField(label=_("Lesson title"), max_length=120, required=False,
                            help_text=_("For example: 3B Economics, Tuesday."))
    game = forms.ChoiceField(label=_("Game"), choices=ClassSession.Game.choices,
                             initial=ClassSession.Game.STATE_IN_CLASS)
    language = forms.ChoiceField(label=_("Language"), choices=settings.LANGUAGES)
    # Not required: a form posted without it (an older page) gets the default.
    class_size = forms.IntegerField(
        label=_("Class size"), initial=CLASS_SIZE_DEFAULT, required=False,
        min_value=CLASS_SIZE_MIN, max_value=CLASS_SIZE_MAX,
        help_text=_("The most students who can join, from 6 to 40. When it is reached, the "
                    "join page tells newcomers that the lesson is full."))
    debate_seconds = forms.TypedChoiceField(
        label=_("Debate timer"), coerce=int, initial=120,
        choices=[(60, _("1 minute")), (120, _("2 minutes (as in the rules)")),
                 (180, _("3 minutes")), (300, _("5 minutes"))])
    bots_allowed = forms.BooleanField(
        label=_("Bots may fill empty seats"), required=False, initial=True,
        help_text=_("A table needs 6 to 8 players. Bots vote on their own and are marked "
                    "as bots."))
    bot_policy = forms.ChoiceField(
        label=_("How bots play"), initial="civic",
        choices=[("civic", _("Civic: progressive tax, spread budget")),
                 ("class-selfish", _("Selfish: pay as little as possible")),
                 ("random", _("Random"))])

    def clean_class_size(self) -> int:
        return self.cleaned_data["class_size"] or CLASS_SIZE_DEFAULT

    def options(self) -> dict[str, Any]:
        data = self.cleaned_data
        assert data["bot_policy"] in bots.POLICIES
        return {"debate_seconds": data["debate_seconds"], "bots_allowed": data["bots_allowed"],
                "bot_policy": data["bot_policy"]}


class ThrottledLogin:
    """Failed logins are counted per client address (a keyed hash, see ``ratelimit``); at
    ``LOGIN_FAILURES_PER_MINUTE`` in a minute the form refuses every login from that address,
    the right password included, until the minute is over (the password is not even checked
    then, so guessing on gains nothing)."""

    request: HttpRequest | None

    def clean(self) -> dict[str, object]:
        if self.request is None:  # a form built without a request (no address to count)
            return super().clean()  # type: ignore[misc]
        if ratelimit.reached(self.request, "login-fail", settings.LOGIN_FAILURES_PER_MINUTE):
            raise ValidationError(_("Too many failed logins from this network. Wait a minute, "
                                    "then try again."), code="throttled")
        try:
            return super().clean()  # type: ignore[misc]
        except ValidationError as exc:
            if exc.code == "invalid_login":
                ratelimit.count(self.request, "login-fail")
            raise


class TeacherLoginForm(ThrottledLogin, AuthenticationForm):
    pass


class AdminLoginForm(ThrottledLogin, AdminAuthenticationForm):
    pass
