"""CHAP Workbench settings, read from the environment (see README, "Configuration")."""

import os
from pathlib import Path

import django_stubs_ext
from csp.constants import NONE, SELF

import workbench
from workbench.env import (
    channel_layer_from_url,
    database_from_url,
    datasets_database,
    env_bool,
    env_int,
    env_list,
    env_log_level,
    env_mapping,
    secret_key,
)

# The generic classes django-stubs types (ModelAdmin[WorkSession], TabularInline[...]) subscriptable at run time.
django_stubs_ext.monkeypatch()

BASE_DIR = Path(__file__).resolve().parent.parent
DATA_DIR = Path(os.environ.get("WORKBENCH_DATA_DIR") or BASE_DIR / "data").resolve()
DATA_DIR.mkdir(parents=True, exist_ok=True)

SECRET_KEY = secret_key(DATA_DIR)
DEBUG = env_bool("DEBUG", True)
ALLOWED_HOSTS = env_list("ALLOWED_HOSTS", ["127.0.0.1", "localhost", "[::1]"] if DEBUG else [])
CSRF_TRUSTED_ORIGINS = env_list("CSRF_TRUSTED_ORIGINS", [])

INSTALLED_APPS = [
    "daphne",
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "whitenoise.runserver_nostatic",
    "django.contrib.staticfiles",
    "channels",
    "csp",
    "rest_framework",
    "drf_spectacular",
    "drf_spectacular_sidecar",
    "django_htmx",
    "template_partials",
    "sessions.apps.ChapSessionsConfig",
    "agents.apps.AgentsConfig",
    "workspace.apps.WorkspaceConfig",
]

MIDDLEWARE = [
    "workbench.request_ids.RequestIds",
    "workbench.error_pages.ApiErrorsAsJson",
    "django.middleware.security.SecurityMiddleware",
    "workbench.error_pages.ContentSecurityPolicy",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "django_htmx.middleware.HtmxMiddleware",
    "workbench.error_pages.NotFoundPage",
]

ROOT_URLCONF = "workbench.urls"
CSRF_FAILURE_VIEW = "workbench.error_pages.csrf_failure"
# Request bodies over this are refused: 413 MESSAGE_TOO_LARGE (REST: workbench.parsers), never a 500.
DATA_UPLOAD_MAX_MEMORY_SIZE = 2_621_440
# Uploads (the new-session form, REST's files route, staffing): one limit for the files of one request,
# checked as the bytes arrive, which go to disk under DATA_DIR/uploads (agents/operations/uploads.py)
# and move into the session's workspace. Daphne refuses a body past it plus the form's own fields
# before reading it (workbench/daphne_limits.py). A workspace holds four uploads at the limit.
WORKBENCH_MAX_UPLOAD_MB = env_int("WORKBENCH_MAX_UPLOAD_MB", 1024, minimum=1)
MAX_UPLOAD_BYTES = WORKBENCH_MAX_UPLOAD_MB * 1024 * 1024
MAX_REQUEST_BODY_BYTES = MAX_UPLOAD_BYTES + DATA_UPLOAD_MAX_MEMORY_SIZE
WORKSPACE_QUOTA_BYTES = 4 * MAX_UPLOAD_BYTES
FILE_UPLOAD_HANDLERS = ["workspace.uploads.BoundedUploadHandler"]
ASGI_APPLICATION = "workbench.asgi.application"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
            ],
        },
    },
]

DATABASES = {"default": database_from_url(os.environ.get("DATABASE_URL", ""), data_dir=DATA_DIR)}
# Session datasets live apart from the workbench's own tables: a SQLite file of their own, or on
# PostgreSQL the same database with one schema per session.
DATASET_QUERY_TIMEOUT_S = 5.0
# What a session's tables may take in the store: enough for the largest file an upload admits (a 1 GB CSV
# of 10 million rows takes about 0.8 GB there), and an administrator's setting past that.
DATASET_QUOTA_BYTES = env_int("WORKBENCH_DATASET_QUOTA_MB", 2 * WORKBENCH_MAX_UPLOAD_MB, minimum=1) * 1024 * 1024
DATABASES["datasets"] = datasets_database(
    DATABASES["default"], data_dir=DATA_DIR, statement_timeout_s=DATASET_QUERY_TIMEOUT_S
)
DATABASE_ROUTERS = ["workbench.routers.DatasetsRouter"]
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

CHANNEL_LAYERS = {"default": channel_layer_from_url(os.environ.get("REDIS_URL", ""))}

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]
LOGIN_URL = "login"
LOGIN_REDIRECT_URL = "workspace:list"
LOGOUT_REDIRECT_URL = "login"

