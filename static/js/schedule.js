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
  // A live redraw of the board waits while a card is dragged or a reassignment asks to be confirmed: it
  // would drop the drag, or the question (answering it brings the board anew).
  document.addEventListener("htmx:oobBeforeSwap", (event) => {
    const board = event.detail.target;
    if (board && board.id === "schedule-board" && (dragged || board.querySelector("[data-testid=confirm-reassign]"))) {
      event.preventDefault();
    }
  });
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
  // takes it, only through the space between the cards: the gaps between lanes and rows, or a lane's own
  // margin, with rounded corners. It never crosses a card or a lane's heading (and cards are drawn over it).
  function rounded(points) {
    let d = `M${points[0][0]} ${points[0][1]}`;
    for (let i = 1; i < points.length - 1; i++) {
      const [px, py] = points[i - 1], [x, y] = points[i], [nx, ny] = points[i + 1];
      const r = Math.min(8, Math.hypot(x - px, y - py) / 2, Math.hypot(nx - x, ny - y) / 2);
      d += ` L${x - Math.sign(x - px) * r} ${y - Math.sign(y - py) * r} Q${x} ${y} ${x + Math.sign(nx - x) * r} ${y + Math.sign(ny - y) * r}`;
    }
    const [lx, ly] = points[points.length - 1];
    return `${d} L${lx} ${ly}`;
  }

  // It enters the card that takes the output beside the line that names it ("← from #12: …"), so two
  // hand-offs into one card arrive apart.
  function handoffPoints(from, note, gap) {
    const to = note.closest(".task"), said = note.getBoundingClientRect();
    const a = from.getBoundingClientRect(), b = to.getBoundingClientRect();
    const laneA = (from.closest(".lane") || from).getBoundingClientRect(), laneB = (to.closest(".lane") || to).getBoundingClientRect();
    const y1 = a.top + a.height / 2, y2 = said.top + said.height / 2;
    const side = b.left >= a.right ? 1 : b.right <= a.left ? -1 : 0;
    if (side === 0) {  // one above the other (one lane, or one column of lanes): down the lane's left margin
      const margin = (laneA.left + Math.min(a.left, b.left)) / 2;
      return [[a.left, y1], [margin, y1], [margin, y2], [b.left, y2]];
    }
    const x1 = side > 0 ? a.right : a.left, x2 = side > 0 ? b.left : b.right;
    const out = side > 0 ? laneA.right + gap / 2 : laneA.left - gap / 2;  // the gap beside each card's lane
    const into = side > 0 ? laneB.left - gap / 2 : laneB.right + gap / 2;
    if (Math.abs(out - into) < 2) return [[x1, y1], [out, y1], [out, y2], [x2, y2]];  // neighbouring lanes
    // Lanes apart: along the gap above or below the row of the lane it goes to, whichever is on the way.
    const above = laneA.bottom <= laneB.top || (laneA.top < laneB.bottom && (y1 + y2) / 2 - laneB.top < laneB.bottom - (y1 + y2) / 2);
    const row = above ? laneB.top - gap / 2 : laneB.bottom + gap / 2;
    return [[x1, y1], [out, y1], [out, row], [into, row], [into, y2], [x2, y2]];
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
      const path = rounded(handoffPoints(from, note, gap).map(([x, y]) => [x - origin.left, y - origin.top]));
      lines.push(`<path class="handoff-line" data-from="${from.id}" data-to="${to.id}" d="${path}" marker-end="url(#handoff-arrow)"><title>${title}</title></path>`);
    });
    svg.innerHTML = '<defs><marker id="handoff-arrow" viewBox="0 0 10 10" refX="9" refY="5" markerWidth="7" markerHeight="7" orient="auto"><path d="M0 0 L10 5 L0 10 z"/></marker></defs>' + lines.join("");
  }

  // A confirmation or refusal the board brought back shows where the person acted: on the card (its
  // "Finished" list opened), in view, a confirmation's first button focused (it asks a question).
  function showAnswer() {
    const asked = document.querySelector("#schedule-board [data-testid=confirm-reassign], #schedule-board .error");
    if (!asked) return;
    const folded = asked.closest("details");
    if (folded) folded.open = true;
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
