from django.urls import path

from facilitator import views

app_name = "facilitator"
urlpatterns = [
    path("", views.dashboard, name="dashboard"),
]
