from django.apps import AppConfig


class ChapSessionsConfig(AppConfig):
    # "sessions" is taken by django.contrib.sessions; the label keeps tables and
    # migrations apart (chap_sessions_*), while the package keeps the design card's name.
    name = "sessions"
    label = "chap_sessions"
    verbose_name = "CHAP sessions"

    def ready(self) -> None:
        from sessions import checks  # noqa: F401  (registers the system checks)
