from django.apps import AppConfig


class PublicConfig(AppConfig):
    name = "puzzlecomp.public"
    verbose_name = "Public pages"
