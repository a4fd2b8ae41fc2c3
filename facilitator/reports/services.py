"""Services write: the one setting the reports remember (the teacher's paper size)."""

from __future__ import annotations

from django.db import transaction
from django.utils.translation import gettext as _

from facilitator.errors import ServiceError
from facilitator.models import ClassSession

PAPERS = ("a4", "letter")


@transaction.atomic
def session_set_paper(*, session: ClassSession, paper: str) -> ClassSession:
    """Remember ``paper`` ("a4" or "letter") for this lesson's handouts."""
    if paper not in PAPERS:
        raise ServiceError("bad_paper", _("Choose A4 or US Letter."))
    locked = ClassSession.objects.select_for_update().get(pk=session.pk)
    if locked.options.get("paper") != paper:
        locked.options = {**locked.options, "paper": paper}
        locked.save(update_fields=["options"])
    session.options = locked.options
    return locked
