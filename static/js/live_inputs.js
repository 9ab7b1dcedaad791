// Live swaps never take away what a person is typing or has unfolded: before htmx replaces part of
// the page (a live out-of-band fragment from the socket, or the answer to another form), the fields
// in it that have focus or unsaved input are noted, and after the swap the new fields get their
// value, focus and caret back. Fields of the form that sent the request take what the server
// answered. A report the person opened (its one line, or the rest below its lead) stays open when
// it is drawn again (a question in it answered); one that a newer version replaces folds.
(function () {
  "use strict";
  const FIELDS = "input:not([type=hidden]):not([type=file]), textarea, select";
  const OPENED = "details.fold[open], details.more[open]";

  function dirty(field) {
    if (field.tagName === "SELECT") {
      return Array.from(field.options).some((option) => option.selected !== option.defaultSelected);
    }
    if (field.type === "checkbox" || field.type === "radio") return field.checked !== field.defaultChecked;
    return field.value !== field.defaultValue;
  }

  function key(field) {
    if (field.id) return "#" + field.id;
    const holder = field.closest("[id]");
    return (holder ? "#" + holder.id : "") + " [name='" + field.name + "']";
  }

  function kept(target, sender) {
    const notes = [];
    if (!target || !target.querySelectorAll) return notes;
    target.querySelectorAll(FIELDS).forEach((field) => {
      const focused = field === document.activeElement;
      if (!field.name && !field.id) return;
      if (sender && sender.contains(field)) return;
      if (!focused && !dirty(field)) return;
      const note = { key: key(field), focused, value: field.value, checked: field.checked };
      if (focused && typeof field.selectionStart === "number") {
        note.start = field.selectionStart;
        note.end = field.selectionEnd;
      }
      notes.push(note);
    });
    return notes;
  }

  function restore(notes) {
    notes.forEach((note) => {
      let field;
      try {
        field = document.querySelector(note.key);
      } catch (error) {
        return;
      }
      if (!field) return;
      if (field.type === "checkbox" || field.type === "radio") field.checked = note.checked;
      else field.value = note.value;
      if (note.focused) {
        field.focus();
        if (note.start !== undefined && typeof field.setSelectionRange === "function") {
          try {
            field.setSelectionRange(note.start, note.end);
          } catch (error) {
            // number inputs have no selection: focus is enough
          }
        }
      }
    });
  }

  function opened(target) {
    if (!target || !target.querySelectorAll) return [];
    return Array.from(target.querySelectorAll(OPENED)).map((details) => {
      const article = details.closest("article[id]");
      return article ? "#" + article.id + " details." + details.classList[0] : null;
    }).filter(Boolean);
  }

  function reopen(keys) {
    keys.forEach((selector) => {
      const details = document.querySelector(selector);
      if (details) details.open = true;
    });
  }

  function keepAcross(target, sender) {
    const notes = kept(target, sender);
    const folds = opened(target);
    if (notes.length || folds.length) {
      setTimeout(() => {  // htmx swaps right after this event
        reopen(folds);
        restore(notes);
      }, 0);
    }
  }

  document.addEventListener("htmx:oobBeforeSwap", (event) => keepAcross(event.detail.target, null));
  document.addEventListener("htmx:beforeSwap", (event) => {
    const sender = event.detail.requestConfig ? event.detail.requestConfig.elt : null;
    keepAcross(event.detail.target, sender && sender.closest ? sender.closest("form") || sender : sender);
  });
})();
