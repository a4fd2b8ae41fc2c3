from django.contrib import admin
from django.contrib.auth import views as auth_views
from django.urls import include, path

from facilitator import views

urlpatterns = [
    path("", views.home, name="home"),
    path("about/", views.about, name="about"),
    path("accounts/login/", auth_views.LoginView.as_view(), name="login"),
    path("accounts/logout/", auth_views.LogoutView.as_view(), name="logout"),
    path("teacher/", include("facilitator.urls")),
    path("admin/", admin.site.urls),
]
