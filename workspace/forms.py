"""The new-session form: a task proposal as a person writes one."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any, TypeVar

from django import forms
from django.conf import settings
from django.contrib.auth.models import User
from django.core.files.uploadedfile import UploadedFile

from agents.models import Agent, TaskTemplate
from agents.staffing import task_proposal
from protocol.errors import ProtocolError
from sessions.models import SessionState
from workspace.uploads import StagedUploadedFile

ROLES = [(role, role.capitalize()) for role in ("planning", "research", "analysis", "writing", "review")]

FieldKind = TypeVar("FieldKind", bound=forms.Field)


def _lines(text: str) -> list[str]:
    return [line.strip() for line in text.splitlines() if line.strip()]


def _field(form: forms.BaseForm, name: str, kind: type[FieldKind]) -> FieldKind:
    """One of the form's own fields as the kind it is declared (``form.fields`` holds plain Fields to mypy)."""
    field = form.fields[name]
    assert isinstance(field, kind), f"{name} is a {type(field).__name__}"
    return field


class MultipleFileInput(forms.ClearableFileInput):
    allow_multiple_selected = True


class MultipleFileField(forms.FileField):
    """Several files in one field (Django's documented recipe): cleans each, returns the list."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        kwargs.setdefault("widget", MultipleFileInput())
        super().__init__(*args, **kwargs)

    def clean(self, data: Any, initial: Any = None) -> list[UploadedFile[bytes]]:
        if isinstance(data, list | tuple):
            return [super(MultipleFileField, self).clean(item, initial) for item in data]
        cleaned = super().clean(data, initial)
        return [cleaned] if cleaned else []


def roles_needed(template_steps: Iterable[Mapping[str, Any]]) -> list[str]:
    """The roles a template's steps need, planning first (someone has to plan before anything runs)."""
    return ["planning", *dict.fromkeys(s["capability"] for s in template_steps if s.get("capability") != "planning")]


