"""The task templates a workbench ships with; admins edit them (and add more) in the admin."""

from __future__ import annotations

from typing import Any


def _step(step: int, action: str, capability: str, output: str, approval: bool = False) -> dict[str, Any]:
    return {"step": step, "action": action, "capability": capability, "output": output, "requires_approval": approval}


def _section(title: str, description: str, required: bool = True) -> dict[str, Any]:
    return {"title": title, "description": description, "required": required}


DEFAULT_TEMPLATES: list[dict[str, Any]] = [
    {
        "slug": "literature-review",
        "name": "Literature review",
        "description": "Find, screen and synthesise published research on a question.",
        "match_text": "literature review survey of research papers studies publications academic sources "
        "state of the art what does the research say systematic review meta-analysis citations journals",
        "steps": [
            _step(1, "Agree the review questions and the inclusion criteria", "planning", "scope", approval=True),
            _step(2, "Search for and collect candidate sources", "research", "source list"),
            _step(3, "Screen the sources and extract their findings", "research", "extraction table"),
            _step(4, "Synthesise the findings by theme", "writing", "draft review"),
            _step(5, "Check the review against its questions and sources", "review", "review notes"),
        ],
        "evaluation_criteria": ["every claim cites a source", "inclusion criteria applied consistently"],
        "deliverable_sections": [
            _section("Scope and questions", "what the review answers, and what it leaves out"),
            _section("Method", "where and how sources were searched and screened"),
            _section("Thematic synthesis", "the findings, grouped by theme, each with its sources"),
            _section("Gaps", "what the literature does not answer yet"),
            _section("References", "every source cited"),
        ],
    },
    {
        "slug": "competitive-analysis",
        "name": "Competitive analysis",
        "description": "Compare competitors' products, positions and the market they compete in.",
        "match_text": "competitive analysis competitors rivals market players compare products features pricing "
        "market share positioning SWOT benchmark against the competition vendors landscape",
        "steps": [
            _step(1, "Identify the competitors to compare", "research", "competitor list", approval=True),
            _step(2, "Collect features, pricing and positioning", "research", "fact sheet"),
            _step(3, "Build the feature comparison matrix", "analysis", "feature matrix"),
            _step(4, "Write the SWOT analysis", "analysis", "SWOT"),
            _step(5, "Describe the market dynamics", "research", "market notes"),
            _step(6, "Write the report", "writing", "report"),
            _step(7, "Review the report before it goes out", "review", "review notes", approval=True),
        ],
        "evaluation_criteria": ["each competitor compared on the same features", "sources for market figures"],
        "deliverable_sections": [
            _section("Competitors", "who is compared and why"),
            _section("Feature comparison matrix", "the same features for every competitor"),
            _section("SWOT analysis", "strengths, weaknesses, opportunities, threats"),
            _section("Market dynamics", "size, growth, trends, entry barriers"),
            _section("Recommendations", "what to do about it"),
        ],
    },
    {
        "slug": "data-analysis",
        "name": "Data analysis",
        "description": "Profile a dataset, describe it statistically, compare groups and report the findings.",
        "match_text": "data analysis dataset csv spreadsheet table statistics average mean totals trends "
        "compare groups figures numbers sales revenue metrics analyse the data distribution correlation",
        "steps": [
            _step(1, "Import the data, profile it, describe it and compare its groups", "analysis", "report"),
            _step(2, "Write the findings for the readers", "writing", "summary"),
            _step(3, "Review the report against the data", "review", "review notes", approval=True),
        ],
        "evaluation_criteria": ["every number reproducible from a cited query", "missing values reported"],
        "deliverable_sections": [
            _section("Answer", "the answer to each question asked, with its figure and effect size"),
            _section("Evidence", "the figures and chart behind each answer"),
            _section("Descriptive statistics", "counts, means, minima, maxima"),
            _section("Column profiles", "types, missing values, ranges"),
            _section("Data and method", "which tables, rows and queries"),
            _section("Limitations", "what the data cannot tell"),
        ],
    },
    {
        "slug": "code-review",
        "name": "Code review",
        "description": "Review a code change for correctness, tests, security and performance.",
        "match_text": "code review pull request merge request diff patch source code bug refactor tests "
        "security vulnerability performance python javascript repository commit review my code",
        "steps": [
            _step(1, "Understand the change and its purpose", "review", "summary"),
            _step(2, "Check correctness and the tests", "review", "findings"),
            _step(3, "Check security and performance", "review", "findings"),
            _step(4, "Write the review", "writing", "review"),
        ],
        "evaluation_criteria": ["findings point at lines", "each finding has a severity"],
        "deliverable_sections": [
            _section("Summary", "what the change does"),
            _section("Correctness", "bugs and edge cases"),
            _section("Tests", "what is and is not tested"),
            _section("Security", "risks found"),
            _section("Recommendations", "what to change before merging"),
        ],
    },
    {
        "slug": "report-writing",
        "name": "Report writing",
        "description": "Write a report for a named audience from material the team gathers.",
        "match_text": "write a report document memo brief white paper executive summary article write up "
        "for management board stakeholders audience draft edit publish newsletter summary paper",
        "steps": [
            _step(1, "Agree the outline and the audience", "writing", "outline", approval=True),
            _step(2, "Gather the material", "research", "notes"),
            _step(3, "Write the draft", "writing", "draft"),
            _step(4, "Edit for the audience", "review", "edited draft"),
            _step(5, "Approve the final version", "review", "final report", approval=True),
        ],
        "evaluation_criteria": ["written for the stated audience", "within the stated length"],
        "deliverable_sections": [
            _section("Executive summary", "the conclusions in a paragraph"),
            _section("Background", "why the report exists"),
            _section("Findings", "what was found, with sources"),
            _section("Recommendations", "what the readers should do"),
            _section("Sources", "what the findings rest on"),
        ],
    },
]


def templates_ensure(**_signal_arguments: Any) -> None:
    """Add the shipped templates that are missing (after every migrate); an admin's edits are kept."""
    from agents.models import TaskTemplate

    for template in DEFAULT_TEMPLATES:
        TaskTemplate.objects.get_or_create(slug=template["slug"], defaults=template)
