// parlour's little plain JavaScript: the live stream, countdowns, the character counter
// and the replay scrubber. Event lines arrive already rendered (and escaped) by the
// server; this only inserts them, never builds HTML from text.
(function () {
  "use strict";
  var room = document.querySelector("[data-stream]");
  var log = document.getElementById("log");

  function lastSeq() {
    var items = log ? log.querySelectorAll("li[data-seq]") : [];
    return items.length ? parseInt(items[items.length - 1].dataset.seq, 10) : -1;
  }

  function follow(url) {
    var source = new EventSource(url + "?after=" + lastSeq());
    source.addEventListener("line", function (msg) {
      var data = JSON.parse(msg.data);
      if (data.seq <= lastSeq()) return;
      var holder = document.createElement("template");
      holder.innerHTML = data.html.trim();
      log.appendChild(holder.content.firstChild);
      log.lastChild.scrollIntoView({block: "nearest"});
      var phase = document.querySelector(".watch .phase-now b");
      if (phase) phase.textContent = log.lastChild.dataset.phase;
      document.body.dispatchEvent(new Event("refresh-facts"));
      updateScrubber();
    });
    source.addEventListener("tick", function () {
      var box = document.getElementById("decision");
      var typing = box && box.contains(document.activeElement) &&
        document.activeElement.tagName !== "BUTTON";
      if (typing) return;
      // A change while the decision box is being fetched or posted: that answer may
      // predate it, so ask again once it has landed (else a stale box could stay).
      if (busy) again = true;
      else document.body.dispatchEvent(new Event("refresh-decision"));
    });
    source.addEventListener("end", function (msg) {
      // The game is over: the page may now reveal more; say so, keep the stream's lines.
      source.close();
      var data = JSON.parse(msg.data);
      var status = document.getElementById("game-status");
      if (status) status.textContent = data.status || "finished";
      var ended = document.getElementById("ended");
      if (ended) ended.hidden = false;
      // A seat's room: its sidebar and decision box say the game is over.
      document.body.dispatchEvent(new Event("refresh-facts"));
      document.body.dispatchEvent(new Event("refresh-decision"));
    });
    source.onerror = function () {
      // The browser reconnects by itself; start again from what is on the page.
      source.close();
      setTimeout(function () { follow(url); }, 1000);
    };
  }
  var busy = 0, again = false;
  // Known by the request's path, not its element: the box swaps itself out (outerHTML),
  // so htmx reports afterRequest on the body, and counting by element left busy stuck
  // at 1 after the first refresh: every later question waited for a reload.
  function inDecision(e) {
    var path = (e.detail.pathInfo && e.detail.pathInfo.requestPath) || "";
    return /^\/play\/[^/]+\/(decision|act)$/.test(path);
  }
  document.body.addEventListener("htmx:beforeRequest", function (e) {
    if (inDecision(e)) busy++;
  });
  document.body.addEventListener("htmx:afterRequest", function (e) {
    if (!inDecision(e)) return;
    busy = Math.max(0, busy - 1);
    if (!busy && again) {
      again = false;
      setTimeout(function () { document.body.dispatchEvent(new Event("refresh-decision")); }, 0);
    }
  });
  if (room && log) follow(room.dataset.stream);

  function tickCountdowns() {
    document.querySelectorAll(".countdown[data-deadline]").forEach(function (el) {
      var left = Math.max(0, Math.round(parseFloat(el.dataset.deadline) - Date.now() / 1000));
      el.querySelector("span").textContent = left + " s";
    });
  }
  setInterval(tickCountdowns, 500);

  document.addEventListener("input", function (e) {
    var t = e.target;
    if (t.matches && t.matches("textarea[data-max]")) {
      var count = t.form.querySelector(".count");
      if (count) count.textContent = String(t.value.length);
    }
  });

  var scrub = document.getElementById("scrubber");
  function updateScrubber() {
    if (!scrub || !log) return;
    var n = log.querySelectorAll("li[data-seq]").length;
    var atEnd = parseInt(scrub.value, 10) >= parseInt(scrub.max, 10);
    scrub.max = String(n);
    var of = document.getElementById("scrub-of");
    if (of) of.textContent = String(n);
    if (atEnd) scrub.value = String(n);
    showUpTo(parseInt(scrub.value, 10));
  }
  function showUpTo(k) {
    var items = log.querySelectorAll("li[data-seq]");
    items.forEach(function (li, i) { li.hidden = i >= k; });
    var at = document.getElementById("scrub-at");
    if (at) at.textContent = String(k);
  }
  if (scrub) scrub.addEventListener("input", function () { showUpTo(parseInt(scrub.value, 10)); });
})();
