// The workspace's socket goes on after the last message the page shows: its URL carries the head the
// page was rendered at (?since=), and each live fragment moves #page-seq on, so a reconnect (a server
// restarting) resumes from there and the page neither misses nor repeats a message.
(function () {
  "use strict";
  htmx.createWebSocket = function (url) {
    const shown = document.getElementById("page-seq");
    const address = new URL(url);
    if (shown) address.searchParams.set("since", shown.value);
    const socket = new WebSocket(address.toString(), []);
    socket.binaryType = htmx.config.wsBinaryType;
    return socket;
  };
})();
