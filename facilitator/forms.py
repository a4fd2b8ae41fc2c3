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

from facilitator import lessons, ratelimit
from facilitator.lessons.base import Lesson
from facilitator.models import CLASS_SIZE_DEFAULT, CLASS_SIZE_MAX, CLASS_SIZE_MIN


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
    """The options every lesson has; ``lesson_form`` adds the chosen module's own."""

    title = forms.CharField(label=_("Lesson title"), max_length=120, required=False,
                            help_text=_("For example: 3B Economics, Tuesday."))
    game = forms.ChoiceField(label=_("Game"), widget=forms.HiddenInput)
    language = forms.ChoiceField(label=_("Language"), choices=settings.LANGUAGES)
    # Not required: a form posted without it (an older page) gets the default.
    class_size = forms.IntegerField(
        label=_("Class size"), initial=CLASS_SIZE_DEFAULT, required=False,
        min_value=CLASS_SIZE_MIN, max_value=CLASS_SIZE_MAX,
        help_text=_("The most students who can join, from 6 to 40. When it is reached, the "
                    "join page tells newcomers that the lesson is full."))

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["game"].choices = [(lesson.game, lesson.name)
                                       for lesson in lessons.playable()]

    def clean_class_size(self) -> int:
        return self.cleaned_data["class_size"] or CLASS_SIZE_DEFAULT

    def options(self) -> dict[str, Any]:
        return {}


def lesson_form(lesson: Lesson) -> type[NewLessonForm]:
    """The new-lesson form for ``lesson``: the common fields, then the module's options."""
    if lesson.options_form is None:
        return NewLessonForm
    common = list(NewLessonForm.base_fields)
    return type(f"New{type(lesson).__name__}Form", (NewLessonForm, lesson.options_form),
                {"options": lesson.options_form.options,
                 "field_order": common + list(lesson.options_form.base_fields)})


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
