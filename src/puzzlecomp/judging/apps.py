from django.apps import AppConfig


class JudgingConfig(AppConfig):
    name = "puzzlecomp.judging"
    verbose_name = "Judges' devices"
