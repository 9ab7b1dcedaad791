// Uploads with a progress bar: the new-session form's files (and the feedback panel's attachments,
// feedback.js) go up by XMLHttpRequest, whose upload events fetch() does not give. A file past the
// limit the form names (data-max-upload-bytes) is refused here before a byte is sent; the server
// checks again, and its refusal (a page, or the JSON error of a refused body) is shown in the form.
window.chapUploads = (function () {
  "use strict";

  function send(url, body, headers, bar) {
    return new Promise((resolve) => {
      const request = new XMLHttpRequest();
      request.open("POST", url);
      Object.entries(headers).forEach(([name, value]) => request.setRequestHeader(name, value));
      request.upload.addEventListener("progress", (event) => {
        if (!event.lengthComputable) return;
        bar.max = event.total;
        bar.value = event.loaded;
        bar.textContent = Math.round((100 * event.loaded) / event.total) + "%";
      });
      request.addEventListener("load", () => resolve(request));
      request.addEventListener("error", () => resolve(null));
      request.send(body);
    });
  }

  function progressBar(label) {
    const bar = document.createElement("progress");
    bar.className = "upload-progress";
    bar.setAttribute("aria-label", label);
    bar.dataset.testid = "upload-progress";
    return bar;
  }

  function refusal(request) {
    if (!request) return "the upload did not get through (the connection was lost)";
    try {
      return JSON.parse(request.responseText).error.message;
    } catch (notJson) {
      return "the upload was refused (" + request.status + ")";
    }
  }

  return { send, progressBar, refusal };
})();

(function () {
  "use strict";
  const form = document.querySelector("[data-testid=new-session]");
  const input = form && form.querySelector("input[type=file][data-max-upload-bytes]");
  if (!input) return;
  const field = input.closest(".field");
  const PROGRESS_FROM_BYTES = 8 * 1048576; // smaller uploads take a moment: no bar, a plain post

  function showError(text) {
    field.querySelectorAll(".error").forEach((old) => old.remove());
    const error = document.createElement("p");
    Object.assign(error, { className: "error", textContent: text });
    error.setAttribute("role", "alert");
    error.dataset.testid = "upload-error";
    field.appendChild(error);
  }

  form.addEventListener("submit", async (event) => {
    const files = Array.from(input.files);
    const limit = Number(input.dataset.maxUploadBytes);
    const total = files.reduce((sum, file) => sum + file.size, 0);
    if (total > limit) {
      event.preventDefault();
      showError("uploads are limited to " + input.dataset.maxUploadMb + " MB; these files take " +
        Math.ceil(total / 1048576) + " MB: choose smaller files, or split them");
      return;
    }
    if (total < PROGRESS_FROM_BYTES) return; // over in a moment: the form posts as it always did
    event.preventDefault();
    field.querySelectorAll(".error").forEach((old) => old.remove());
    const button = form.querySelector("button[type=submit]");
    button.disabled = true;
    const bar = window.chapUploads.progressBar("Uploading the files");
    field.appendChild(bar);
    const answer = await window.chapUploads.send(form.action || location.href, new FormData(form), {}, bar);
    const html = answer && (answer.getResponseHeader("Content-Type") || "").startsWith("text/html");
    if (answer && answer.status < 400) {
      location.assign(answer.responseURL); // the new session's page
    } else if (html) {
      document.open(); // the form again, with the server's errors, as a plain post would show it
      document.write(answer.responseText);
      document.close();
    } else {
      bar.remove();
      button.disabled = false;
      showError(window.chapUploads.refusal(answer));
    }
  });
})();
