from django.contrib import admin
from django.contrib.auth import views as auth_views
from django.urls import include, path
from django.views.i18n import set_language

from facilitator import views

urlpatterns = [
    path("", views.home, name="home"),
    path("about/", views.about, name="about"),
    # The "English · Español" switch: stores the choice in the sic_lang cookie (POST only).
    path("language/", set_language, name="set_language"),
    path("join/", views.join, name="join"),
    path("join/<str:code>/", views.join, name="join_code"),
    path("seat/<str:token>/", views.claim_seat, name="claim_seat"),
    path("play/", views.play, name="play"),
    path("play/act/", views.play_act, name="play_act"),
    path("accounts/login/", views.TeacherLoginView.as_view(), name="login"),
    path("accounts/logout/", auth_views.LogoutView.as_view(), name="logout"),
    path("accounts/password/", auth_views.PasswordChangeView.as_view(), name="password_change"),
    path("accounts/password/done/", auth_views.PasswordChangeDoneView.as_view(),
         name="password_change_done"),
    path("teacher/", include("facilitator.urls")),
    path("admin/", admin.site.urls),
]
