from django.apps import AppConfig


class ChapSessionsConfig(AppConfig):
    # "sessions" is taken by django.contrib.sessions; the label keeps tables and
    # migrations apart (chap_sessions_*), while the package keeps the design card's name.
    name = "sessions"
    label = "chap_sessions"
    verbose_name = "CHAP sessions"

    def ready(self) -> None:
        from django.contrib.auth import get_user_model
        from django.contrib.auth.models import Group
        from django.contrib.auth.signals import user_logged_out
        from django.db.models.signals import m2m_changed, post_delete, post_save, pre_delete

        from sessions import checks, revocation  # noqa: F401  (checks registers the system checks)
        from sessions.models import WorkSession

        # Access that ends outside the session's services (the admin, an account, a sign-out) ends on
        # the open sockets too: sessions/revocation.py.
        user = get_user_model()
        m2m_changed.connect(revocation.team_changed, sender=user.groups.through, dispatch_uid="chap.team_changed")
        pre_delete.connect(revocation.team_deleted, sender=Group, dispatch_uid="chap.team_deleted")
        post_save.connect(revocation.account_saved, sender=user, dispatch_uid="chap.account_saved")
        post_delete.connect(revocation.account_deleted, sender=user, dispatch_uid="chap.account_deleted")
        user_logged_out.connect(revocation.signed_out, dispatch_uid="chap.signed_out")
        post_delete.connect(revocation.session_deleted, sender=WorkSession, dispatch_uid="chap.session_deleted")
