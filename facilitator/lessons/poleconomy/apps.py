from django.apps import AppConfig


class PoleconomyLessonConfig(AppConfig):
    """Poleconomy as a lesson module (its classroom side is in preparation)."""

    name = "facilitator.lessons.poleconomy"
    label = "lesson_poleconomy"
    lesson = "facilitator.lessons.poleconomy.lesson:LESSON"
