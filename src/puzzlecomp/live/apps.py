from django.apps import AppConfig


class LiveConfig(AppConfig):
    name = "puzzlecomp.live"
    verbose_name = "Live notices"

    def ready(self) -> None:
        from puzzlecomp.championships.notices import notice_numbered
        from puzzlecomp.live.notices import notice_received

        notice_numbered.connect(notice_received, dispatch_uid="puzzlecomp.live.notice_send")
