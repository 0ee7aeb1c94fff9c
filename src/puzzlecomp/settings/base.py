"""Settings shared by every environment; each value can come from an environment variable."""

from __future__ import annotations

import datetime as dt
import os
from pathlib import Path
from typing import Any

import dj_database_url
from csp.constants import NONE, SELF
from django.utils.translation import gettext_lazy as _

PACKAGE_DIR = Path(__file__).resolve().parent.parent
DATA_DIR = Path(os.environ.get("PUZZLECOMP_DATA_DIR", Path.cwd() / "var"))

SECRET_KEY = os.environ.get("SECRET_KEY", "dev-only-not-secret")
DEBUG = os.environ.get("DEBUG", "0") == "1"
ALLOWED_HOSTS = [h for h in os.environ.get("ALLOWED_HOSTS", "localhost,127.0.0.1").split(",") if h]
CSRF_TRUSTED_ORIGINS = [o for o in os.environ.get("CSRF_TRUSTED_ORIGINS", "").split(",") if o]

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    "django_countries",
    # Failed sign-ins per username and address, on every sign-in page (admin included).
    "axes",
    # Static files of the API's interactive documentation.
    "ninja",
    "puzzlecomp.championships",
    "puzzlecomp.control",
    "puzzlecomp.public",
    "puzzlecomp.judging",
    "puzzlecomp.live",
]

MIDDLEWARE = [
    # Outermost, so that it also compresses what WhiteNoise serves (web/compression.py).
    "puzzlecomp.web.compression.PublicGZipMiddleware",
    "django.middleware.security.SecurityMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.locale.LocaleMiddleware",
    # A path with NUL or another control character: 404 before a view or a redirect reads it.
    "puzzlecomp.web.path_guard.ControlCharactersNotFoundMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "puzzlecomp.web.archive.ArchivedReadOnlyMiddleware",
    # A championship's pages in its time zone (web/time_zone.py).
    "puzzlecomp.web.time_zone.ChampionshipTimeZoneMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "csp.middleware.CSPMiddleware",
    # Last: turns a locked-out sign-in into the page that says so (web/login.py).
    "axes.middleware.AxesMiddleware",
]

# Content security policy (docs/security.md): scripts and styles only from our own static files,
# so injected markup cannot run code. SVG presentation attributes (fill, stroke) are not styles.
CONTENT_SECURITY_POLICY = {
    "DIRECTIVES": {
        "default-src": [SELF],
        "script-src": [SELF],
        "style-src": [SELF],
        # data: for the icons the API's Swagger UI inlines.
        "img-src": [SELF, "data:"],
        "connect-src": [SELF],
        "frame-ancestors": [NONE],
        "form-action": [SELF],
        "base-uri": [SELF],
        "object-src": [NONE],
    },
}

ROOT_URLCONF = "puzzlecomp.web.urls"
ASGI_APPLICATION = "puzzlecomp.web.asgi.application"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [PACKAGE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.template.context_processors.i18n",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
            ],
        },
    },
]


def database_from_env(default_sqlite: Path) -> dict[str, object]:
    """PostgreSQL from DATABASE_URL, else SQLite in WAL mode with IMMEDIATE transactions."""
    url = os.environ.get("DATABASE_URL")
    # Requests run on a few long-lived threads (web/asgi.py), each keeping its connection:
    # a process holds at most PUZZLECOMP_REQUEST_THREADS of them, the judges' one and the live
    # app's reads.
    if url:
        database: dict[str, Any] = dict(dj_database_url.parse(url, conn_max_age=600,
                                                              conn_health_checks=True))
        # The judges' statements (championships/plain_sql.py) are prepared after five uses, so
        # the server stops parsing and planning them on every record; `?prepare_threshold=off`
        # in the URL turns that off (a pooler in transaction mode, docs/deployment.md).
        options = database.setdefault("OPTIONS", {})
        threshold = options.setdefault("prepare_threshold", 5)
        options["prepare_threshold"] = None if threshold == "off" else threshold
        return database
    return {
        "ENGINE": "django.db.backends.sqlite3",
        "NAME": default_sqlite,
        "CONN_MAX_AGE": None,
        "OPTIONS": {
            # IMMEDIATE takes the write lock at BEGIN, so concurrent writers queue instead of
            # failing with "database is locked" halfway through a transaction.
            "transaction_mode": "IMMEDIATE",
            "timeout": 20,
            "init_command": "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL;",
        },
    }


DATABASES = {"default": database_from_env(DATA_DIR / "puzzlecomp.sqlite3")}

# The installation's Ed25519 key that signs results packages (docs/results-package.md): made at
# first use, readable by its owner only; in venue mode beside the generated secret key.
RESULTS_KEY_FILE = Path(os.environ.get("PUZZLECOMP_RESULTS_KEY_FILE",
                                       DATA_DIR / "results-signing-key"))

