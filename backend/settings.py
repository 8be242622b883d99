"""Tandem's settings, read from the environment (cookiecutter-django's way).

With no variable set, Tandem runs embedded: SQLite and a filesystem broker under
``TANDEM_DATA_DIR``. Production sets ``DATABASE_URL`` (PostgreSQL), ``CELERY_BROKER_URL``
(Redis), ``DJANGO_SECRET_KEY`` and ``DJANGO_ALLOWED_HOSTS``. The defaults are the safe ones:
``DEBUG`` off, secure cookies on, and no secret key unless one is given.
"""

from datetime import timedelta
from pathlib import Path

import dj_database_url
from django.core.exceptions import ImproperlyConfigured

from backend.env import env_bool, env_int, env_list, env_str

BASE_DIR = Path(__file__).resolve().parent.parent
DATA_DIR = Path(env_str("TANDEM_DATA_DIR", str(BASE_DIR / "var"))).resolve()
FRONTEND_DIST = BASE_DIR / "frontend" / "dist"
DOCS_DIR = BASE_DIR / "docs"

DEBUG = env_bool("DJANGO_DEBUG", False)
SECRET_KEY = env_str("DJANGO_SECRET_KEY", "django-insecure-development-only" if DEBUG else None)
ALLOWED_HOSTS = env_list("DJANGO_ALLOWED_HOSTS", "localhost,127.0.0.1,[::1]" if DEBUG else "")
CSRF_TRUSTED_ORIGINS = env_list("DJANGO_CSRF_TRUSTED_ORIGINS", "")

SECURE_COOKIES = env_bool("DJANGO_SECURE_COOKIES", not DEBUG)
SESSION_COOKIE_SECURE = SECURE_COOKIES
CSRF_COOKIE_SECURE = SECURE_COOKIES
SESSION_COOKIE_HTTPONLY = True
SECURE_CONTENT_TYPE_NOSNIFF = True
SECURE_REFERRER_POLICY = "same-origin"
X_FRAME_OPTIONS = "DENY"
CONTENT_SECURITY_POLICY = "; ".join(
    [
        "default-src 'self'",
        "script-src 'self'",
        "style-src 'self'",
        "img-src 'self' data:",
        "font-src 'self'",
        "connect-src 'self'",
        "object-src 'none'",
        "base-uri 'self'",
        "form-action 'self'",
        "frame-ancestors 'none'",
    ]
)
BEHIND_TLS_PROXY = env_bool("DJANGO_BEHIND_TLS_PROXY", False)
if BEHIND_TLS_PROXY:
    # Behind the TLS proxy the site is HTTPS only: plain HTTP is redirected and browsers are
    # told (Strict-Transport-Security) never to ask over it again, as cookiecutter-django
    # does. The health check stays reachable over plain HTTP: the container's probe and load
    # balancers call it directly, past the proxy.
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
    SECURE_SSL_REDIRECT = env_bool("DJANGO_SECURE_SSL_REDIRECT", True)
    SECURE_REDIRECT_EXEMPT = [r"^api/v1/health/$"]
    SECURE_HSTS_SECONDS = env_int("DJANGO_SECURE_HSTS_SECONDS", 365 * 24 * 3600)
    SECURE_HSTS_INCLUDE_SUBDOMAINS = env_bool("DJANGO_SECURE_HSTS_INCLUDE_SUBDOMAINS", False)
    SECURE_HSTS_PRELOAD = env_bool("DJANGO_SECURE_HSTS_PRELOAD", False)

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    "rest_framework",
    "drf_spectacular",
    "drf_spectacular_sidecar",
    "django_celery_results",
    "axes",
    "backend.core",
    "backend.accounts",
    "backend.audit",
    "backend.projects",
    "backend.iterations",
    "backend.documents",
    "backend.alignments",
    "backend.curation",
    "backend.jobs",
    "backend.vectors",
    "backend.tuning",
    "backend.exports",
    "backend.ratings",
    "backend.simulation",
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    "backend.core.security_headers.ContentSecurityPolicyMiddleware",
    "backend.core.database_outage.DatabaseOutageMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    # Last, so that it sees the response of a refused sign-in (backend/accounts/sign_in_limits).
    "axes.middleware.AxesMiddleware",
]

