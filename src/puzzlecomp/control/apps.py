from django.apps import AppConfig


class ControlConfig(AppConfig):
    name = "puzzlecomp.control"
    verbose_name = "Organiser screens"
