from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class FacilitatorConfig(AppConfig):
    name = "facilitator"
    verbose_name = _("Class sessions")

    def ready(self) -> None:
        # Registering checks needs the apps loaded: these imports run once they are.
        from facilitator import checks, lesson_checks  # noqa: F401, PLC0415  (registers the checks)
