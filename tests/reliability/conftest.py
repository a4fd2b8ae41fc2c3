import pytest


@pytest.fixture(autouse=True)
def _fast_password_hashing(settings):
    """Teachers are created in many tests; PBKDF2 would spend most of the suite's time."""
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
