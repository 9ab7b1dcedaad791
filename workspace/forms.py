"""The new-session form: a task proposal as a person writes one."""

from __future__ import annotations

from django import forms

from agents.models import Agent, TaskTemplate
from sessions.models import SessionState

ROLES = [(role, role.capitalize()) for role in ("planning", "research", "analysis", "writing", "review")]
MAX_ATTACHMENT_BYTES = 10 * 1024 * 1024


def _lines(text: str) -> list[str]:
    return [line.strip() for line in text.splitlines() if line.strip()]


class MultipleFileInput(forms.ClearableFileInput):
    allow_multiple_selected = True


class MultipleFileField(forms.FileField):
    """Several files in one field (Django's documented recipe): cleans each, returns the list."""

    def __init__(self, *args, **kwargs):
        kwargs.setdefault("widget", MultipleFileInput())
        super().__init__(*args, **kwargs)

    def clean(self, data, initial=None):
        if isinstance(data, list | tuple):
            return [super(MultipleFileField, self).clean(item, initial) for item in data]
        cleaned = super().clean(data, initial)
        return [cleaned] if cleaned else []


def roles_needed(template_steps) -> list[str]:
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
    files = MultipleFileField(required=False, label="Files to attach")

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        enabled = TaskTemplate.objects.filter(enabled=True).order_by("name")
        templates = list(enabled.values_list("slug", "name", "steps"))
        self.fields["template"].choices = [("", "any: let the planner choose"), *((s, n) for s, n, _ in templates)]
        self.template_roles = {slug: roles_needed(steps) for slug, _, steps in templates}
        self.agent_roles = dict(self.fields["agents"].queryset.order_by("name").values_list("name", "roles"))
        if not self.is_bound:
            every_role = dict.fromkeys(role for roles in self.template_roles.values() for role in roles)
            self.initial.setdefault("agents", self.agents_covering(list(every_role)))

    def agents_covering(self, roles: list[str]) -> list[str]:
        """One agent for each of ``roles`` that some enabled agent takes (the first by name)."""
        chosen = []
        for role in roles:
            able = [name for name, taken in self.agent_roles.items() if role in (taken or [])]
            if able and not set(able) & set(chosen):
                chosen.append(able[0])
        return chosen

    def clean_files(self):
        files = self.cleaned_data["files"]
        for upload in files:
            if upload.size > MAX_ATTACHMENT_BYTES:
                raise forms.ValidationError(f"{upload.name} is larger than {MAX_ATTACHMENT_BYTES // 1024 // 1024} MB")
        return files

    def proposal(self) -> dict:
        data = self.cleaned_data
        constraints = {key: data[key] for key in ("format", "length", "audience") if data[key]}
        if data["deadline"]:
            constraints["deadline"] = data["deadline"].isoformat()
        payload = {"goal": data["goal"].strip()}
        if data["template"]:
            payload["template"] = data["template"]
        if constraints:
            payload["constraints"] = constraints
        background = _lines(data["background"]) + [f"link: {url}" for url in _lines(data["links"])]
        roles = data["roles"] or self.template_roles.get(data["template"], [])
        for key, value in (("background_context", background), ("success_criteria", _lines(data["success_criteria"])),
                           ("expected_agent_roles", roles)):  # fmt: skip
            if value:
                payload[key] = value
        return payload

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

    def __init__(self, *args, user=None, **kwargs):
        super().__init__(*args, **kwargs)
        teams = user.groups.order_by("name").values_list("name", "name") if user is not None else []
        self.fields["team"].choices = [("", "any"), *teams]
        templates = TaskTemplate.objects.values_list("slug", "name")
        self.fields["template"].choices = [("", "any"), *templates]

    def clean(self):
        cleaned = super().clean()
        if cleaned.get("since") and cleaned.get("until") and cleaned["since"] > cleaned["until"]:
            raise forms.ValidationError("“Active since” is after “Active until”.")
        return cleaned
