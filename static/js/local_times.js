// Times in the reader's own zone and words: every <time class="when"> the server wrote ("today 14:05"
// in the server's zone) is said again from its datetime, on load and in every fragment htmx swaps in.
(function () {
  const clock = new Intl.DateTimeFormat(undefined, { hour: "2-digit", minute: "2-digit" });
  const day = new Intl.DateTimeFormat(undefined, { month: "short", day: "numeric" });
  const dayOfYear = new Intl.DateTimeFormat(undefined, { year: "numeric", month: "short", day: "numeric" });
  const exact = new Intl.DateTimeFormat(undefined, { dateStyle: "full", timeStyle: "long" });

  function words(moment, now) {
    const yesterday = new Date(now);
    yesterday.setDate(now.getDate() - 1);
    const at = clock.format(moment);
    if (moment.toDateString() === now.toDateString()) return "today " + at;
    if (moment.toDateString() === yesterday.toDateString()) return "yesterday " + at;
    const date = moment.getFullYear() === now.getFullYear() ? day : dayOfYear;
    return date.format(moment) + ", " + at;
  }

  function sayTimes(root) {
    const now = new Date();
    root.querySelectorAll("time.when[datetime]").forEach((element) => {
      const moment = new Date(element.getAttribute("datetime"));
      if (Number.isNaN(moment.getTime())) return;
      element.textContent = words(moment, now);
      element.title = exact.format(moment);
    });
  }

  document.addEventListener("DOMContentLoaded", () => sayTimes(document));
  document.addEventListener("htmx:load", (event) => sayTimes(event.target));
})();
