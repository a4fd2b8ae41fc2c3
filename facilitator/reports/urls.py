"""Included by facilitator/urls.py under ``lessons/<int:session_id>/reports/``."""

from django.urls import path

from facilitator.reports import views

app_name = "reports"
urlpatterns = [
    path("", views.index, name="index"),
    path("class.pdf", views.class_pdf, name="class_pdf"),
    path("students.pdf", views.students_pdf, name="students_pdf"),
    path("prepare/<str:what>", views.prepare, name="prepare"),
    path("student/<int:seat_id>.pdf", views.student_pdf, name="student_pdf"),
    path("table/<int:number>/record.json", views.table_record, name="table_record"),
    path("rounds.csv", views.rounds_csv, name="rounds_csv"),
    path("results.csv", views.results_csv, name="results_csv"),
    path("what-if/", views.whatif, name="whatif"),
    path("turning-points/", views.turning_points, name="turning_points"),
]
