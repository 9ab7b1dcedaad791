// The feedback panel's targets (a message, a section, an assumption, or a selected quote), named in
// words; the panel comes beside what it is about without moving the page (a selection first offers
// "Give feedback on this"); quoted spans stay marked in their report with a link to the feedback;
// instruction templates and drag-and-drop attachments. The server checks everything again.
(function () {
  const panel = () => document.getElementById("feedback-panel");
  const FIELDS = ["target_message_id", "target_words", "part_kind", "part_id", "part_index", "part_quote", "part_start", "part_end"];
  const GAP = 8;
  let floating = null; // where the panel floats (left, top, width in the window), while it does
  let quoting = []; // the marks of the quote the open panel is about, until it is sent or closed

  // The panel, about ``fields`` (named by ``words``), floats beside ``rect`` (what it is about, in the
  // window): in the side column when that lies to its right, else below it (or above, when there is no
  // room below). The page does not move: the side column keeps its height while the panel floats.
  function bring(rect, fields, words) {
    const form = panel();
    if (!form) return;
    if (!floating) {
      const side = form.parentElement;
      side.style.minHeight = side.offsetHeight + "px";
      const dock = form.getBoundingClientRect();
      floating = { dockLeft: dock.left, dockWidth: dock.width };
      form.classList.add("floating"); // out of the page's flow before its words change its height
    }
    FIELDS.forEach((name) => { form.elements[name].value = fields[name] ?? ""; });
    form.elements.target_words.value = words;
    form.querySelector("[data-role=target-label]").textContent = words;
    const across = document.documentElement.clientWidth;
    const beside = floating.dockLeft >= rect.right + GAP;
    const width = beside ? Math.min(floating.dockWidth, across - floating.dockLeft - GAP) : Math.min(floating.dockWidth, 460, across - 2 * GAP);
    floating.width = width;
    floating.left = beside ? floating.dockLeft : Math.max(GAP, Math.min(rect.left, across - width - GAP));
    floating.top = GAP;
    place(form);
    const height = form.offsetHeight;
    floating.top = beside ? rect.top - GAP : rect.bottom + GAP;
    if (!beside && floating.top + height > window.innerHeight - GAP) floating.top = rect.top - GAP - height;
    place(form);
    form.elements.instruction.focus({ preventScroll: true });
  }
  // The panel at its place, wholly inside the window (it is at most as tall as the window), also after
  // the window changed its size.
  function place(form) {
    const across = document.documentElement.clientWidth;
    const width = Math.min(floating.width, across - 2 * GAP);
    form.classList.add("floating");
    form.style.left = Math.max(GAP, Math.min(floating.left, across - width - GAP)) + "px";
    form.style.width = width + "px";
    const room = window.innerHeight - GAP - Math.min(form.offsetHeight, window.innerHeight - 2 * GAP);
    form.style.top = Math.max(GAP, Math.min(floating.top, room)) + "px";
  }
  function dock() {
    const form = panel();
    if (!form || !floating) return;
    floating = null;
    form.classList.remove("floating");
    ["left", "top", "width"].forEach((name) => form.style.removeProperty(name));
    form.parentElement.style.removeProperty("min-height");
    unmark(quoting);
    quoting = [];
  }

  // The text of ``body`` from offset ``start`` to ``end`` wrapped in marks ``make`` makes, one per text node.
  function markText(body, start, end, make) {
    const walker = document.createTreeWalker(body, NodeFilter.SHOW_TEXT);
    const pieces = [];
    let at = 0;
    for (let node = walker.nextNode(); node && at < end; node = walker.nextNode()) {
      const from = Math.max(start - at, 0), to = Math.min(end - at, node.length);
      at += node.length;
      if (to > from && node.data.slice(from, to).trim()) pieces.push([node, from, to]);
    }
    return pieces.map(([node, from, to]) => {
      const piece = from > 0 ? node.splitText(from) : node;
      if (to - from < piece.length) piece.splitText(to - from);
      const mark = make();
      piece.replaceWith(mark);
      mark.appendChild(piece);
      return mark;
    });
  }
  function unmark(marks) {
    marks.forEach((mark) => {
      if (!mark.parentNode) return;
      const parent = mark.parentNode;
      mark.replaceWith(...mark.childNodes);
      parent.normalize();
    });
  }
  const quotedMark = (seq, by) => () => {
    const mark = document.createElement("mark");
    mark.className = "quoted";
    mark.title = by;
    mark.dataset.feedback = seq;
    return mark;
  };

  // Where a quote stands in its body: at the offset it was taken from, else where its words are.
  function locate(text, quote, start) {
    if (start !== "" && !Number.isNaN(Number(start)) && text.substr(Number(start), quote.length) === quote) return Number(start);
    return text.indexOf(quote);
  }
  // The quotes feedback took from a report, marked in it, each followed by its link to the feedback.
  function markQuoted(root) {
    root.querySelectorAll("a.quoted-link[hidden]").forEach((link) => {
      const article = link.closest("article");
      const section = link.dataset.section && article.querySelector(`section[data-section-id="${CSS.escape(link.dataset.section)}"]`);
      const body = (section || article).querySelector(".report .body");
      const quote = link.dataset.quote;
      const start = body ? locate(body.textContent, quote, link.dataset.start) : -1;
      if (start < 0) return;
      const marks = markText(body, start, start + quote.length, quotedMark(link.getAttribute("href").slice(5), link.textContent));
      if (!marks.length) return;
      link.hidden = false;
      marks[marks.length - 1].after(link);
    });
  }

  // The selected words of a report: its body, the quote (trimmed) and its offsets in the body's text.
  // A triple click selects up to the next block (often the next report): the quote ends with its body.
  function selectedQuote() {
    const selection = window.getSelection();
    if (!selection || selection.isCollapsed || !selection.rangeCount) return null;
    const range = selection.getRangeAt(0).cloneRange();
    const first = range.startContainer.nodeType === Node.ELEMENT_NODE ? range.startContainer : range.startContainer.parentElement;
    const body = first && first.closest(".report .body");
    if (!body) return null;
    if (!body.contains(range.endContainer)) range.setEnd(body, body.childNodes.length);
    const before = document.createRange();
    before.setStart(body, 0);
    before.setEnd(range.startContainer, range.startOffset);
    const raw = range.toString();
    const quote = raw.trim();
    if (!quote) return null;
    const start = before.toString().length + raw.length - raw.trimStart().length;
    return { body, range, quote, start, end: start + quote.length };
  }

  const offer = document.createElement("button");
  offer.type = "button";
  offer.className = "feedback-offer";
  offer.textContent = "Give feedback on this";
  offer.dataset.testid = "feedback-offer";
  offer.hidden = true;
  let offered = null;
  document.body.appendChild(offer);
  offer.addEventListener("mousedown", (event) => event.preventDefault()); // the selection stays
  offer.addEventListener("click", () => {
    const chosen = offered;
    offer.hidden = true;
    if (!chosen || !panel()) return;
    const article = chosen.body.closest("article");
    const section = chosen.body.closest("section[data-section-id]");
    const shown = chosen.quote.length > 120 ? chosen.quote.slice(0, 119) + "…" : chosen.quote;
    const words = [article.dataset.targetWords, section && `section “${section.dataset.sectionTitle}”`, `“${shown}”`];
    const rect = chosen.range.getBoundingClientRect();
    unmark(quoting);
    quoting = markText(chosen.body, chosen.start, chosen.end, () => Object.assign(document.createElement("mark"), { className: "quoting" }));
    window.getSelection().removeAllRanges();
    bring(rect, {
      target_message_id: article.dataset.messageId,
      part_kind: "quote",
      part_id: section ? section.dataset.sectionId : "",
      part_quote: chosen.quote,
      part_start: chosen.start,
      part_end: chosen.end,
    }, words.filter(Boolean).join(" › "));
  });
  function offerFor() {
    offered = panel() ? selectedQuote() : null; // a viewer has no panel: nothing to offer
    offer.hidden = !offered;
    if (!offered) return;
    // Below the selection's end, or above its start when the window has no room below.
    const rects = offered.range.getClientRects();
    const whole = offered.range.getBoundingClientRect();
    const last = rects.length ? rects[rects.length - 1] : whole;
    const below = last.bottom + 4 + offer.offsetHeight <= window.innerHeight;
    const x = below ? last.right : (rects.length ? rects[0] : whole).left;
    offer.style.left = Math.min(x + window.scrollX, document.documentElement.clientWidth - offer.offsetWidth - GAP) + "px";
    offer.style.top = (below ? last.bottom + 4 : whole.top - 4 - offer.offsetHeight) + window.scrollY + "px";
  }
  document.addEventListener("mouseup", (event) => {
    if (event.target === offer || event.target.closest("#feedback-panel")) return;
    setTimeout(offerFor); // after the click has collapsed (or kept) the selection
  });
  document.addEventListener("keyup", (event) => { if (event.shiftKey) offerFor(); });

  document.addEventListener("click", (event) => {
    if (event.target.closest("[data-role=dock]")) return dock();
    const button = event.target.closest("[data-target-message]");
    if (!button) return;
    unmark(quoting);
    quoting = [];
    bring(button.getBoundingClientRect(), {
      target_message_id: button.dataset.targetMessage,
      part_kind: button.dataset.partKind,
      part_id: button.dataset.partId,
      part_index: button.dataset.partIndex,
    }, button.dataset.targetLabel);
  });
  window.addEventListener("resize", () => { if (floating && panel()) place(panel()); });
  document.addEventListener("keydown", (event) => {
    if (event.key === "Escape" && floating && event.target.closest("#feedback-panel")) dock();
  });
  // The panel comes back from the server after Send: it stays where it floated (once htmx has settled
  // the class and style it copies over from the old panel), and the quote it was about becomes a mark
  // with a link to the feedback (the report's own marks arrive with the thread).
  const seen = (form) => { if (form) form.dataset.seen = "1"; };
  document.addEventListener("htmx:afterSwap", () => markQuoted(document));
  document.addEventListener("htmx:afterSettle", () => {
    const form = panel();
    if (!form || form.dataset.seen) return;
    seen(form);
    if (floating) place(form);
    const sent = form.querySelector("[data-testid=feedback-sent]");
    if (!sent || !quoting.length) return;
    quoting.forEach((mark) => { mark.className = "quoted"; mark.dataset.feedback = sent.dataset.seq; });
    const link = Object.assign(document.createElement("a"), { className: "quoted-link", href: "#msg-" + sent.dataset.seq, textContent: "Your feedback" });
    quoting[quoting.length - 1].after(link);
    quoting = [];
  });
  seen(panel());
  document.addEventListener("htmx:oobAfterSwap", () => markQuoted(document));
  markQuoted(document);

  document.addEventListener("change", (event) => {
    if (event.target.matches("[data-role=template]") && event.target.value) {
      const box = panel().elements.instruction;
      box.value = event.target.value + (box.value ? "\n" + box.value : "");
      box.focus({ preventScroll: true });
    }
    if (event.target.matches("[data-role=files]")) upload(event.target.files);
  });
  function upload(files) {
    const form = panel();
    const token = form.elements.csrfmiddlewaretoken.value;
    const more = form.querySelector("details.feedback-more");
    if (more) more.open = true; // the files being attached show under the folded options
    Array.from(files).forEach(async (file) => {
      const path = "uploads/" + file.name.replace(/[^A-Za-z0-9._-]/g, "_");
      const item = document.createElement("li");
      const bar = window.chapUploads.progressBar("Uploading " + file.name);
      item.append(file.name + " ", bar);
      form.querySelector("[data-role=attached]").appendChild(item);
      const answer = await window.chapUploads.send(form.dataset.uploadUrl + "?path=" + encodeURIComponent(path), file,
        { "X-CSRFToken": token, "Content-Type": "application/octet-stream" }, bar);
      const ok = answer && answer.status < 300;
      item.textContent = ok ? path : file.name + ": not attached (" + window.chapUploads.refusal(answer) + ")";
      if (ok) {
        const field = document.createElement("input");
        Object.assign(field, { type: "hidden", name: "attachments", value: path });
        form.appendChild(field);
      }
    });
  }
  // Files dropped anywhere on the panel are attached: its drop zone folds with the other options.
  document.addEventListener("dragover", (event) => { if (event.target.closest("#feedback-panel")) event.preventDefault(); });
  document.addEventListener("drop", (event) => {
    if (!event.target.closest("#feedback-panel")) return;
    event.preventDefault();
    upload(event.dataTransfer.files);
  });
})();
