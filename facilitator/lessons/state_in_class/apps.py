from django.apps import AppConfig


class StateInClassLessonConfig(AppConfig):
    """State in Class as a lesson module: its lesson side (script, screens, debrief)."""

    name = "facilitator.lessons.state_in_class"
    label = "lesson_state_in_class"
    lesson = "facilitator.lessons.state_in_class.lesson:LESSON"