AUTHENTICATION_BACKENDS = [
    "axes.backends.AxesStandaloneBackend",
    "django.contrib.auth.backends.ModelBackend",
]
# Sign-in throttling: per username and per address, counted in the database.
AXES_FAILURE_LIMIT = env_int("TANDEM_SIGN_IN_FAILURES", 10)
AXES_COOLOFF_TIME = timedelta(minutes=env_int("TANDEM_SIGN_IN_COOLOFF_MINUTES", 15))
AXES_LOCKOUT_PARAMETERS = ["username", "ip_address"]
AXES_RESET_ON_SUCCESS = True
AXES_LOCKOUT_CALLABLE = "backend.accounts.sign_in_limits.lockout_response"
AXES_CLIENT_IP_CALLABLE = "backend.accounts.sign_in_limits.client_address"

ROOT_URLCONF = "backend.urls"
WSGI_APPLICATION = "backend.wsgi.application"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
            ]
        },
    }
]


def _database_from_url(url: str) -> dj_database_url.DBConfig:
    config = dj_database_url.parse(url, conn_max_age=env_int("DATABASE_CONN_MAX_AGE", 60))
    if config["ENGINE"] == "django.db.backends.sqlite3":
        # The web server and the worker write to one file: WAL lets readers go on while a
        # task writes, and IMMEDIATE transactions wait for the lock instead of failing.
        config["CONN_MAX_AGE"] = 0
        config["OPTIONS"] = {
            "timeout": 30,
            "transaction_mode": "IMMEDIATE",
            "init_command": "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL;",
        }
        config["TEST"] = {"NAME": str(DATA_DIR / "test-database.sqlite3")}
    return config


DATABASES = {
    "default": _database_from_url(
        env_str("DATABASE_URL", f"sqlite:///{DATA_DIR / 'tandem.sqlite3'}")
    )
}
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]

LANGUAGE_CODE = "en-us"
TIME_ZONE = "UTC"
USE_I18N = True
USE_TZ = True

STATIC_URL = "/static/"
STATIC_ROOT = DATA_DIR / "static"
MEDIA_URL = "/media/"
MEDIA_ROOT = Path(env_str("TANDEM_MEDIA_ROOT", str(DATA_DIR / "media")))
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {"BACKEND": "whitenoise.storage.CompressedManifestStaticFilesStorage"},
}
# The Vite build is served from the site root, so that the app and the API share one origin.
WHITENOISE_ROOT = FRONTEND_DIST if FRONTEND_DIST.is_dir() else None
WHITENOISE_IMMUTABLE_FILE_TEST = r"^.+[.-][0-9a-zA-Z_-]{8,12}\..+$"

# Who may create projects, and so become their lead: "everyone" signed in (a researcher's own
# instance, the default) or "staff" (a team's, where administrators set projects up).
TANDEM_PROJECT_CREATORS = env_str("TANDEM_PROJECT_CREATORS", "everyone")
if TANDEM_PROJECT_CREATORS not in ("everyone", "staff"):
    raise ImproperlyConfigured(
        f"TANDEM_PROJECT_CREATORS is {TANDEM_PROJECT_CREATORS!r}; use everyone or staff."
    )
