"""The competition app's URLs (public pages and the TD's pages)."""

from django.urls import path

from competition.views import public

app_name = "competition"

urlpatterns = [
    path("", public.home, name="home"),
]
