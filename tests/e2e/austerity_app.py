"""The e2e server of the Austerity runs (``daphne tests.e2e.austerity_app:application``): the
site as it is, with the patches of ``tests.austerity_seats`` applied."""

from stateinclass.asgi import application
from tests import austerity_seats

austerity_seats.apply()

__all__ = ["application"]
