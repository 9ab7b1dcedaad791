from django.apps import AppConfig


class ChapSessionsConfig(AppConfig):
    # "sessions" is taken by django.contrib.sessions; the label keeps tables and
    # migrations apart (chap_sessions_*), while the package keeps the design card's name.
    name = "sessions"
    label = "chap_sessions"
    verbose_name = "CHAP sessions"

    def ready(self) -> None:
        from django.contrib.auth import get_user_model
        from django.db.models.signals import m2m_changed

        from sessions import checks  # noqa: F401  (registers the system checks)
        from sessions.services import team_changed

        # Adding someone to a group, or taking them out, in the admin changes what they may open in
        # the sessions shared with it: their open sockets check again, as with a membership.
        m2m_changed.connect(team_changed, sender=get_user_model().groups.through, dispatch_uid="chap.team_changed")
