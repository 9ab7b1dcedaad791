// The decision map in the browser: pan (drag), zoom (wheel, + / − / Fit) by changing the SVG's viewBox;
// labels hidden where they would be too small to read, with a minimap to find your way; the first view
// (and Fit) shows the goal, the plan and the current answer (on a map too long for all three, the goal
// and the plan are named at the top of the frame), and a window resize fits again unless the reader
// moved the view; one tab stop with arrow keys between nodes (a roving tabindex) and Enter to open one.
(function () {
  const LABEL_PX = 12; // the labels' font size in map units
  const READABLE_PX = 9; // the smallest label worth drawing on screen
  const ABOVE = 12; // map units above and below a node for the badges on its edges
  const LABEL_RIGHT = 6; // map units between a label's lines and its box's right side (map_drawing.py)
  const parse = (text) => text.split(/[\s,]+/).map(Number);

  function setup(svg) {
    if (svg.dataset.ready) return;
    svg.dataset.ready = "1";
    const frame = svg.closest(".map-frame");
    const minimap = frame && frame.querySelector(".minimap");
    const hint = frame && frame.querySelector(".map-hint");
    const pinned = frame && frame.querySelector(".map-pinned");
    let full = parse(svg.dataset.view);
    let box = full.slice();
    let fitted = false; // whether the view is Fit's (a resize fits again) or the reader's own
    // The frame keeps the whole map's proportions while the view box zooms (set here, not in a style
    // attribute, which the Content-Security-Policy refuses).
    const keepProportions = () => { svg.style.aspectRatio = `${full[2]} / ${full[3]}`; };
    keepProportions();
    // Screen pixels per map unit for a view box (the SVG keeps its aspect ratio: the smaller ratio wins).
    const scaleOf = (view) => {
      const rect = svg.getBoundingClientRect();
      return Math.min(rect.width / view[2], rect.height / view[3]) || 1;
    };
    const apply = () => {
      svg.setAttribute("viewBox", box.join(" "));
      const far = scaleOf(box) * LABEL_PX < READABLE_PX;
      svg.classList.toggle("far", far);
      if (hint) hint.hidden = !far;
      const partial = box[2] < full[2] - 1 || box[3] < full[3] - 1 || box[0] > full[0] + 1 || box[1] > full[1] + 1;
      sizeBadges(svg);
      fitLabels(svg);
      if (minimap) {
        minimap.toggleAttribute("hidden", !partial); // an SVG element has no ``hidden`` property
        minimap.setAttribute("viewBox", full.join(" "));
        const port = minimap.querySelector(".viewport");
        ["x", "y", "width", "height"].forEach((name, i) => port.setAttribute(name, box[i]));
      }
      pin();
    };
    // The goal and the plan, named at the top of the frame while the view lies beside or below them (a
    // long map's first view holds the current answer), each one click from being shown and opened.
    const inView = (node) => {
      const x = Number(node.dataset.x), y = Number(node.dataset.y), shape = node.querySelector(".box");
      const w = Number(shape.getAttribute("width")), h = Number(shape.getAttribute("height"));
      return x < box[0] + box[2] && x + w > box[0] && y < box[1] + box[3] && y + h > box[1];
    };
    const pin = () => {
      if (!pinned) return;
      const plans = svg.querySelectorAll("#map-nodes .node.shape-plan");
      const anchors = [svg.querySelector("#map-nodes .node.shape-goal"), plans[plans.length - 1]];
      const out = anchors.filter((node) => node && !inView(node));
      pinned.replaceChildren(...out.map((node) => {
        const chip = document.createElement("button");
        chip.type = "button";
        const word = node.classList.contains("shape-goal") ? "Goal" : "Plan";
        const label = node.querySelector("title").textContent.split(" · ")[0];
        chip.textContent = label.startsWith(word) ? label : `${word}: ${label}`; // not "Plan: Plan by planner"
        chip.addEventListener("click", () => {
          svg.reveal(node);
          node.focus({ preventScroll: true });
          node.dispatchEvent(new MouseEvent("click", { bubbles: true }));
        });
        return chip;
      }));
      pinned.hidden = !out.length;
    };
    // The goal, the plan and the current answer: [left, top, right, bottom] in map units, or null.
    const keyBox = () => {
      const nodes = Array.from(svg.querySelectorAll("#map-nodes .node.shape-goal, #map-nodes .node.shape-plan, #map-nodes .node.current"));
      if (!nodes.length) return null;
      const x = nodes.map((n) => Number(n.dataset.x)), y = nodes.map((n) => Number(n.dataset.y));
      const bottom = nodes.map((n, i) => y[i] + Number(n.querySelector(".box").getAttribute("height")));
      const width = Number(nodes[0].querySelector(".box").getAttribute("width"));
      return [Math.min(...x), Math.min(...y) - ABOVE, Math.max(...x) + width, Math.max(...bottom) + ABOVE];
    };
    const within = (start, length, from, size) => Math.max(from, Math.min(start, from + size - length));
    // Fit: the whole map when its labels stay readable. Otherwise every column, as wide as the frame,
    // from the goal and the plan down to the current answer when they fit readable at that width, or
    // just them, as large as the frame allows. When even they do not fit readable: every column from
    // the current answer down (the newest rows when there is none), or on a frame too narrow for that,
    // the smallest readable zoom there, at the right. The minimap shows the rest.
    const fit = () => {
      const rect = svg.getBoundingClientRect();
      const readable = READABLE_PX / LABEL_PX;
      const acrossScale = rect.width / full[2];
      const key = keyBox();
      const keyScale = key ? Math.min(rect.width / (key[2] - key[0]), rect.height / (key[3] - key[1])) : 0;
      const across = Math.min(full[3], rect.height / acrossScale);
      const bottom = Math.min(full[1] + full[3], key ? key[3] : Infinity); // the current answer's, else the map's
      // Where a view that cannot hold the goal starts: just above the current answer, which then shows
      // with the sections below it (the rows above it are older versions); the newest rows when there is none.
      const current = svg.querySelector("#map-nodes .node.current");
      const from = (h) => within(current ? Number(current.dataset.y) - 3 * ABOVE : bottom - h, h, full[1], full[3]);
      if (scaleOf(full) >= readable) {
        box = full.slice();
      } else if (key && acrossScale >= readable && key[3] - key[1] <= across) {
        box = [full[0], within(key[1], across, full[1], full[3]), full[2], across];
      } else if (key && keyScale >= readable) {
        const w = rect.width / keyScale, h = rect.height / keyScale;
        box = [within(key[0], w, full[0], full[2]), within(key[1], h, full[1], full[3]), w, h];
      } else if (acrossScale >= readable) {
        box = [full[0], from(across), full[2], across];
      } else {
        const w = Math.min(full[2], rect.width / readable), h = Math.min(full[3], rect.height / readable);
        box = [full[0] + full[2] - w, from(h), w, h];
      }
      apply();
      fitted = true;
    };
    svg.fit = fit;
    // Live nodes may land beyond the map's first extent: grow it (and the view, when it showed all).
    svg.grow = () => {
      const b = svg.getBBox();
      const right = Math.max(full[0] + full[2], b.x + b.width + 16), bottom = Math.max(full[1] + full[3], b.y + b.height + 16);
      if (right === full[0] + full[2] && bottom === full[1] + full[3]) return;
      full = [full[0], full[1], right - full[0], bottom - full[1]];
      keepProportions();
      if (fitted) fit(); else apply();
    };
    const zoom = (factor, cx, cy) => {
      box = [cx - (cx - box[0]) * factor, cy - (cy - box[1]) * factor, box[2] * factor, box[3] * factor];
      fitted = false;
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
      const scale = scaleOf(box);
      box[0] = drag.box[0] - (event.clientX - drag.x) / scale;
      box[1] = drag.box[1] - (event.clientY - drag.y) / scale;
      fitted = false;
      apply();
    });
    svg.addEventListener("pointerup", () => { drag = null; });
    if (minimap) {
      minimap.addEventListener("click", (event) => {
        const rect = minimap.getBoundingClientRect();
        const scale = Math.min(rect.width / full[2], rect.height / full[3]);
        const offsetX = (rect.width - full[2] * scale) / 2, offsetY = (rect.height - full[3] * scale) / 2;
        const cx = full[0] + (event.clientX - rect.left - offsetX) / scale;
        const cy = full[1] + (event.clientY - rect.top - offsetY) / scale;
        box = [cx - box[2] / 2, cy - box[3] / 2, box[2], box[3]];
        fitted = false;
        apply();
      });
    }
    const map = svg.closest("#decision-map");
    map.querySelectorAll("[data-zoom]").forEach((button) => {
      button.addEventListener("click", () => {
        const [cx, cy] = centre();
        if (button.dataset.zoom === "in") zoom(1 / 1.3, cx, cy);
        else if (button.dataset.zoom === "out") zoom(1.3, cx, cy);
        else fit();
      });
    });
    // Keep a focused node in view.
    svg.reveal = (node) => {
      const x = Number(node.dataset.x), y = Number(node.dataset.y);
      if (x < box[0] || y < box[1] || x + 168 > box[0] + box[2] || y + 40 > box[1] + box[3]) {
        box = [x + 84 - box[2] / 2, y + 20 - box[3] / 2, box[2], box[3]];
        fitted = false;
        apply();
      }
    };
    svg.addEventListener("keydown", onKey);
    new ResizeObserver(() => (fitted ? fit() : apply())).observe(svg);
    fit();
    roving(svg);
  }

  // Badges as wide as their words ("★ current answer", a count of three digits) in whatever font the
  // browser draws them: measured once each, when drawn (labels are hidden while zoomed out).
  function sizeBadges(svg) {
    if (svg.classList.contains("far")) return;
    svg.querySelectorAll("#map-nodes .current-mark:not([data-sized]), #map-nodes .count:not([data-sized])").forEach((badge) => {
      const text = badge.querySelector("text"), rect = badge.querySelector("rect");
      const width = Math.ceil(text.getComputedTextLength()) + 10;
      if (width <= 10) return;
      badge.dataset.sized = "1";
      const right = badge.classList.contains("count") ? 4 : width; // a count's right edge stays 4 past its node's
      rect.setAttribute("x", right - width);
      rect.setAttribute("width", width);
      text.setAttribute("x", right - width / 2);
    });
  }

  // A label's lines are wrapped on the server by a guess of their width; a line the browser's font draws
  // wider than its box is shortened to end in "…" (the node's title holds the whole label). Measured
  // once a node, when drawn (labels are hidden while zoomed out).
  function fitLabels(svg) {
    if (svg.classList.contains("far")) return;
    svg.querySelectorAll("#map-nodes .node:not([data-fitted])").forEach((node) => {
      const box = node.querySelector(":scope > .box"), lines = node.querySelectorAll(":scope > text tspan");
      if (!box || !lines.length) return;
      const room = Number(box.getAttribute("width")) - Number(lines[0].getAttribute("x")) - LABEL_RIGHT;
      for (const line of lines) {
        const chars = Array.from(line.textContent);
        const drawn = line.getComputedTextLength();
        if (chars.length && !drawn) return; // not laid out (yet): measured on a later call
        if (drawn <= room) continue;
        let keep = chars.length;
        while (keep > 1 && line.getComputedTextLength() > room) {
          keep -= 1;
          line.textContent = `${chars.slice(0, keep).join("").trimEnd()}…`;
        }
      }
      node.dataset.fitted = "1";
    });
  }

  // One tab stop: exactly one node has tabindex 0 (the last one focused, else the first).
  function roving(svg) {
    const nodes = Array.from(svg.querySelectorAll("#map-nodes .node"));
    if (!nodes.length) return;
    const current = nodes.find((n) => n.getAttribute("tabindex") === "0") || nodes[0];
    nodes.forEach((n) => n.setAttribute("tabindex", n === current ? "0" : "-1"));
  }

  // Arrow keys: up and down within a column, left and right to the nearest node of the next column
  // that has one; Home and End to the first and last node.
  function onKey(event) {
    const from = event.target.closest && event.target.closest(".node");
    if (!from) return;
    const svg = from.ownerSVGElement;
    const nodes = Array.from(svg.querySelectorAll("#map-nodes .node"));
    const at = (n) => [Number(n.dataset.x), Number(n.dataset.y)];
    const [x, y] = at(from);
    let next = null;
    const nearest = (candidates, distance) => candidates.reduce((best, n) => (!best || distance(n) < distance(best) ? n : best), null);
    if (event.key === "ArrowDown" || event.key === "ArrowUp") {
      const down = event.key === "ArrowDown";
      const column = nodes.filter((n) => at(n)[0] === x && (down ? at(n)[1] > y : at(n)[1] < y));
      next = nearest(column, (n) => Math.abs(at(n)[1] - y));
    } else if (event.key === "ArrowRight" || event.key === "ArrowLeft") {
      const right = event.key === "ArrowRight";
      const side = nodes.filter((n) => (right ? at(n)[0] > x : at(n)[0] < x));
      const columnX = nearest(side, (n) => Math.abs(at(n)[0] - x));
      if (columnX) next = nearest(side.filter((n) => at(n)[0] === at(columnX)[0]), (n) => Math.abs(at(n)[1] - y));
    } else if (event.key === "Home") next = nodes[0];
    else if (event.key === "End") next = nodes[nodes.length - 1];
    else if (event.key === " " || event.key === "Enter") {
      // htmx opens the node on click (a trigger filter for Enter would need eval, which the CSP refuses).
      event.preventDefault();
      from.dispatchEvent(new MouseEvent("click", { bubbles: true }));
      return;
    }
    else return;
    event.preventDefault();
    if (!next) return;
    from.setAttribute("tabindex", "-1");
    next.setAttribute("tabindex", "0");
    next.focus();
    if (svg.reveal) svg.reveal(next);
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
        if (old && old !== item) {
          item.setAttribute("tabindex", old.getAttribute("tabindex") || "-1");
          const focused = document.activeElement === old;
          old.replaceWith(item);
          if (focused) item.focus();
        } else if (into) {
          item.setAttribute("tabindex", "-1");
          into.appendChild(item);
        }
        if (window.htmx) window.htmx.process(item);
      });
    });
    patch.replaceChildren();
    const svg = document.getElementById("map-svg");
    if (svg) {
      roving(svg);
      sizeBadges(svg);
      fitLabels(svg);
      if (svg.grow) svg.grow();
    }
  }
  // Skip links land on something that takes keys: the map's current node, or the target's first control.
  document.addEventListener("click", (event) => {
    const link = event.target.closest(".skip-links a");
    if (!link) return;
    const target = document.querySelector(link.getAttribute("href"));
    if (!target) return;
    event.preventDefault();
    const into = target.querySelector('#map-nodes .node[tabindex="0"]') ||
      target.querySelector("textarea, input:not([type=hidden]), select, button, a[href]") || target;
    if (into === target && !target.hasAttribute("tabindex")) target.setAttribute("tabindex", "-1");
    into.focus();
    into.scrollIntoView({ block: "nearest" });
  });
  // Node details open beside the map; where the page is one column they sit below it: bring them into view.
  document.addEventListener("htmx:afterSwap", (event) => {
    const details = event.detail.target;
    if (!details || details.id !== "node-details") return;
    const rect = details.getBoundingClientRect();
    if (rect.top < 0 || rect.top > window.innerHeight - 80) details.scrollIntoView({ block: "start", behavior: "instant" });
  });
  const scan = () => document.querySelectorAll("#map-svg").forEach(setup);
  document.addEventListener("htmx:oobAfterSwap", applyPatch);
  document.addEventListener("DOMContentLoaded", scan);
  document.addEventListener("htmx:afterSwap", scan);
})();
