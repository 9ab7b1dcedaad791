// History review: any [data-seq] button (a checkpoint, a timeline entry, a search hit) moves the slider;
// moving the slider fetches the map as it was then (its form's hx-trigger) and updates its label.
(function () {
  document.addEventListener("input", (event) => {
    if (event.target.id !== "history-seq") return;
    document.getElementById("history-seq-value").textContent = "#" + event.target.value;
  });
  document.addEventListener("click", (event) => {
    const button = event.target.closest("button[data-seq]");
    const range = document.getElementById("history-seq");
    if (!button || !range) return;
    range.value = button.dataset.seq;
    range.dispatchEvent(new Event("input", { bubbles: true }));
    range.scrollIntoView({ block: "nearest" });
  });
})();
