"""URLs of this area (included by its parent urls.py)."""

app_name = "registrations"
urlpatterns: list = []
