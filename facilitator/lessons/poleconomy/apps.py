from django.apps import AppConfig


class PoleconomyLessonConfig(AppConfig):
    """Poleconomy as a lesson module, with the teacher as game master."""

    name = "facilitator.lessons.poleconomy"
    label = "lesson_poleconomy"
    lesson = "facilitator.lessons.poleconomy.lesson:LESSON"