LANGUAGE_CODE = "en-us"
TIME_ZONE = "UTC"
USE_I18N = True
USE_TZ = True

STATIC_URL = "static/"
STATICFILES_DIRS = [BASE_DIR / "static"]
STATIC_ROOT = Path(os.environ.get("STATIC_ROOT") or BASE_DIR / "staticfiles")
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {
        "BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"
        if DEBUG
        else "whitenoise.storage.CompressedManifestStaticFilesStorage"
    },
}
# Without DEBUG, WhiteNoise serves files found by the finders too, so a deployment
# that skipped collectstatic still works (slower start, same URLs).
WHITENOISE_USE_FINDERS = True
WHITENOISE_AUTOREFRESH = DEBUG

REST_FRAMEWORK = {
    "DEFAULT_AUTHENTICATION_CLASSES": [
        "agents.auth.BearerAgentAuthentication",
        "rest_framework.authentication.SessionAuthentication",
    ],
    "DEFAULT_PERMISSION_CLASSES": ["rest_framework.permissions.IsAuthenticated"],
    "DEFAULT_PARSER_CLASSES": ["workbench.parsers.StrictJSONParser"],
    "DEFAULT_SCHEMA_CLASS": "drf_spectacular.openapi.AutoSchema",
    "EXCEPTION_HANDLER": "workbench.api_errors.exception_handler",
    "UNAUTHENTICATED_USER": "django.contrib.auth.models.AnonymousUser",
}
SPECTACULAR_SETTINGS = {
    "TITLE": "CHAP Workbench API",
    "DESCRIPTION": "Sessions, CHAP messages, the context graph and checkpoints. Errors follow docs/errors.md.",
    "VERSION": "1.0.0",
    "SERVE_INCLUDE_SCHEMA": False,
    "SWAGGER_UI_DIST": "SIDECAR",
    "SWAGGER_UI_FAVICON_HREF": "SIDECAR",
    "REDOC_DIST": "SIDECAR",
    "COMPONENT_SPLIT_REQUEST": True,
}

# Deployment hardening; the defaults suit a TLS-terminating proxy in front of Daphne.
SESSION_COOKIE_SECURE = env_bool("SESSION_COOKIE_SECURE", not DEBUG)
CSRF_COOKIE_SECURE = env_bool("CSRF_COOKIE_SECURE", not DEBUG)
SECURE_SSL_REDIRECT = env_bool("SECURE_SSL_REDIRECT", False)
SECURE_HSTS_SECONDS = env_int("SECURE_HSTS_SECONDS", 0 if DEBUG else 3600)
SECURE_HSTS_INCLUDE_SUBDOMAINS = env_bool("SECURE_HSTS_INCLUDE_SUBDOMAINS", False)
SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https") if env_bool("BEHIND_TLS_PROXY", False) else None
SILENCED_SYSTEM_CHECKS = env_list("SILENCED_SYSTEM_CHECKS", [])
# Content-Security-Policy on every answer (django-csp): scripts, styles and sockets from this origin
# only, and no inline script, style, event handler or eval anywhere (tests/browser/test_csp.py).
CONTENT_SECURITY_POLICY = {
    "DIRECTIVES": {
        "default-src": [SELF],
        "script-src": [SELF],
        "style-src": [SELF],
        "img-src": [SELF, "data:"],
        "connect-src": [SELF],
        "object-src": [NONE],
        "base-uri": [SELF],
        "form-action": [SELF],
        "frame-ancestors": [NONE],
    }
}

# Each line names the HTTP request or agent task it belongs to ("-" outside one): protocol/logs.py.
LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "filters": {"ids": {"()": "protocol.logs.ContextIds"}},
    "formatters": {
        "plain": {"format": "%(asctime)s %(levelname)s %(name)s request=%(request_id)s task=%(task_id)s %(message)s"}
    },
    "handlers": {"console": {"class": "logging.StreamHandler", "formatter": "plain", "filters": ["ids"]}},
    "root": {"handlers": ["console"], "level": env_log_level("LOG_LEVEL", "INFO")},
    # The MCP SDK's transport says "Terminating session" at INFO after every stateless request.
    "loggers": {"mcp.server.streamable_http": {"level": "WARNING"}},
}

