// The feedback panel's targets (a message, a section, an assumption, or a selected quote), its
// instruction templates and drag-and-drop attachments. The server checks everything again.
(function () {
  const panel = () => document.getElementById("feedback-panel");
  function setTarget(fields, label) {
    const form = panel();
    if (!form) return;
    ["target_message_id", "part_kind", "part_id", "part_index", "part_quote", "part_start", "part_end"].forEach((name) => {
      form.elements[name].value = fields[name] ?? "";
    });
    form.querySelector("[data-role=target-label]").textContent = label;
    form.elements.instruction.focus();
  }
  document.addEventListener("click", (event) => {
    const button = event.target.closest("[data-target-message]");
    if (!button) return;
    setTarget({
      target_message_id: button.dataset.targetMessage,
      part_kind: button.dataset.partKind,
      part_id: button.dataset.partId,
      part_index: button.dataset.partIndex,
    }, button.dataset.targetLabel);
  });
  document.addEventListener("mouseup", () => {
    const selection = window.getSelection();
    const text = selection ? selection.toString().trim() : "";
    if (!text) return;
    const body = selection.anchorNode && selection.anchorNode.parentElement && selection.anchorNode.parentElement.closest(".report .body");
    if (!body) return;
    const article = body.closest("article");
    const section = body.closest("section[data-section-id]");
    const start = body.textContent.indexOf(text);
    setTarget({
      target_message_id: article.dataset.messageId,
      part_kind: "quote",
      part_id: section ? section.dataset.sectionId : "",
      part_quote: text,
      part_start: start >= 0 ? start : "",
      part_end: start >= 0 ? start + text.length : "",
    }, "“" + text.slice(0, 80) + "”");
  });
  document.addEventListener("change", (event) => {
    if (event.target.matches("[data-role=template]") && event.target.value) {
      const box = panel().elements.instruction;
      box.value = event.target.value + (box.value ? "\n" + box.value : "");
      box.focus();
    }
    if (event.target.matches("[data-role=files]")) upload(event.target.files);
  });
  function upload(files) {
    const form = panel();
    const token = form.elements.csrfmiddlewaretoken.value;
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
  document.addEventListener("dragover", (event) => { if (event.target.closest("[data-role=drop]")) event.preventDefault(); });
  document.addEventListener("drop", (event) => {
    if (!event.target.closest("[data-role=drop]")) return;
    event.preventDefault();
    upload(event.dataTransfer.files);
  });
})();
