from django.apps import AppConfig


class CrisisLessonConfig(AppConfig):
    """Crisis as a lesson module (teams of students at tables of 2 to 5 teams)."""

    name = "facilitator.lessons.crisis"
    label = "lesson_crisis"
    lesson = "facilitator.lessons.crisis.lesson:LESSON"
