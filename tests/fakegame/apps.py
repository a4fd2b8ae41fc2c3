from django.apps import AppConfig


class CoinJarConfig(AppConfig):
    """The fake game's lesson module, installed only by the platform's tests."""

    name = "tests.fakegame"
    label = "lesson_coin_jar"
    lesson = "tests.fakegame.lesson:LESSON"
