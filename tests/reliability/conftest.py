import pytest


@pytest.fixture(autouse=True)
def _fast_password_hashing(settings):
    """Teachers are created in many tests; PBKDF2 would spend most of the suite's time."""
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


@pytest.fixture(autouse=True)
def _fresh_channel_layer():
    """Each test gets its own channel layer object.

    channels-redis keeps one receive lock per layer object, bound to the event loop of the
    first receive; a consumer cancelled mid-receive in an earlier test (another event loop)
    can leave it held, and every later socket then fails with "bound to a different event
    loop". A fresh layer per test keeps such a failure from spreading into these tests.
    """
    from channels.layers import channel_layers

    channel_layers.backends = {}
    yield