class NewSessionForm(forms.Form):
    template = forms.ChoiceField(
        required=False,
        label="Kind of task",
        help_text="Picks the agents its steps need; the planner still matches your goal to a template",
    )
    goal = forms.CharField(min_length=3, max_length=10_000, widget=forms.Textarea(attrs={"rows": 3}))
    title = forms.CharField(max_length=200, required=False, help_text="Defaults to the start of the goal")
    format = forms.CharField(max_length=100, required=False)
    length = forms.CharField(max_length=100, required=False)
    deadline = forms.DateField(required=False, widget=forms.DateInput(attrs={"type": "date"}))
    audience = forms.CharField(max_length=500, required=False)
    background = forms.CharField(required=False, widget=forms.Textarea(attrs={"rows": 3}), label="Background context")
    success_criteria = forms.CharField(
        required=False, widget=forms.Textarea(attrs={"rows": 3}), help_text="One criterion a line: a checklist"
    )
    roles = forms.MultipleChoiceField(
        choices=ROLES, required=False, widget=forms.CheckboxSelectMultiple, label="Expected agent roles"
    )
    agents = forms.ModelMultipleChoiceField(
        queryset=Agent.objects.filter(enabled=True), required=False, widget=forms.CheckboxSelectMultiple,
        label="Agents to invite", to_field_name="name",
    )  # fmt: skip
    links = forms.CharField(required=False, widget=forms.Textarea(attrs={"rows": 2}), help_text="One link a line")
    # The form's metaclass moves its fields into base_fields; the stubs see this one shadow BaseForm.files.
    files = MultipleFileField(required=False, label="Files to attach")  # type: ignore[assignment]

    def __init__(self, *args: Any, upload_refusal: ProtocolError | None = None, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.upload_refusal = upload_refusal
        self.fields["files"].widget.attrs.update(
            {"data-max-upload-bytes": settings.MAX_UPLOAD_BYTES, "data-max-upload-mb": settings.WORKBENCH_MAX_UPLOAD_MB}
        )
        enabled = TaskTemplate.objects.filter(enabled=True).order_by("name")
        templates = list(enabled.values_list("slug", "name", "steps"))
        _field(self, "template", forms.ChoiceField).choices = [
            ("", "any: let the planner choose"),
            *((s, n) for s, n, _ in templates),
        ]
        self.template_roles = {slug: roles_needed(steps) for slug, _, steps in templates}
        agents = _field(self, "agents", forms.ModelMultipleChoiceField).queryset
        assert agents is not None, "the agents field is declared with its queryset"
        self.agent_roles: dict[str, list[str] | None] = dict(agents.order_by("name").values_list("name", "roles"))
        if not self.is_bound:
            every_role = dict.fromkeys(role for roles in self.template_roles.values() for role in roles)
            self.initial.setdefault("agents", self.agents_covering(list(every_role)))

    def agents_covering(self, roles: list[str]) -> list[str]:
        """One agent for each of ``roles`` that some enabled agent takes (the first by name)."""
        chosen: list[str] = []
        for role in roles:
            able = [name for name, taken in self.agent_roles.items() if role in (taken or [])]
            if able and not set(able) & set(chosen):
                chosen.append(able[0])
        return chosen

    def clean_files(self) -> list[StagedUploadedFile]:
        """The files, staged on disk by workspace.uploads; ``upload_refusal`` says why they are not."""
        if self.upload_refusal is not None:
            raise forms.ValidationError(
                f"{self.upload_refusal.message}: {' · '.join(self.upload_refusal.suggestion)}",
                code="upload_too_large",
            )
        files: list[UploadedFile[bytes]] = self.cleaned_data["files"]
        return [upload for upload in files if isinstance(upload, StagedUploadedFile)]

    def proposal(self) -> dict[str, Any]:
        data = self.cleaned_data
        constraints = {key: data[key] for key in ("format", "length", "audience")}
        constraints["deadline"] = data["deadline"].isoformat() if data["deadline"] else ""
        return task_proposal(
            goal=data["goal"],
            template=data["template"],
            constraints=constraints,
            background=_lines(data["background"]) + [f"link: {url}" for url in _lines(data["links"])],
            success_criteria=_lines(data["success_criteria"]),
            roles=data["roles"] or self.template_roles.get(data["template"], []),
        )

    def title_or_goal(self) -> str:
        """The title given, else the goal: whole up to 120 characters, else cut at a word with "…"."""
        goal = " ".join(self.cleaned_data["goal"].split())
        if self.cleaned_data["title"] or len(goal) <= 120:
            return self.cleaned_data["title"] or goal
        return goal[:119].rsplit(" ", 1)[0].rstrip(",;:") + "…"


class ReviewFilterForm(forms.Form):
    """The team page's filters; each one left empty filters nothing."""

    member = forms.CharField(max_length=150, required=False, help_text="a member's username")
    agent = forms.CharField(max_length=100, required=False, help_text="an agent's name")
    team = forms.ChoiceField(required=False, help_text="sessions shared with one of your teams")
    template = forms.ChoiceField(required=False, help_text="the task template the plan followed")
    state = forms.ChoiceField(choices=[("", "any"), *SessionState.choices], required=False)
    since = forms.DateField(required=False, widget=forms.DateInput(attrs={"type": "date"}), label="Active since")
    until = forms.DateField(required=False, widget=forms.DateInput(attrs={"type": "date"}), label="Active until")

    def __init__(self, *args: Any, user: User | None = None, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        teams = user.groups.order_by("name").values_list("name", "name") if user is not None else []
        _field(self, "team", forms.ChoiceField).choices = [("", "any"), *teams]
        templates = TaskTemplate.objects.values_list("slug", "name")
        _field(self, "template", forms.ChoiceField).choices = [("", "any"), *templates]

    def clean(self) -> dict[str, Any] | None:
        cleaned = super().clean()
        if cleaned and cleaned.get("since") and cleaned.get("until") and cleaned["since"] > cleaned["until"]:
            raise forms.ValidationError("“Active since” is after “Active until”.")
        return cleaned
