"""The game master's page of a Poleconomy lesson (``Lesson.teacher_urls``): on the teacher's
laptop, never on the projector."""

from django.urls import path

from facilitator.lessons.poleconomy import views

app_name = "poleconomy"
urlpatterns = [
    path("master/", views.master, name="master"),
    path("master/act/", views.master_act, name="master_act"),
]
