// The scheduling board: drag a task card onto another agent's lane to reassign it, or onto "Unassigned"
// to return it to its role's queue (the card's Agent menu does the same from the keyboard), and draw each hand-off as an arrow from the task whose output it takes.
(function () {
  let dragged = null;
  const laneOf = (element) => element && element.closest && element.closest(".lane[data-lane]");
  const unmark = () => document.querySelectorAll(".lane.drop-target").forEach((lane) => lane.classList.remove("drop-target"));

  document.addEventListener("dragstart", (event) => {
    const card = event.target.closest && event.target.closest(".task[draggable=true]");
    if (!card) return;
    dragged = { id: card.dataset.taskId, from: laneOf(card) && laneOf(card).dataset.lane };
    event.dataTransfer.setData("text/plain", card.dataset.taskId);
    event.dataTransfer.effectAllowed = "move";
  });
  document.addEventListener("dragend", () => { dragged = null; unmark(); });
  document.addEventListener("dragover", (event) => {
    const lane = laneOf(event.target);
    if (!lane || !dragged || lane.dataset.lane === dragged.from) return;
    event.preventDefault();
    event.dataTransfer.dropEffect = "move";
    unmark();
    lane.classList.add("drop-target");
  });
  document.addEventListener("drop", (event) => {
    const lane = laneOf(event.target);
    if (!lane || !dragged || lane.dataset.lane === dragged.from) return;
    event.preventDefault();
    const board = document.getElementById("schedule-board");
    window.htmx.ajax("POST", board.dataset.actUrl, {
      source: lane,
      target: "#schedule-board",
      swap: "outerHTML",
      values: lane.dataset.lane
        ? { action: "reassign", task_id: dragged.id, agent: lane.dataset.lane }
        : { action: "unassign", task_id: dragged.id },
    });
    dragged = null;
    unmark();
  });

  function drawHandoffs() {
    const board = document.getElementById("schedule-board");
    const svg = document.getElementById("handoff-lines");
    if (!board || !svg) return;
    const origin = board.getBoundingClientRect();
    svg.setAttribute("width", board.scrollWidth);
    svg.setAttribute("height", board.scrollHeight);
    const lines = [];
    board.querySelectorAll(".handoff[data-from]").forEach((note) => {
      const from = document.getElementById("task-" + note.dataset.from);
      const to = note.closest(".task");
      if (!from || !to || from.offsetParent === null || to.offsetParent === null) return;
      const a = from.getBoundingClientRect(), b = to.getBoundingClientRect();
      // Side by side (other lanes): edge to facing edge; one above the other (one lane): bottom to top.
      const side = b.left >= a.right ? 1 : b.right <= a.left ? -1 : 0;
      const x1 = (side === 0 ? a.left + a.width / 2 : side > 0 ? a.right : a.left) - origin.left;
      const y1 = (side === 0 ? a.bottom : a.top + a.height / 2) - origin.top;
      const x2 = (side === 0 ? b.left + b.width / 2 : side > 0 ? b.left : b.right) - origin.left;
      const y2 = (side === 0 ? b.top : b.top + b.height / 2) - origin.top;
      const bend = side === 0 ? `C${x1} ${y1 + 40} ${x2} ${y2 - 40}` : `C${x1 + side * 40} ${y1} ${x2 - side * 40} ${y2}`;
      const title = note.textContent.trim().replace(/&/g, "&amp;").replace(/</g, "&lt;");
      lines.push(`<path class="handoff-line" d="M${x1} ${y1} ${bend} ${x2} ${y2}" marker-end="url(#handoff-arrow)"><title>${title}</title></path>`);
    });
    svg.innerHTML = '<defs><marker id="handoff-arrow" viewBox="0 0 10 10" refX="9" refY="5" markerWidth="7" markerHeight="7" orient="auto"><path d="M0 0 L10 5 L0 10 z"/></marker></defs>' + lines.join("");
  }
  document.addEventListener("DOMContentLoaded", drawHandoffs);
  document.addEventListener("htmx:afterSettle", drawHandoffs);
  document.addEventListener("htmx:oobAfterSwap", drawHandoffs);
  document.addEventListener("toggle", drawHandoffs, true);
  window.addEventListener("resize", drawHandoffs);
})();
