"""URLs of this area (included by its parent urls.py)."""

app_name = "setup"
urlpatterns: list = []