# CHAP transport: heartbeat interval announced to clients, and the per-connection rate limit.
CHAP_HEARTBEAT_S = env_int("CHAP_HEARTBEAT_S", 30, minimum=1)
CHAP_WS_RATE_PER_S = env_int("CHAP_WS_RATE_PER_S", 50, minimum=1)
CHAP_WS_BURST = env_int("CHAP_WS_BURST", 200, minimum=1)
CHAP_MAX_FRAME_BYTES = 1024 * 1024
# What the WebSocket transport lets through to the consumers: above CHAP_MAX_FRAME_BYTES a frame is
# answered MESSAGE_TOO_LARGE and the socket stays open; above this Daphne closes it with 1009
# (docs/transport.md). runserver reads these; the daphne command takes them as
# --websocket-max-message-size and --websocket-max-frame-size (README).
DAPHNE_WEBSOCKET_MAX_MESSAGE_SIZE = DAPHNE_WEBSOCKET_MAX_FRAME_SIZE = 4 * CHAP_MAX_FRAME_BYTES
# ./run (the embedded default) runs the agents' worker inside the web process; at scale run
# `manage.py run_agents` processes instead.
CHAP_AGENTS_IN_PROCESS = env_bool("CHAP_AGENTS_IN_PROCESS", False)
# More built-in behaviours, "name=dotted.path,name2=…" (agents/behaviours/registry.py has the shipped ones).
CHAP_BEHAVIOURS = env_mapping("CHAP_BEHAVIOURS")
# filter(envelope, agent) -> envelope, applied to everything agents post (sessions/safety.py).
CHAP_SAFETY_FILTER = os.environ.get("CHAP_SAFETY_FILTER", "sessions.safety.default_filter")
# The agent model sessions point at, named as AUTH_USER_MODEL names the user model ("app_label.Model");
# what sessions read of it is the contract in sessions/agent_model.py.
CHAP_AGENT_MODEL = "agents.Agent"
WORKBENCH_VERSION = workbench.__version__
# Bounds of one LLM agent task: model turns, wall time and tokens.
CHAP_LLM_MAX_STEPS = env_int("CHAP_LLM_MAX_STEPS", 8, minimum=1)
CHAP_LLM_MAX_SECONDS = env_int("CHAP_LLM_MAX_SECONDS", 180, minimum=1)
CHAP_LLM_MAX_TOKENS = env_int("CHAP_LLM_MAX_TOKENS", 50_000, minimum=100)
# Budget of one SAP request (one HTTP request, CHAP request or agent turn): operations run (workflow
# steps included) and wall time; the blocks past it are refused together (agents/sap/dispatcher.py).
CHAP_SAP_MAX_OPERATIONS = env_int("CHAP_SAP_MAX_OPERATIONS", 50, minimum=1)
CHAP_SAP_MAX_SECONDS = env_int("CHAP_SAP_MAX_SECONDS", 60, minimum=1)
# What a heavy operation (stats.*, dataset.import-csv) may spend while it runs, in a process of its own:
# memory beyond what it starts with, and the size of its answer; and how many each caller may start
# in a session, at once and in a minute (agents/heavy.py).
CHAP_SAP_MAX_MEMORY_MB = env_int("CHAP_SAP_MAX_MEMORY_MB", 1024, minimum=64)
CHAP_SAP_MAX_ANSWER_MB = env_int("CHAP_SAP_MAX_ANSWER_MB", 10, minimum=1)
CHAP_SAP_HEAVY_AT_ONCE = env_int("CHAP_SAP_HEAVY_AT_ONCE", 2, minimum=1)
CHAP_SAP_HEAVY_PER_MINUTE = env_int("CHAP_SAP_HEAVY_PER_MINUTE", 60, minimum=1)
# An import's time: the request's time left and this many seconds per MiB of its file, the file counted
# up to WORKBENCH_MAX_UPLOAD_MB (agents/operations/datasets/csv_io.py); and how often at most a long
# import reports its progress (an event, and the analyst's agent_status).
CHAP_SAP_IMPORT_SECONDS_PER_MB = env_int("CHAP_SAP_IMPORT_SECONDS_PER_MB", 1, minimum=0)
CHAP_IMPORT_PROGRESS_SECONDS = env_int("CHAP_IMPORT_PROGRESS_SECONDS", 5, minimum=0)

# Vega-Lite charts in Markdown are drawn in a child process each (workspace/charts.py): killed past
# its CPU time (then kept as too large) or the wall-clock limit (a busy machine: drawn again next
# time), its data segment capped, at most this many at once per server process.
CHART_RENDER_CPU_S = env_int("WORKBENCH_CHART_CPU_S", 5, minimum=1)
CHART_RENDER_TIMEOUT_S = env_int("WORKBENCH_CHART_TIMEOUT_S", 15, minimum=1)
CHART_RENDER_MEMORY_MB = env_int("WORKBENCH_CHART_MEMORY_MB", 1024, minimum=1024)
CHART_RENDERS_AT_ONCE = env_int("WORKBENCH_CHART_RENDERS", 2, minimum=1)
