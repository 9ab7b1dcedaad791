from django.apps import AppConfig


class WorkspaceConfig(AppConfig):
    """The browser workspace: the pages, fragments, forms and live socket analysts use. It stands on
    both sessions and agents; neither of them imports it."""

    name = "workspace"
    label = "workspace"
    verbose_name = "Workspace"