TANDEM_MAX_UPLOAD_BYTES = env_int("TANDEM_MAX_UPLOAD_MB", 50) * 1024 * 1024
# What an uploaded archive (a .docx) may inflate to, checked at upload and again before parsing.
TANDEM_ARCHIVE_MAX_MEMBERS = env_int("TANDEM_ARCHIVE_MAX_MEMBERS", 1000)
TANDEM_ARCHIVE_MAX_UNCOMPRESSED_BYTES = env_int("TANDEM_ARCHIVE_MAX_MB", 50) * 1024 * 1024
TANDEM_ARCHIVE_MAX_RATIO = env_int("TANDEM_ARCHIVE_MAX_RATIO", 100)
TANDEM_MAX_VECTORS_BYTES = env_int("TANDEM_MAX_VECTORS_MB", 200) * 1024 * 1024
# A document's recording, streamed to storage as it arrives (never held in memory).
TANDEM_MAX_AUDIO_BYTES = env_int("TANDEM_MAX_AUDIO_MB", 500) * 1024 * 1024
# Pretrained word vectors for every project that has not uploaded its own (a path on the
# workers' machines); empty: each project trains vectors on its own texts.
TANDEM_WORD_VECTORS = env_str("TANDEM_WORD_VECTORS", "")
DATA_UPLOAD_MAX_MEMORY_SIZE = 10 * 1024 * 1024
FILE_UPLOAD_MAX_MEMORY_SIZE = 5 * 1024 * 1024

REST_FRAMEWORK = {
    # Token first: an anonymous caller then gets 401 with `WWW-Authenticate: Token`.
    "DEFAULT_AUTHENTICATION_CLASSES": [
        "backend.accounts.authentication.ApiTokenAuthentication",
        "rest_framework.authentication.SessionAuthentication",
    ],
    "EXCEPTION_HANDLER": "backend.core.exception_handler.api_exception_handler",
    "DEFAULT_PARSER_CLASSES": [
        "backend.core.parsers.JSONParser",
        "rest_framework.parsers.FormParser",
        "rest_framework.parsers.MultiPartParser",
    ],
    "DEFAULT_PERMISSION_CLASSES": ["rest_framework.permissions.IsAuthenticated"],
    "DEFAULT_SCHEMA_CLASS": "backend.core.schema.TandemAutoSchema",
    "DEFAULT_PAGINATION_CLASS": "rest_framework.pagination.PageNumberPagination",
    "PAGE_SIZE": 50,
}
SPECTACULAR_SETTINGS = {
    "TITLE": "Tandem API",
    "DESCRIPTION": "Align transcripts with reports, correct alignments, export corpora.",
    "VERSION": "1",
    "SERVE_INCLUDE_SCHEMA": False,
    "SCHEMA_PATH_PREFIX": "/api/v1",
    # Swagger UI's assets ship with the package: no CDN, so the page works offline.
    "SWAGGER_UI_DIST": "SIDECAR",
    "SWAGGER_UI_FAVICON_HREF": "SIDECAR",
    "REDOC_DIST": "SIDECAR",
    "ENUM_NAME_OVERRIDES": {
        "DocumentStatusEnum": "backend.documents.models.Document.Status",
        "JobStatusEnum": "backend.jobs.models.Job.Status",
        "JobKindEnum": "backend.jobs.models.Job.Kind",
        "ProjectRoleEnum": "backend.projects.models.Role",
        "ProjectKindEnum": "backend.projects.models.Project.Kind",
        "ReportUnitEnum": "backend.projects.talks.REPORT_UNITS",
        "RankedByEnum": "backend.tuning.models.TuningRun.RankedBy",
        "ProposalReasonEnum": "backend.tuning.models.PROPOSAL_REASONS",
        "LearningRefusalEnum": "backend.tuning.models.LEARNING_REFUSALS",
        "IterationStatusEnum": "backend.iterations.models.IterationStatus",
        "GoldStateEnum": "backend.curation.rule.GoldState",
        "GoldRuleEnum": "backend.curation.rule.GoldRule",
        "HealthStatusEnum": ["ok", "degraded"],
        "AccuracyMetricEnum": "backend.iterations.selectors.RECORD_METRICS",
        "AgreementMeasureEnum": "workers.align.annotation.agreement.MEASURES",
        "ExportFilterEnum": "workers.align.pairs.shape.FILTERS",
        "AlignerEnum": "workers.align.params.ALIGNERS",
        "PreAlignmentWarningCodeEnum": "workers.align.diagnosis.CODES",
        "SettingKindEnum": "workers.align.setting_fields.SETTING_KINDS",
    },
    # `<id:...>` in URLs (backend.core.ids.IdConverter): an integer within a bigint.
    "PATH_CONVERTER_OVERRIDES": {"id": {"type": "integer", "minimum": 0, "maximum": 2**63 - 1}},
    "POSTPROCESSING_HOOKS": [
        "drf_spectacular.hooks.postprocess_schema_enums",
        "backend.core.schema.document_error_responses",
    ],
}

