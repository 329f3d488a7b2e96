// ipb report: the per-response drill-down. Builds DOM nodes with textContent only,
// so nothing from a response is ever parsed as HTML.
(function () {
  "use strict";
  var dataNode = document.getElementById("ipb-responses");
  var root = document.getElementById("drill-app");
  if (!dataNode || !root) { return; }
  var payload = JSON.parse(dataNode.textContent || "{}");
  var responses = payload.responses || [];
  var metricNames = payload.metric_names || [];
  var PAGE = 200;

  function el(tag, attrs, children) {
    var node = document.createElement(tag);
    if (attrs) {
      Object.keys(attrs).forEach(function (k) {
        if (k === "text") { node.textContent = attrs[k]; }
        else if (k === "cls") { node.className = attrs[k]; }
        else { node.setAttribute(k, attrs[k]); }
      });
    }
    (children || []).forEach(function (c) {
      if (c !== null && c !== undefined) { node.appendChild(typeof c === "string" ? document.createTextNode(c) : c); }
    });
    return node;
  }

  function fmt(v) {
    if (v === null || v === undefined) { return "\u2014"; }
    return Number(v).toFixed(3);
  }

  function verdictBadge(v, fallback) {
    if (v === null || v === undefined) { return el("span", { cls: "badge v-none", text: fallback || "not addressed" }); }
    var cls = v === "N/A" ? "NA" : v;
    return el("span", { cls: "badge v-" + cls, text: v });
  }

  function hasMismatch(r) {
    return r.targets.some(function (t) { return t.rows.some(function (row) { return row.state === "mismatch"; }); });
  }

  // ---------------------------------------------------------------- controls
  var models = [];
  responses.forEach(function (r) { if (models.indexOf(r.model) < 0) { models.push(r.model); } });
  var modelSel = el("select", { id: "drill-model", "aria-label": "model" }, [el("option", { value: "", text: "all models" })]);
  models.forEach(function (m) { modelSel.appendChild(el("option", { value: m, text: m })); });
  var statusSel = el("select", { id: "drill-status", "aria-label": "status" }, [
    el("option", { value: "", text: "all responses" }),
    el("option", { value: "scored", text: "scored" }),
    el("option", { value: "unscored", text: "unscored" }),
    el("option", { value: "mismatch", text: "with a gate mismatch" })
  ]);
  var search = el("input", { type: "search", id: "drill-search", placeholder: "item id or card", "aria-label": "search" });
  var counter = el("span", { cls: "meta", id: "drill-count" });
  var controls = el("div", { cls: "controls" }, [
    el("label", null, ["Model ", modelSel]),
    el("label", null, ["Show ", statusSel]),
    el("label", null, ["Find ", search]),
    counter
  ]);
  var listBody = el("tbody");
  var more = el("button", { type: "button", id: "drill-more", text: "show more" });
  var list = el("div", { cls: "list" }, [
    el("table", null, [
      el("thead", null, [el("tr", null, [
        el("th", { text: "#" }), el("th", { text: "item" }), el("th", { text: "model" }),
        el("th", { text: "cond." }), el("th", { cls: "num", text: "BASP" }), el("th", { cls: "num", text: "GRA" })
      ])]),
      listBody
    ]),
    more
  ]);
  var detail = el("div", { cls: "detail", id: "drill-detail" }, [el("p", { cls: "empty", text: "Choose a response." })]);
  root.appendChild(controls);
  root.appendChild(el("div", { cls: "layout" }, [list, detail]));

  var shown = [];
  var limit = PAGE;
  var selected = null;

  function matches(r) {
    if (modelSel.value && r.model !== modelSel.value) { return false; }
    if (statusSel.value === "scored" && r.status !== "scored") { return false; }
    if (statusSel.value === "unscored" && r.status === "scored") { return false; }
    if (statusSel.value === "mismatch" && !hasMismatch(r)) { return false; }
    var q = search.value.trim().toLowerCase();
    if (q) {
      var hay = [r.item_id || "", r.model || ""].concat(r.targets.map(function (t) { return t.card || ""; })).join(" ").toLowerCase();
      if (hay.indexOf(q) < 0) { return false; }
    }
    return true;
  }

  function renderList() {
    shown = responses.filter(matches);
    while (listBody.firstChild) { listBody.removeChild(listBody.firstChild); }
    shown.slice(0, limit).forEach(function (r) {
      var tr = el("tr", { cls: (r.status === "scored" ? "" : "unscored") + (r === selected ? " selected" : ""), "data-key": r.key }, [
        el("td", { text: String(r.line === null ? "" : r.line) }),
        el("td", { text: r.item_id || "?" }),
        el("td", { text: r.model || "?" }),
        el("td", { text: r.condition || "" }),
        el("td", { cls: "num", text: r.status === "scored" ? fmt(r.metrics.layer_composite) : r.status }),
        el("td", { cls: "num", text: r.status === "scored" ? fmt(r.metrics.gra) : "" })
      ]);
      tr.addEventListener("click", function () { select(r); });
      listBody.appendChild(tr);
    });
    counter.textContent = shown.length + " of " + responses.length + " responses";
    more.style.display = shown.length > limit ? "" : "none";
  }

  more.addEventListener("click", function () { limit += PAGE; renderList(); });
  [modelSel, statusSel].forEach(function (s) { s.addEventListener("change", function () { limit = PAGE; renderList(); }); });
  search.addEventListener("input", function () { limit = PAGE; renderList(); });

  // ---------------------------------------------------------------- detail
  function highlighted(text, spans) {
    // spans: [{kind, start, end, id}] -> a <pre> with <mark>s (overlaps: the earlier span wins)
    var pre = el("pre", { cls: "text" });
    var sorted = spans.filter(function (s) { return s.start < s.end && s.start >= 0 && s.end <= text.length; })
      .sort(function (a, b) { return a.start - b.start || b.end - a.end; });
    var pos = 0;
    sorted.forEach(function (s) {
      if (s.start < pos) { return; }
      if (s.start > pos) { pre.appendChild(document.createTextNode(text.slice(pos, s.start))); }
      var mark = el("mark", { cls: "k-" + s.kind, "data-span": s.id, title: s.label, text: text.slice(s.start, s.end) });
      pre.appendChild(mark);
      pos = s.end;
    });
    if (pos < text.length) { pre.appendChild(document.createTextNode(text.slice(pos))); }
    return pre;
  }

  function activate(spanIds, row, pre) {
    Array.prototype.forEach.call(detail.querySelectorAll("tr.active, mark.active"), function (n) { n.classList.remove("active"); });
    if (row) { row.classList.add("active"); }
    var first = null;
    spanIds.forEach(function (id) {
      var m = pre ? pre.querySelector('mark[data-span="' + id + '"]') : null;
      if (m) { m.classList.add("active"); if (!first) { first = m; } }
    });
    if (first && pre) { pre.scrollTop = Math.max(0, first.offsetTop - pre.offsetTop - 40); }
  }

  function elements(list) {
    var box = el("div", { cls: "elements" });
    list.forEach(function (e) {
      box.appendChild(el("span", { cls: e.state, title: e.state, text: e.text }));
    });
    return box;
  }

  function renderTarget(r, t, ti, spans, rowsById) {
    var box = el("div", { cls: "target" });
    var head = (t.card || "?") + (t.investor ? " \u2014 " + t.investor : "") + (t.topology ? " (" + t.topology + ")" : "");
    box.appendChild(el("h4", { text: head }));
    if (t.note) { box.appendChild(el("p", { cls: "warn", text: t.note })); }
    if (t.reason) { box.appendChild(el("p", { cls: "warn", text: t.reason })); }
    var tbody = el("tbody");
    t.rows.forEach(function (row, ri) {
      var ids = [];
      row.spans.forEach(function (s, si) {
        var id = "t" + ti + "r" + ri + "s" + si;
        ids.push(id);
        spans.push({ kind: s[0], start: s[1], end: s[2], id: id, label: (row.number ? "gate " + row.number + ": " : "") + row.name + " (" + s[0] + ")" });
      });
      var where = row.spans.length ? row.spans.length + " span" + (row.spans.length > 1 ? "s" : "") : "\u2014";
      var tr = el("tr", { cls: row.state, "data-gate": String(row.number === null ? "invented" : row.number) }, [
        el("td", { cls: "num", text: row.number === null ? "+" : String(row.number) }),
        el("td", null, [row.name, row.kill ? el("div", { cls: "meta", text: "kill: " + row.kill }) : null]),
        el("td", null, [row.gold_verdict === null ? el("span", { cls: "badge v-invented", text: "not in card" }) : verdictBadge(row.gold_verdict)]),
        el("td", null, [verdictBadge(row.said_verdict), row.order ? el("div", { cls: "meta", text: "stated " + ordinal(row.order) + (row.how ? ", by " + row.how : "") }) : null]),
        el("td", null, [elements(row.elements)]),
        el("td", { text: where })
      ]);
      tr.addEventListener("click", function () { activate(ids, tr, rowsById.pre); });
      tbody.appendChild(tr);
    });
    var table = el("table", { cls: "align" }, [
      el("thead", null, [el("tr", null, [
        el("th", { cls: "num", text: "#" }), el("th", { text: "gate" }), el("th", { text: "gold" }),
        el("th", { text: "response" }), el("th", { text: "required elements (found / missing)" }), el("th", { text: "text" })
      ])]),
      tbody
    ]);
    box.appendChild(table);
    var final = el("p", { cls: "meta" }, ["Final verdict \u2014 gold: ", verdictText(t.final_gold), ", response: ", verdictText(t.final_said)]);
    if (t.final_span) {
      var id = "t" + ti + "final";
      spans.push({ kind: "final", start: t.final_span[0], end: t.final_span[1], id: id, label: "final verdict" });
      final.addEventListener("click", function () { activate([id], null, rowsById.pre); });
      final.style.cursor = "pointer";
    }
    if (t.final_gold !== null && t.final_said !== t.final_gold) { final.className = "meta warn"; }
    box.appendChild(final);
    return box;
  }

  function verdictText(v) { return el("strong", { text: v === null || v === undefined ? "none stated" : v }); }
  function ordinal(n) { return n + (n % 10 === 1 && n % 100 !== 11 ? "st" : n % 10 === 2 && n % 100 !== 12 ? "nd" : n % 10 === 3 && n % 100 !== 13 ? "rd" : "th"); }

  function select(r) {
    selected = r;
    Array.prototype.forEach.call(listBody.querySelectorAll("tr"), function (tr) {
      tr.classList.toggle("selected", tr.getAttribute("data-key") === r.key);
    });
    while (detail.firstChild) { detail.removeChild(detail.firstChild); }
    detail.appendChild(el("h3", { text: (r.item_id || "?") + " \u2014 " + (r.model || "?") + (r.condition ? " (condition " + r.condition + ")" : "") }));
    var meta = "record " + (r.line === null ? "?" : r.line) + " of responses.jsonl" + (r.source ? " (answer read from " + r.source + ")" : "") + (r.layer ? " \u00b7 layer " + r.layer : "") + " \u00b7 " + (r.outcome || r.status);
    if (r.corruptions.length) { meta += " \u00b7 synthetic corruptions: " + r.corruptions.join(", "); }
    detail.appendChild(el("p", { cls: "meta", text: meta }));
    if (r.reason) { detail.appendChild(el("p", { cls: "warn", text: r.reason })); }
    var chips = el("div", { cls: "chips" });
    var why = r.why || {};
    metricNames.forEach(function (name) {
      if (r.metrics[name] === null || r.metrics[name] === undefined) { return; }
      var chip = el("span", { text: name + " " + fmt(r.metrics[name]) });
      if (why[name]) { chip.setAttribute("title", why[name]); }
      chips.appendChild(chip);
    });
    Object.keys(r.flags).forEach(function (fm) {
      if (r.flags[fm]) { chips.appendChild(el("span", { cls: "fired", text: fm + " fired" })); }
    });
    detail.appendChild(chips);
    detail.appendChild(el("h4", { text: "Question" }));
    detail.appendChild(r.question === null || r.question === undefined
      ? el("p", { cls: "warn", text: "The item's question is not available (the items file was not found)." })
      : el("pre", { cls: "text question", text: r.question }));
    var prompt = el("div", { cls: "prompt", id: "drill-prompt" });
    prompt.appendChild(el("h4", { text: "Prompt (the messages sent)" }));
    if (r.messages && r.messages.length) {
      r.messages.forEach(function (m) {
        prompt.appendChild(el("p", { cls: "meta role", text: m.role }));
        prompt.appendChild(el("pre", { cls: "text message", "data-role": m.role, text: m.content }));
      });
    } else {
      prompt.appendChild(el("p", { cls: "warn", text: "\u2014 " + (r.messages_note || "no prompt recorded") }));
    }
    detail.appendChild(prompt);
    var whyNames = Object.keys(why);
    if (whyNames.length) {
      var list = el("ul", { cls: "why", id: "drill-why" });
      whyNames.sort().forEach(function (name) {
        list.appendChild(el("li", null, [el("strong", { text: name + ": " }), why[name]]));
      });
      detail.appendChild(el("h4", { text: "Why these values" }));
      detail.appendChild(list);
    }
    var spans = [];
    var holder = { pre: null };
    r.targets.forEach(function (t, ti) { detail.appendChild(renderTarget(r, t, ti, spans, holder)); });
    detail.appendChild(el("h4", { text: "Response (the transcript, extractions marked)" }));
    if (r.text === null) {
      detail.appendChild(el("p", { cls: "warn", text: r.text_note || "The response text is not available." }));
    } else {
      if (r.text_note) { detail.appendChild(el("p", { cls: "warn", text: r.text_note })); }
      holder.pre = highlighted(r.text, spans);
      detail.appendChild(holder.pre);
    }
  }

  renderList();
  var firstMismatch = responses.filter(function (r) { return r.status === "scored" && hasMismatch(r); })[0];
  if (firstMismatch || responses.length) { select(firstMismatch || responses[0]); }
  document.documentElement.setAttribute("data-drill-ready", String(responses.length));
})();
