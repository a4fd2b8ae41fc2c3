from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class FacilitatorConfig(AppConfig):
    name = "facilitator"
    verbose_name = _("Class sessions")

    def ready(self) -> None:
        from facilitator import checks  # noqa: F401  (registers the deploy checks)
