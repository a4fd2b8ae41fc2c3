from django.apps import AppConfig


class CrisisLessonConfig(AppConfig):
    """Crisis as a lesson module (its classroom side is in preparation)."""

    name = "facilitator.lessons.crisis"
    label = "lesson_crisis"
    lesson = "facilitator.lessons.crisis.lesson:LESSON"
