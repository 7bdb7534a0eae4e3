// parlour's little plain JavaScript: the live stream, countdowns, the character counter,
// the replay scrubber, reading new lines aloud, and Diplomacy orders picked on the
// board. Event lines arrive already rendered (and escaped) by the server; this only
// inserts them, never builds HTML from text.
(function () {
  "use strict";
  var room = document.querySelector("[data-stream]");
  var factsAgain = null;
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
      readAloud(log.lastChild);
      var phase = document.querySelector(".watch .phase-now b");
      if (phase) phase.textContent = log.lastChild.dataset.phase;
      document.body.dispatchEvent(new Event("refresh-facts"));
      // The server may answer a sidebar request with a game rebuilt up to half a second
      // ago (web/tables.py, Games.fresh); when the last line of a burst lands inside that
      // window, nothing else would refresh the sidebar until the next line, which may be
      // minutes away (the person's own turn). So ask once more after the burst settles.
      clearTimeout(factsAgain);
      factsAgain = setTimeout(function () {
        document.body.dispatchEvent(new Event("refresh-facts"));
      }, 700);
      updateScrubber();
    });
    source.addEventListener("tick", function () {
      var box = document.getElementById("decision");
      var typing = box && box.contains(document.activeElement) &&
        document.activeElement.tagName !== "BUTTON";
      if (typing) return;
      refreshDecision();
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
      // Through the same path as a tick: the stream is closed now, so no later tick
      // would fix a box whose end-of-game refresh htmx had dropped.
      refreshDecision();
    });
    source.onerror = function () {
      // The browser reconnects by itself; start again from what is on the page.
      source.close();
      setTimeout(function () { follow(url); }, 1000);
    };
  }
  var busy = 0, again = false;
  // A change while the decision box is being fetched or posted: that answer may predate
  // it, and htmx drops a second request on the same element, so ask again once the one
  // in flight has landed (else a stale box could stay).
  function refreshDecision() {
    if (busy) again = true;
    else document.body.dispatchEvent(new Event("refresh-decision"));
  }
  // Known by the request's path, not its element: the box swaps itself out (outerHTML),
  // so htmx reports afterRequest on the body, and counting by element left busy stuck
  // at 1 after the first refresh: every later question waited for a reload.
  function inDecision(e) {
    var path = (e.detail.pathInfo && e.detail.pathInfo.requestPath) || "";
    return /^\/play\/[^/]+\/(decision|act)$/.test(path);
  }
  document.body.addEventListener("htmx:beforeRequest", function (e) {
    if (!inDecision(e)) return;
    busy++;
    // Count the request done when its XHR is, not by htmx:afterRequest: that event is
    // fired on the requesting element, and when another answer has swapped the box out
    // meanwhile (a refresh landing while a form post is on its way), the element is
    // detached and the event never reaches body, so the box would wait forever.
    e.detail.xhr.addEventListener("loadend", function () {
      busy = Math.max(0, busy - 1);
      if (!busy && again) {
        again = false;
        setTimeout(function () { document.body.dispatchEvent(new Event("refresh-decision")); }, 0);
      }
    });
  });
  if (room && log) follow(room.dataset.stream);

  // A refresh that brings the question already on the page, unchanged (a tick because
  // someone else acted), leaves the box alone: what this person has typed, picked or
  // checked stays, and so do their focus and caret. Replacing the box mid-typing moved the
  // focus off the field, and what was typed after that went nowhere: an answer could be
  // sent empty. A post's answer always replaces the box.
  function summary(form) {
    var note = form.querySelector(".error");
    return form.querySelector("input[name=decision_id]").value + "\n" + (note ? note.textContent : "");
  }
  function sameQuestion(e) {
    var path = (e.detail.pathInfo && e.detail.pathInfo.requestPath) || "";
    if (!/\/decision$/.test(path)) return false;
    var form = document.querySelector("#decision form.decision");
    if (!form) return false;
    var holder = document.createElement("template");
    holder.innerHTML = String(e.detail.serverResponse || "");
    var next = holder.content.querySelector("form.decision");
    return !!next && summary(next) === summary(form);
  }

  // Any other new box asking the same decision (its refusal changed) keeps what this
  // person has picked so far: the selects (set by hand or by clicking the board), text
  // fields and checkboxes get their values back.
  var keptForm = null;
  function formValues() {
    var form = document.querySelector("#decision form.decision");
    if (!form) return null;
    var values = {}, checked = [];
    form.querySelectorAll("select[name], input[name]:not([type=hidden]):not([type=checkbox]), textarea[name]")
      .forEach(function (el) { values[el.name] = el.value; });
    form.querySelectorAll("input[type=checkbox]:checked").forEach(function (el) { checked.push(el.value); });
    return {id: form.querySelector("input[name=decision_id]").value, values: values, checked: checked};
  }
  document.body.addEventListener("htmx:beforeSwap", function (e) {
    if (!e.detail.target || e.detail.target.id !== "decision") return;
    // A refused answer comes back as 422 with the box and the engine's reason in it;
    // htmx 2 swaps no 4xx answer by itself, and the person saw nothing happen.
    if (e.detail.xhr && e.detail.xhr.status === 422) {
      e.detail.shouldSwap = true;
      e.detail.isError = false;
    }
    if (sameQuestion(e)) {
      e.detail.shouldSwap = false;
      return;
    }
    keptForm = formValues();
  });
  document.body.addEventListener("htmx:afterSwap", function (e) {
    if (!keptForm || !e.detail.target) return;
    var now = formValues(), kept = keptForm;
    keptForm = null;
    if (!now || now.id !== kept.id) return;
    var form = document.querySelector("#decision form.decision");
    Object.keys(kept.values).forEach(function (name) {
      var el = form.querySelector("[name='" + name.replace(/'/g, "\\'") + "']");
      if (!el) return;
      if (el.tagName === "SELECT") {
        var known = Array.prototype.some.call(el.options, function (o) { return o.value === kept.values[name]; });
        if (!known) return;  // no longer legal: keep the fresh default
      }
      el.value = kept.values[name];
    });
    form.querySelectorAll("input[type=checkbox]").forEach(function (el) {
      el.checked = kept.checked.indexOf(el.value) >= 0;
    });
    var typed = form.querySelector("textarea[data-max]"), count = form.querySelector(".count");
    if (typed && count) count.textContent = String(typed.value.length);
  });

  function tickCountdowns() {
    document.querySelectorAll(".countdown[data-deadline]").forEach(function (el) {
      var left = Math.max(0, Math.round(parseFloat(el.dataset.deadline) - Date.now() / 1000));
      el.querySelector("span").textContent = left + " s";
      el.classList.toggle("soon", left <= 5);
    });
  }
  setInterval(tickCountdowns, 500);
  tickCountdowns();
  // A new box's countdown shows its seconds at once, not "…" for up to half a second.
  document.body.addEventListener("htmx:afterSwap", tickCountdowns);

  // Enter sends a text answer, as the prompt says ("press Enter"); Shift+Enter is a new
  // line. Not while an input method is composing (Enter then picks the composed word).
  document.addEventListener("keydown", function (e) {
    var t = e.target;
    if (e.key !== "Enter" || e.shiftKey || e.isComposing || !t.matches ||
        !t.matches("#decision textarea[name=text]") || !t.form) return;
    e.preventDefault();
    if (t.form.requestSubmit) t.form.requestSubmit();
    else t.form.querySelector("button[type=submit]").click();
  });

  // Typing an answer to a question with a deadline tells the server, at most every 2 s:
  // the deadline then waits for this person (a person is never timed out mid-sentence),
  // and the countdown shows the deadline the server now holds.
  var typingSent = 0;
  document.addEventListener("input", function (e) {
    var form = e.target.closest && e.target.closest("#decision form.decision");
    var clock = form && form.querySelector(".countdown[data-deadline]");
    if (!clock || !room || Date.now() - typingSent < 2000) return;
    typingSent = Date.now();
    var id = form.querySelector("input[name=decision_id]").value;
    var url = room.dataset.stream.replace(/\/events$/, "/typing");
    fetch(url, {method: "POST", body: new URLSearchParams({decision_id: id}),
      credentials: "same-origin"}).then(function (r) { return r.ok ? r.text() : ""; })
      .then(function (until) {
        if (until && clock.isConnected) clock.dataset.deadline = until;
      }).catch(function () {});
  });

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
  // -- Voices: new lines read aloud by the browser's speech synthesis -------------------
  // Off by default; the choice is kept in localStorage. Each character gets a voice of
  // its own, chosen by a hash of the name over the voices this browser has (with a
  // pitch and rate of its own too, so characters sharing a voice still sound apart);
  // the engine's lines (no speaker) use the default voice, plainly.
  var READ_KEY = "parlour.readAloud";
  var speech = window.speechSynthesis || null;
  var readBox = document.getElementById("read-aloud");
  // For tests and the curious: every utterance handed to the browser, and what the
  // browser's speech engine then reported for it (start, end or error).
  var voices = window.parlourVoices = {queued: [], reported: [], pick: voiceFor};

  function nameHash(text) {
    var h = 2166136261;  // FNV-1a, 32 bits: stable across pages and browsers
    for (var i = 0; i < text.length; i++) {
      h ^= text.charCodeAt(i);
      h = Math.imul(h, 16777619) >>> 0;
    }
    return h;
  }
  function voiceFor(speaker) {
    var all = speech ? speech.getVoices() : [];
    if (!speaker) {
      var plain = all.filter(function (v) { return v.default; })[0] || all[0] || null;
      return {voice: plain, pitch: 1, rate: 1};
    }
    var h = nameHash(speaker);
    return {
      voice: all.length ? all[h % all.length] : null,
      pitch: 0.75 + ((h >>> 8) % 11) * 0.05,  // 0.75 .. 1.25
      rate: 0.9 + ((h >>> 16) % 5) * 0.05     // 0.9 .. 1.1
    };
  }
  function readAloud(li) {
    if (!readBox || !readBox.checked || !speech || !li || li.hidden) return;
    var who = li.querySelector(".speaker"), what = li.querySelector(".text");
    if (!what) return;
    var speaker = who ? who.textContent.trim() : "";
    var text = (speaker ? speaker + ". " : "") + what.textContent;
    var how = voiceFor(speaker);
    var said = new SpeechSynthesisUtterance(text);
    if (how.voice) said.voice = how.voice;
    said.pitch = how.pitch;
    said.rate = how.rate;
    var entry = {speaker: speaker, text: text, voice: how.voice ? how.voice.name : "",
      pitch: how.pitch, rate: how.rate};
    ["start", "end", "error"].forEach(function (kind) {
      said.addEventListener(kind, function (e) {
        voices.reported.push({kind: kind, text: text, error: e.error || ""});
      });
    });
    voices.queued.push(entry);
    speech.speak(said);
  }
  if (readBox) {
    if (!speech) {
      readBox.disabled = true;
      var missing = document.getElementById("voices-note");
      if (missing) missing.hidden = false;
    }
    readBox.checked = !!speech && localStorage.getItem(READ_KEY) === "on";
    readBox.addEventListener("change", function () {
      localStorage.setItem(READ_KEY, readBox.checked ? "on" : "off");
      if (!readBox.checked && speech) speech.cancel();
    });
  }

  // -- Diplomacy: orders picked on the board ------------------------------------------
  // The board names what it draws (data-province, data-coast, data-unit as orders write
  // units: "F STP/SC"); the decision form has one select per unit ("f.F EDI") holding
  // exactly that unit's legal orders. A click only ever picks one of those options (the
  // engine checks the answer again); it never makes up an order.
  var pick = {unit: null, target: null, cycle: null, formId: ""};

  function orderForm() {
    return document.querySelector("#decision form.decision-structured");
  }
  function unitSelects(form) {
    var out = Object.create(null);
    if (!form) return out;
    form.querySelectorAll("select[name^='f.']").forEach(function (sel) {
      var unit = sel.name.slice(2);
      if (/^[AF] [A-Z]{3}(\/[A-Z]{2})?$/.test(unit)) out[unit] = sel;
    });
    return out;
  }
  function provOf(loc) { return (loc || "").split("/")[0]; }
  function coastOf(loc) { return (loc || "").split("/")[1] || ""; }
  function unitProv(unit) { return provOf(unit.split(" ")[1]); }

  // parlour's order grammar: "F EDI - NTH", "A LON - NWY VIA", "F EDI H",
  // "A LVP S F EDI", "F LON S F EDI - NTH", "F NTH C A LON - NWY", "A MUN R BOH", "A MUN D".
  function parseOrder(text) {
    var w = text.split(" ");
    var o = {text: text, kind: "", to: "", coast: "", target: "", via: false};
    var verb = w[2];
    if (verb === "H") o.kind = "hold";
    else if (verb === "D") o.kind = "disband";
    else if (verb === "-" || verb === "R") {
      o.kind = verb === "-" ? "move" : "retreat";
      o.to = provOf(w[3]); o.coast = coastOf(w[3]); o.via = w[4] === "VIA";
    } else if (verb === "S" || verb === "C") {
      o.kind = verb === "C" ? "convoy" : (w[5] === "-" ? "support-move" : "support-hold");
      o.target = provOf(w[4]);
      if (w[5] === "-") { o.to = provOf(w[6]); o.coast = coastOf(w[6]); }
    }
    return o;
  }
  function legalOrders(sel) {
    return Array.prototype.map.call(sel.options, function (opt) {
      var o = parseOrder(opt.value);
      o.label = opt.textContent;
      return o;
    });
  }
  function boardTitle(selector) {
    var el = document.querySelector("#board " + selector + " > title");
    return el ? el.textContent : "";
  }
  function unitName(unit) {
    var sel = unitSelects(orderForm())[unit];
    var label = sel && sel.closest("label");
    if (label && label.firstChild) return label.firstChild.textContent.trim();
    return boardTitle("[data-unit='" + unit + "']") || unit;
  }
  function placeName(p) {
    var name = boardTitle(".province[data-province='" + p.prov + "']") || p.prov;
    return p.coast ? name + " (" + p.coast.toLowerCase() + " coast)" : name;
  }
  function note(text, bad) {
    var el = document.getElementById("board-note");
    if (!el) return;
    el.textContent = text;
    el.classList.toggle("error", !!bad);
  }
  function mark() {
    var svg = document.querySelector("#board svg");
    if (!svg) return;
    var units = unitSelects(orderForm());
    svg.querySelectorAll("[data-unit]").forEach(function (g) {
      var u = g.dataset.unit;
      // In a retreat the dislodged unit is ours to order, not the one that took its
      // place (both are written "A MUN").
      var ours = u in units && (g.classList.contains("dislodged") || !ownMarkerIsDislodged(svg, u));
      g.classList.toggle("mine", ours);
      g.classList.toggle("picked", ours && u === pick.unit);
      g.classList.toggle("helped", !!pick.target && g.dataset.province === pick.target.prov);
    });
    drawPicks();
  }
  // The orders now in the selects, drawn on the board in one colour ("not sent yet"),
  // so a person sees what their clicks (or the lists) add up to.
  var SVGNS = "http://www.w3.org/2000/svg";
  function centre(el) {
    if (!el) return null;
    if (el.tagName === "circle") {
      return [parseFloat(el.getAttribute("cx")), parseFloat(el.getAttribute("cy"))];
    }
    var box = el.getBBox();  // a unit's group: its disc or its boat
    return [box.x + box.width / 2, box.y + box.height / 2];
  }
  function ownMarkerIsDislodged(svg, unit) {
    return svg.querySelector(".dislodged[data-unit='" + unit + "']") !== null;
  }
  function markerOf(svg, unit) {
    return svg.querySelector(".dislodged[data-unit='" + unit + "']") ||
      svg.querySelector(".unit[data-unit='" + unit + "']");
  }
  function placePoint(svg, prov, coast) {
    var el = coast ? svg.querySelector(".coast-marker[data-province='" + prov + "'][data-coast='" + coast + "']")
      : null;
    return centre(el || svg.querySelector(".province[data-province='" + prov + "'] circle"));
  }
  function unitPoint(svg, prov) {
    var el = svg.querySelector(".unit[data-province='" + prov + "']");
    return el ? centre(el) : placePoint(svg, prov, "");
  }
  function shorten(a, b, by) {
    var dx = b[0] - a[0], dy = b[1] - a[1], len = Math.hypot(dx, dy) || 1;
    var t = Math.min(by / len, 0.45);
    return [a[0] + dx * t, a[1] + dy * t];
  }
  function svgEl(tag, attrs) {
    var el = document.createElementNS(SVGNS, tag);
    Object.keys(attrs).forEach(function (k) { el.setAttribute(k, String(attrs[k])); });
    return el;
  }
  function drawPicks() {
    var svg = document.querySelector("#board svg");
    if (!svg) return;
    var old = svg.querySelector("g.picks");
    if (old) old.remove();
    var units = unitSelects(orderForm());
    if (!Object.keys(units).length) return;
    var layer = svgEl("g", {"class": "picks", "pointer-events": "none"});
    var defs = svgEl("defs", {});
    var head = svgEl("marker", {id: "pick-head", viewBox: "0 0 10 10", refX: 8, refY: 5,
      markerWidth: 5, markerHeight: 5, orient: "auto-start-reverse"});
    head.appendChild(svgEl("path", {d: "M0,0 L10,5 L0,10 z", fill: "#ff6d00"}));
    defs.appendChild(head);
    layer.appendChild(defs);
    Object.keys(units).forEach(function (u) {
      var o = parseOrder(units[u].value), mine = markerOf(svg, u);
      var from = mine ? centre(mine) : unitPoint(svg, unitProv(u));
      if (!from) return;
      var line = {stroke: "#ff6d00", "stroke-width": 3.5, "stroke-linecap": "round"};
      if (o.kind === "hold") {
        layer.appendChild(svgEl("circle", {cx: from[0], cy: from[1], r: 14, fill: "none",
          stroke: "#ff6d00", "stroke-width": 3}));
      } else if (o.kind === "move" || o.kind === "retreat") {
        var to = placePoint(svg, o.to, o.coast);
        if (!to) return;
        var a = shorten(from, to, 11), b = shorten(to, from, 15);
        line["marker-end"] = "url(#pick-head)";
        if (o.kind === "retreat") line["stroke-dasharray"] = "7 4";
        layer.appendChild(svgEl("line", Object.assign({x1: a[0], y1: a[1], x2: b[0], y2: b[1]}, line)));
      } else if (o.kind.indexOf("support") === 0 || o.kind === "convoy") {
        var t = unitPoint(svg, o.target), end = t;
        if (!t) return;
        if (o.to) {
          var d = placePoint(svg, o.to, o.coast);
          if (d) end = [t[0] + (d[0] - t[0]) * 0.7, t[1] + (d[1] - t[1]) * 0.7];
        }
        var s0 = shorten(from, end, 11);
        line["stroke-dasharray"] = o.kind === "convoy" ? "2 5" : "6 4";
        layer.appendChild(svgEl("line", Object.assign({x1: s0[0], y1: s0[1], x2: end[0], y2: end[1]}, line)));
        layer.appendChild(svgEl("circle", {cx: end[0], cy: end[1], r: 4, fill: "#ff6d00"}));
      }
    });
    svg.appendChild(layer);
  }
  document.addEventListener("change", function (e) {
    if (e.target.closest && e.target.closest("#decision form.decision-structured")) drawPicks();
  });

  function letGo() {
    pick.unit = null; pick.target = null; pick.cycle = null;
  }

  // What was clicked: the province (and coast), the unit standing there if any, and the
  // one of our units there (a dislodged one during retreats).
  function placeOf(el, units) {
    var p = {prov: el.dataset.province, coast: el.dataset.coast || "", own: "", other: ""};
    var clicked = el.dataset.unit || "";
    if (clicked && clicked in units) p.own = clicked;
    Object.keys(units).forEach(function (u) {
      if (!p.own && unitProv(u) === p.prov) p.own = u;
    });
    var standing = document.querySelector("#board .unit[data-province='" + p.prov + "']");
    p.other = clicked || (standing ? standing.dataset.unit : "") || p.own;
    return p;
  }

  function setOrder(sel, order) {
    sel.value = order.text;
    sel.dispatchEvent(new Event("change", {bubbles: true}));
    var label = sel.closest("label");
    if (label) {
      label.classList.remove("just-set");
      void label.offsetWidth;  // restart the highlight
      label.classList.add("just-set");
    }
  }
  function describe(choice) {
    if (choice.type === "order") return choice.order.label;
    return "support or convoy " + choice.target.name;
  }
  function againHint() {
    var c = pick.cycle;
    if (!c || c.choices.length < 2) return "";
    return " Click there again for: " + describe(c.choices[(c.at + 1) % c.choices.length]) + ".";
  }
  function apply(choice, units) {
    var sel = units[choice.unit];
    if (choice.type === "order") {
      setOrder(sel, choice.order);
      pick.unit = null; pick.target = null;
      note("Set: " + choice.order.label + "." + againHint());
    } else {
      pick.unit = choice.unit; pick.target = choice.target;
      var hold = legalOrders(sel).filter(function (o) {
        return o.kind === "support-hold" && o.target === choice.target.prov;
      })[0];
      if (hold) setOrder(sel, hold);
      note((hold ? "Set: " + hold.label + ". " : "") + "Now click where " + choice.target.name +
        " goes, to support" + (hold ? " that move instead." : " or convoy it there.") + againHint());
    }
    mark();
  }
  function holdOf(sel) {
    // The unit's own order: hold (disband for a dislodged unit, whose list starts so).
    var orders = legalOrders(sel);
    return orders.filter(function (o) { return o.kind === "hold"; })[0] ||
      orders.filter(function (o) { return o.kind === "disband"; })[0];
  }

  function choose(p, key, units) {
    var a = pick.unit, sel = units[a], orders = legalOrders(sel);
    if (pick.target) {
      // Second step of a support or convoy: where the helped unit goes (or it again).
      var t = pick.target, found;
      if (p.own === a && !p.coast) {  // the unit itself again: it holds after all
        var stay = holdOf(sel);
        pick.cycle = null;
        if (stay) apply({type: "order", unit: a, order: stay}, units);
        return;
      }
      if (p.prov === t.prov) {
        found = orders.filter(function (o) { return o.kind === "support-hold" && o.target === t.prov; });
      } else {
        found = orders.filter(function (o) {
          return (o.kind === "support-move" || o.kind === "convoy") && o.target === t.prov &&
            o.to === p.prov && (!p.coast || o.coast === p.coast);
        });
      }
      if (found.length) {
        var keep = pick.cycle && pick.cycle.key === key ? pick.cycle : null;
        pick.cycle = found.length > 1
          ? {key: key, at: 0, choices: found.map(function (o) { return {type: "order", unit: a, order: o}; })}
          : keep;
        apply({type: "order", unit: a, order: found[0]}, units);
        return;
      }
      if (pick.cycle && pick.cycle.key === key) return cycle(units);
      if (p.own && p.own !== a) { select(p.own); return; }
      note(unitName(a) + " cannot support or convoy " + t.name + " to " + placeName(p) +
        ": no legal order does that. Click another place, or the map outside the provinces to let go.", true);
      return;
    }
    if (p.own === a && !p.coast) {
      var hold = holdOf(sel);
      if (hold) { pick.cycle = null; apply({type: "order", unit: a, order: hold}, units); }
      return;
    }
    var moves = orders.filter(function (o) {
      return (o.kind === "move" || o.kind === "retreat") && o.to === p.prov &&
        (!p.coast || o.coast === p.coast);
    }).sort(function (x, y) { return (x.via ? 1 : 0) - (y.via ? 1 : 0); });
    var helps = p.other && p.other !== a ? orders.filter(function (o) {
      return (o.kind.indexOf("support") === 0 || o.kind === "convoy") && o.target === p.prov;
    }) : [];
    var choices = moves.map(function (o) { return {type: "order", unit: a, order: o}; });
    if (helps.length) {
      var help = {type: "help", unit: a, target: {prov: p.prov, name: unitName(p.other)}};
      // Our own unit there: helping it is the likely wish; another power's: attacking it.
      if (p.own && p.own !== a) choices.unshift(help); else choices.push(help);
    }
    if (!choices.length) {
      if (p.own && p.own !== a) { select(p.own); return; }
      note(unitName(a) + " has no legal order that goes to " + placeName(p) +
        ". Its list above holds every order it may take.", true);
      return;
    }
    pick.cycle = choices.length > 1 ? {key: key, at: 0, choices: choices} : null;
    apply(choices[0], units);
  }
  function cycle(units) {
    var c = pick.cycle;
    c.at = (c.at + 1) % c.choices.length;
    apply(c.choices[c.at], units);
  }
  function select(unit) {
    letGo();
    pick.unit = unit;
    note(unitName(unit) + " is picked: click where it goes, it again to hold, or a unit to help.");
    mark();
  }

  document.addEventListener("click", function (ev) {
    var svg = ev.target.closest && ev.target.closest("#board svg");
    if (!svg) return;
    var form = orderForm(), units = unitSelects(form);
    if (!Object.keys(units).length) {
      note("No orders to give now; the board shows where things stand.");
      return;
    }
    var id = form.querySelector("input[name=decision_id]").value;
    if (id !== pick.formId) { letGo(); pick.formId = id; }
    var el = ev.target.closest("[data-province]");
    if (!el) {
      if (pick.unit) note("Let go of " + unitName(pick.unit) + ".");
      letGo(); mark();
      return;
    }
    var p = placeOf(el, units), key = p.prov + "/" + p.coast;
    if (!pick.target && pick.cycle && pick.cycle.key === key) { cycle(units); return; }
    if (pick.cycle && pick.cycle.key !== key) pick.cycle = null;
    if (!pick.unit) {
      if (p.own) { select(p.own); return; }
      note("Click one of your own units first (outlined): " +
        Object.keys(units).map(unitName).join(", ") + ".", true);
      return;
    }
    choose(p, key, units);
  });
  document.addEventListener("keydown", function (ev) {
    if (ev.key !== "Escape" || !pick.unit) return;
    note("Let go of " + unitName(pick.unit) + ".");
    letGo(); mark();
  });
  document.body.addEventListener("htmx:afterSettle", function () {
    var form = orderForm();
    var id = form ? form.querySelector("input[name=decision_id]").value : "";
    if (id !== pick.formId) { letGo(); pick.formId = id; note(""); }
    mark();
  });
  mark();
  (function () {
    var form = orderForm();
    if (form) pick.formId = form.querySelector("input[name=decision_id]").value;
  })();
  // The lobby: a field for one game only (the escape scenario) shows while that game is
  // chosen. Without script every field shows, and the server ignores what does not apply.
  (function () {
    var game = document.querySelector("#setup select[name=game]");
    if (!game) return;
    function only() {
      document.querySelectorAll("#setup [data-for-game]").forEach(function (field) {
        field.hidden = field.getAttribute("data-for-game") !== game.value;
      });
    }
    game.addEventListener("change", only);
    only();
  })();

  // The lobby's table: a seat's model spec box shows only while that seat is a model.
  (function () {
    var table = document.querySelector("#seats table.seats");
    if (!table) return;
    function specs() {
      table.querySelectorAll("tr[data-seat]").forEach(function (row) {
        var kind = row.querySelector("select.seat-kind"), spec = row.querySelector("input.seat-model");
        if (kind && spec) spec.hidden = kind.value !== "model";
      });
    }
    table.addEventListener("change", specs);
    specs();
  })();
})();
