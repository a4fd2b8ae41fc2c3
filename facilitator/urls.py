from django.urls import include, path

from facilitator import views
from facilitator.lessons import all_lessons

app_name = "facilitator"
urlpatterns = [
    path("", views.dashboard, name="dashboard"),
    path("lessons/new/", views.lesson_new, name="lesson_new"),
    path("lessons/<int:session_id>/", views.console, name="console"),
    path("lessons/<int:session_id>/act/", views.console_act, name="console_act"),
    path("lessons/<int:session_id>/students/", views.students, name="students"),
    path("lessons/<int:session_id>/qr.svg", views.join_qr, name="join_qr"),
    path("lessons/<int:session_id>/seats/<int:seat_id>/reseat/", views.reseat, name="reseat"),
    path("lessons/<int:session_id>/tables/<int:number>/record.json", views.export_record,
         name="export_record"),
    path("lessons/<int:session_id>/reports/", include("facilitator.reports.urls")),
]
# A lesson module's own teacher pages (``Lesson.teacher_urls``, a URLconf's dotted path), under
# its lessons' address: e.g. a game master's page that must not be on the projector.
urlpatterns += [path(f"lessons/<int:session_id>/{lesson.game}/", include(lesson.teacher_urls))
                for lesson in all_lessons() if lesson.teacher_urls]