# Redis (REDIS_URL) shares the cache between app processes (form limits, snapshots) and
# carries live notices between them. Sites sharing one Redis each keep their cache keys and
# their notices' channel under their own prefix.
REDIS_URL = os.environ.get("REDIS_URL", "")
REDIS_PREFIX = os.environ.get("PUZZLECOMP_REDIS_PREFIX", "puzzlecomp")


def cache_from_env(redis_url: str, prefix: str) -> dict[str, Any]:
    """Redis when REDIS_URL is set, else this process's memory. While Redis does not answer,
    each process keeps the cache in its own memory (web/redis_cache.py); short timeouts, so a
    Redis gone silent holds a request up a second at most."""
    if not redis_url:
        return {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}
    return {"BACKEND": "puzzlecomp.web.redis_cache.RedisOrLocalCache", "LOCATION": redis_url,
            "KEY_PREFIX": prefix,
            "OPTIONS": {"socket_connect_timeout": 1, "socket_timeout": 1}}


CACHES = {"default": cache_from_env(REDIS_URL, REDIS_PREFIX)}
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
]
LOGIN_URL = "login"
# Failed sign-ins allowed for one username from one address before that pair waits this many
# seconds (django-axes, on /accounts/login/ and /admin/login/ alike). Counting the pair, not
# the address or the username alone, lets the account's owner still sign in when someone else
# guesses at it, or when a hall full of people shares one address.
LOGIN_FAILURES_ALLOWED = int(os.environ.get("LOGIN_FAILURES_ALLOWED", "5"))
LOGIN_LOCKOUT_SECONDS = int(os.environ.get("LOGIN_LOCKOUT_SECONDS", "900"))
AUTHENTICATION_BACKENDS = ["axes.backends.AxesStandaloneBackend",
                           "django.contrib.auth.backends.ModelBackend"]
AXES_FAILURE_LIMIT = LOGIN_FAILURES_ALLOWED
AXES_COOLOFF_TIME = dt.timedelta(seconds=LOGIN_LOCKOUT_SECONDS)
AXES_LOCKOUT_PARAMETERS = [["username", "ip_address"]]
AXES_USERNAME_CALLABLE = "puzzlecomp.web.login.username_of"
AXES_LOCKOUT_CALLABLE = "puzzlecomp.web.login.lockout_response"
AXES_RESET_ON_SUCCESS = True
# Failures are kept (with their address) until the cool-off ends; successful sign-ins are not.
AXES_DISABLE_ACCESS_LOG = True
AXES_VERBOSE = False
# Anonymous forms that send email: at most this many per address (and per email address) an
# hour (championships/throttle.py).
REGISTRATIONS_PER_HOUR = int(os.environ.get("REGISTRATIONS_PER_HOUR", "20"))
PASSWORD_RESETS_PER_HOUR = int(os.environ.get("PASSWORD_RESETS_PER_HOUR", "5"))
LOGIN_REDIRECT_URL = "control:home"
LOGOUT_REDIRECT_URL = "public:home"

LANGUAGE_CODE = "en"
LANGUAGES = [("en", _("English")), ("cs", _("Czech")), ("nb", _("Norwegian Bokmål")),
             ("es", _("Spanish"))]
LOCALE_PATHS = [PACKAGE_DIR / "locale"]
TIME_ZONE = os.environ.get("TIME_ZONE", "UTC")
USE_I18N = True
# English dates day first, on a 24-hour clock (see the module).
FORMAT_MODULE_PATH = ["puzzlecomp.locale_formats"]
USE_TZ = True

STATIC_URL = "/static/"
STATIC_ROOT = DATA_DIR / "static"
STATICFILES_DIRS = [PACKAGE_DIR / "static"]

EMAIL_BACKEND = os.environ.get("EMAIL_BACKEND", "django.core.mail.backends.console.EmailBackend")
EMAIL_HOST = os.environ.get("EMAIL_HOST", "localhost")
EMAIL_PORT = int(os.environ.get("EMAIL_PORT", "25"))
EMAIL_HOST_USER = os.environ.get("EMAIL_HOST_USER", "")
EMAIL_HOST_PASSWORD = os.environ.get("EMAIL_HOST_PASSWORD", "")
EMAIL_USE_TLS = os.environ.get("EMAIL_USE_TLS", "0") == "1"
DEFAULT_FROM_EMAIL = os.environ.get("DEFAULT_FROM_EMAIL", "puzzlecomp@localhost")
# The address links in emails point to (confirmation, password reset).
SITE_URL = os.environ.get("SITE_URL", "http://127.0.0.1:8000")

WHITENOISE_USE_FINDERS = True
