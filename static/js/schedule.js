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

  // A hand-off runs from an edge of the task whose output it takes to the facing edge of the task that
  // takes it, through the space beside the cards (the gap between lanes, or a lane's own margin), with
  // rounded corners: it never crosses a card's text (and the cards are drawn over it).
  function route(x1, y1, channel, x2, y2) {
    const toward = Math.sign(channel - x1) || 1, back = Math.sign(x2 - channel) || 1, down = Math.sign(y2 - y1);
    const r = Math.min(8, Math.abs(y2 - y1) / 2, Math.abs(channel - x1), Math.abs(x2 - channel));
    return `M${x1} ${y1} H${channel - toward * r} Q${channel} ${y1} ${channel} ${y1 + down * r} ` +
      `V${y2 - down * r} Q${channel} ${y2} ${channel + back * r} ${y2} H${x2}`;
  }

  function handoffPath(from, to, origin, gap) {
    const a = from.getBoundingClientRect(), b = to.getBoundingClientRect();
    const lane = (from.closest(".lane") || from).getBoundingClientRect();
    const y1 = a.top + a.height / 2 - origin.top, y2 = b.top + b.height / 2 - origin.top;
    // Side by side: out of the facing edge into the gap after its lane; one above the other (one lane,
    // or one column of lanes): left edge to left edge, down the lane's margin.
    const side = b.left >= a.right ? 1 : b.right <= a.left ? -1 : 0;
    const x1 = (side > 0 ? a.right : a.left) - origin.left;
    const x2 = (side < 0 ? b.right : b.left) - origin.left;
    const channel = side > 0 ? lane.right + gap / 2 : side < 0 ? lane.left - gap / 2 : (lane.left + Math.min(a.left, b.left)) / 2;
    return route(x1, y1, channel - origin.left, x2, y2);
  }

  function drawHandoffs() {
    const board = document.getElementById("schedule-board");
    const svg = document.getElementById("handoff-lines");
    if (!board || !svg) return;
    const origin = board.getBoundingClientRect();
    const gap = parseFloat(getComputedStyle(board).columnGap) || 16;
    svg.setAttribute("width", board.scrollWidth);
    svg.setAttribute("height", board.scrollHeight);
    const lines = [];
    board.querySelectorAll(".handoff[data-from]").forEach((note) => {
      const from = document.getElementById("task-" + note.dataset.from);
      const to = note.closest(".task");
      if (!from || !to || from.offsetParent === null || to.offsetParent === null) return;
      const title = note.textContent.trim().replace(/&/g, "&amp;").replace(/</g, "&lt;");
      const path = handoffPath(from, to, origin, gap);
      lines.push(`<path class="handoff-line" data-from="${from.id}" data-to="${to.id}" d="${path}" marker-end="url(#handoff-arrow)"><title>${title}</title></path>`);
    });
    svg.innerHTML = '<defs><marker id="handoff-arrow" viewBox="0 0 10 10" refX="9" refY="5" markerWidth="7" markerHeight="7" orient="auto"><path d="M0 0 L10 5 L0 10 z"/></marker></defs>' + lines.join("");
  }

  // A confirmation or refusal the board brought back shows where the person acted: on the card, in view,
  // its first button focused (it asks a question).
  function showAnswer() {
    const asked = document.querySelector("#schedule-board [data-testid=confirm-reassign], #schedule-board > .error");
    if (!asked) return;
    const box = asked.getBoundingClientRect();
    if (box.top < 0 || box.bottom > window.innerHeight) asked.scrollIntoView({ block: "center" });
    const button = asked.querySelector("button");
    if (button) button.focus({ preventScroll: true });
  }
  document.addEventListener("DOMContentLoaded", drawHandoffs);
  document.addEventListener("htmx:afterSettle", drawHandoffs);
  document.addEventListener("htmx:afterSettle", showAnswer);
  document.addEventListener("htmx:oobAfterSwap", drawHandoffs);
  document.addEventListener("toggle", drawHandoffs, true);
  window.addEventListener("resize", drawHandoffs);
})();
