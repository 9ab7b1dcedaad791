// The new-session form: choosing a kind of task ticks the roles its steps need and, for each, an
// agent that takes it (the page lists which agents take which roles); a person can still change both.
(function () {
  "use strict";
  const form = document.querySelector("[data-testid=new-session]");
  const kind = form && form.querySelector("select[name=template]");
  if (!kind) return;
  const needs = JSON.parse(document.getElementById("template-roles").textContent);
  const takes = JSON.parse(document.getElementById("agent-roles").textContent);

  kind.addEventListener("change", () => {
    const roles = needs[kind.value];
    if (!roles) return;
    form.querySelectorAll("input[name=roles]").forEach((box) => {
      box.checked = roles.includes(box.value);
    });
    const chosen = new Set();
    roles.forEach((role) => {
      const able = Object.keys(takes).filter((name) => (takes[name] || []).includes(role));
      if (able.length && !able.some((name) => chosen.has(name))) chosen.add(able[0]);
    });
    form.querySelectorAll("input[name=agents]").forEach((box) => {
      box.checked = chosen.has(box.value);
    });
  });
})();
