from django.apps import AppConfig


class AusterityLessonConfig(AppConfig):
    """Austerity as a lesson module: each table governs a country."""

    name = "facilitator.lessons.austerity"
    label = "lesson_austerity"
    lesson = "facilitator.lessons.austerity.lesson:LESSON"