_BROKER_FOLDER = DATA_DIR / "broker"
CELERY_BROKER_URL = env_str("CELERY_BROKER_URL", "filesystem://")
if CELERY_BROKER_URL.startswith("filesystem://"):
    CELERY_BROKER_TRANSPORT_OPTIONS = {
        "data_folder_in": str(_BROKER_FOLDER / "queue"),
        "data_folder_out": str(_BROKER_FOLDER / "queue"),
        "control_folder": str(_BROKER_FOLDER / "control"),
        "processed_folder": str(_BROKER_FOLDER / "processed"),
        "store_processed": False,
        # An idle worker looks for new messages this often (seconds): tuning sends a stage as
        # dozens of short tasks, which a one-second poll would space out.
        "polling_interval": 0.1,
    }
else:
    # Redelivery of a task whose worker died waits this long: it must exceed the longest task.
    CELERY_BROKER_TRANSPORT_OPTIONS = {
        "visibility_timeout": env_int("CELERY_VISIBILITY_TIMEOUT", 3600)
    }
CELERY_RESULT_BACKEND = env_str("CELERY_RESULT_BACKEND", "django-db")
CELERY_RESULT_EXTENDED = True
CELERY_TASK_ACKS_LATE = True
CELERY_TASK_REJECT_ON_WORKER_LOST = True
CELERY_WORKER_PREFETCH_MULTIPLIER = 1
CELERY_TASK_DEFAULT_QUEUE = "default"
# Alignment, tuning and vectors keep a process busy for seconds to minutes: on their own queue,
# imports and small tasks never wait behind them (a worker can consume one queue or both).
CELERY_TASK_ROUTES = {
    "backend.alignments.tasks.*": {"queue": "cpu"},
    "backend.vectors.tasks.*": {"queue": "cpu"},
    "backend.tuning.tasks.evaluate_slice": {"queue": "cpu"},
    "backend.tuning.tasks.prepare": {"queue": "cpu"},
}
CELERY_TASK_TRACK_STARTED = True
# Job liveness (backend/jobs/liveness.py): every TANDEM_JOB_HEARTBEAT_SECONDS each worker
# stamps the jobs its tasks run and looks for lost ones; a running job silent for
# TANDEM_JOB_LOST_AFTER_SECONDS is sent again, at most TANDEM_JOB_MAX_REQUEUES times, then
# failed with the reason. A dead worker's job is sent again within about 5 + 40 + 5 seconds.
TANDEM_JOB_HEARTBEAT_SECONDS = env_int("TANDEM_JOB_HEARTBEAT_SECONDS", 5)
TANDEM_JOB_LOST_AFTER_SECONDS = env_int("TANDEM_JOB_LOST_AFTER_SECONDS", 40)
TANDEM_JOB_MAX_REQUEUES = env_int("TANDEM_JOB_MAX_REQUEUES", 2)
CELERY_BROKER_CONNECTION_RETRY_ON_STARTUP = True
CELERY_TIMEZONE = TIME_ZONE

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "formatters": {"plain": {"format": "%(asctime)s %(levelname)s %(name)s: %(message)s"}},
    "handlers": {"console": {"class": "logging.StreamHandler", "formatter": "plain"}},
    "root": {"handlers": ["console"], "level": env_str("DJANGO_LOG_LEVEL", "INFO")},
    # One line per failed sign-in is noise; lockouts are logged as warnings.
    "loggers": {"axes": {"level": "WARNING"}},
}
