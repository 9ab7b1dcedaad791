// Pan (drag) and zoom (wheel, + / − / Fit) of the decision map, by changing the SVG's viewBox.
(function () {
  function setup(svg) {
    if (svg.dataset.ready) return;
    svg.dataset.ready = "1";
    let full = [0, 0, Number(svg.dataset.width), Number(svg.dataset.height)];
    let box = full.slice();
    const apply = () => svg.setAttribute("viewBox", box.join(" "));
    // Live nodes may land beyond the map's first extent: grow it (and the view, when it showed all).
    svg.grow = () => {
      const b = svg.getBBox();
      const w = Math.max(full[2], b.x + b.width + 60), h = Math.max(full[3], b.y + b.height + 60);
      if (w === full[2] && h === full[3]) return;
      const showedAll = box.join() === full.join();
      full = [0, 0, w, h];
      if (showedAll) { box = full.slice(); apply(); }
    };
    const zoom = (factor, cx, cy) => {
      const w = box[2] * factor, h = box[3] * factor;
      box = [cx - (cx - box[0]) * factor, cy - (cy - box[1]) * factor, w, h];
      apply();
    };
    const centre = () => [box[0] + box[2] / 2, box[1] + box[3] / 2];
    svg.addEventListener("wheel", (event) => {
      event.preventDefault();
      const rect = svg.getBoundingClientRect();
      const cx = box[0] + ((event.clientX - rect.left) / rect.width) * box[2];
      const cy = box[1] + ((event.clientY - rect.top) / rect.height) * box[3];
      zoom(event.deltaY > 0 ? 1.15 : 1 / 1.15, cx, cy);
    }, { passive: false });
    let drag = null;
    svg.addEventListener("pointerdown", (event) => {
      if (event.target.closest(".node")) return;
      drag = { x: event.clientX, y: event.clientY, box: box.slice() };
      svg.setPointerCapture(event.pointerId);
    });
    svg.addEventListener("pointermove", (event) => {
      if (!drag) return;
      const rect = svg.getBoundingClientRect();
      box[0] = drag.box[0] - ((event.clientX - drag.x) / rect.width) * box[2];
      box[1] = drag.box[1] - ((event.clientY - drag.y) / rect.height) * box[3];
      apply();
    });
    svg.addEventListener("pointerup", () => { drag = null; });
    const map = svg.closest("#decision-map");
    map.querySelectorAll("[data-zoom]").forEach((button) => {
      button.addEventListener("click", () => {
        const [cx, cy] = centre();
        if (button.dataset.zoom === "in") zoom(1 / 1.3, cx, cy);
        else if (button.dataset.zoom === "out") zoom(1.3, cx, cy);
        else { box = full.slice(); apply(); }
      });
    });
  }
  // A live update brings new and changed map nodes in #map-patch (parsed inside an <svg>, so they are
  // SVG elements); they replace their old selves or join the map, and htmx wires their clicks.
  function applyPatch() {
    const patch = document.getElementById("map-patch");
    if (!patch) return;
    patch.querySelectorAll("g[data-into]").forEach((group) => {
      const into = document.getElementById(group.dataset.into);
      Array.from(group.children).forEach((item) => {
        const old = item.id && document.getElementById(item.id);
        if (old && old !== item) old.replaceWith(item);
        else if (into) into.appendChild(item);
        if (window.htmx) window.htmx.process(item);
      });
    });
    patch.replaceChildren();
    const svg = document.getElementById("map-svg");
    if (svg && svg.grow) svg.grow();
  }
  const scan = () => document.querySelectorAll("#map-svg").forEach(setup);
  document.addEventListener("htmx:oobAfterSwap", applyPatch);
  document.addEventListener("DOMContentLoaded", scan);
  document.addEventListener("htmx:afterSwap", scan);
})();
