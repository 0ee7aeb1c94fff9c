from django.apps import AppConfig


class ChampionshipsConfig(AppConfig):
    name = "puzzlecomp.championships"
    verbose_name = "Championships"
