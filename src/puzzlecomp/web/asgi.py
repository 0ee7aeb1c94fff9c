"""The ASGI application that `puzzlecomp serve` runs."""

import os

from django.core.asgi import get_asgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "puzzlecomp.settings.dev")

application = get_asgi_application()
