from django.apps import AppConfig


class AusterityLessonConfig(AppConfig):
    """Austerity as a lesson module (its classroom side is in preparation)."""

    name = "facilitator.lessons.austerity"
    label = "lesson_austerity"
    lesson = "facilitator.lessons.austerity.lesson:LESSON"
