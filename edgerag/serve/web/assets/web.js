// edgerag's page: streams answers, uploads files and follows their jobs. Plain JavaScript,
// nothing loaded from elsewhere. Every write carries the page's CSRF token (access.py).
(function () {
  "use strict";
  var csrfMeta = document.querySelector('meta[name="csrf-token"]');
  var CSRF = csrfMeta ? csrfMeta.getAttribute("content") : "";

  function el(tag, attrs) {
    var node = document.createElement(tag);
    if (attrs) {
      Object.keys(attrs).forEach(function (k) {
        if (k === "text") node.textContent = attrs[k];
        else if (k === "cls") node.className = attrs[k];
        else node.setAttribute(k, attrs[k]);
      });
    }
    for (var i = 2; i < arguments.length; i++) {
      var c = arguments[i];
      if (c === null || c === undefined) continue;
      node.appendChild(typeof c === "string" ? document.createTextNode(c) : c);
    }
    return node;
  }

  function errorText(body, status) {
    try {
      var j = JSON.parse(body);
      if (j && j.error) return typeof j.error === "string" ? j.error : j.error.message;
    } catch (e) { /* not JSON */ }
    return "the server answered " + status;
  }

  // ---- the index picker ------------------------------------------------------------------
  var pick = document.getElementById("index-pick");
  if (pick) {
    pick.addEventListener("change", function () {
      var url = new URL(window.location.href);
      url.searchParams.set("index", pick.value);
      url.searchParams.delete("plan");
      window.location.assign(url.pathname.indexOf("/why/") === 0 ? "/why?index=" + encodeURIComponent(pick.value) : url.pathname + url.search);
    });
  }

  // ---- Ask -------------------------------------------------------------------------------
  var askSection = document.getElementById("ask");
  if (askSection) initAsk(askSection);

  function initAsk(section) {
    var index = section.getAttribute("data-index");
    var form = document.getElementById("ask-form");
    var box = document.getElementById("question");
    var button = document.getElementById("ask-button");
    var convo = document.getElementById("conversation");
    var storeKey = "edgerag:conversation:" + index;
    var turns = [];
    try { turns = JSON.parse(sessionStorage.getItem(storeKey) || "[]"); } catch (e) { turns = []; }
    turns.forEach(function (t) { convo.appendChild(renderTurn(t.question).finish(t.answer)); });

    function save() {
      try { sessionStorage.setItem(storeKey, JSON.stringify(turns.slice(-12))); } catch (e) { /* private mode */ }
    }

    document.getElementById("new-conversation").addEventListener("click", function () {
      turns = [];
      save();
      convo.textContent = "";
      box.focus();
    });

    box.addEventListener("keydown", function (ev) {
      if (ev.key === "Enter" && !ev.shiftKey) { ev.preventDefault(); form.requestSubmit(); }
    });

    form.addEventListener("submit", function (ev) {
      ev.preventDefault();
      var question = box.value.trim();
      if (!question || button.disabled) return;
      var history = [];
      turns.forEach(function (t) {
        history.push({ role: "user", text: t.question });
        if (t.answer && t.answer.text) history.push({ role: "assistant", text: t.answer.text });
      });
      var view = renderTurn(question);
      convo.appendChild(view.node);
      box.value = "";
      button.disabled = true;
      ask(index, question, history, view).then(function (answer) {
        if (answer) { turns.push({ question: question, answer: answer }); save(); }
      }).finally(function () { button.disabled = false; box.focus(); });
    });
  }

  function renderTurn(question) {
    var plan = el("div", { cls: "plan" });
    var text = el("div", { cls: "a" });
    var after = el("div", { cls: "after" });
    var node = el("div", { cls: "turn" }, el("div", { cls: "q", text: question }), plan, text, after);
    return {
      node: node,
      plan: function (line) { plan.textContent += line; },
      text: function (piece) { text.textContent += piece; },
      error: function (msg) { after.appendChild(el("p", { cls: "error", role: "alert", text: msg })); },
      finish: function (a) {
        if (!a) return node;
        if (a.plan && !plan.textContent) plan.textContent = a.plan;
        if (a.abstained) {
          text.className = "a abstained";
          text.textContent = "";
          text.appendChild(el("b", { cls: "abstained", text: "The documents do not say." }));
          if (a.closest && a.closest.length) {
            var near = el("ul", { cls: "cites" });
            a.closest.forEach(function (c) {
              near.appendChild(el("li", null, el("a", { href: c.url, text: c.title }), c.sentence ? ": " + c.sentence : c.where ? " — " + c.where : ""));
            });
            after.appendChild(el("p", { cls: "small muted", text: "The closest sentences read (not a source):" }));
            after.appendChild(near);
          }
        } else {
          text.textContent = a.text;
          var list = el("ol", { cls: "cites" });
          (a.citations || []).forEach(function (c) {
            list.appendChild(el("li", { value: String(c.n) },
              el("a", { href: c.url, cls: "cite", text: (c.title || c.doc_id) }),
              c.where ? el("span", { cls: "muted", text: " — " + c.where }) : null, " ",
              el("span", { cls: "tag " + c.how, text: c.how })));
          });
          if (list.childNodes.length) after.appendChild(list);
        }
        var u = a.usage || {};
        var first = a.first_token_s !== null && a.first_token_s !== undefined ? ", first word after " + a.first_token_s + " s" : "";
        after.appendChild(el("div", { cls: "meta" },
          (u.prompt || 0) + " prompt + " + (u.completion || 0) + " output tokens · " + a.seconds + " s" + first + " · ",
          el("a", { href: a.why, text: "why" })));
        return node;
      },
    };
  }

  function ask(index, question, history, view) {
    return fetch("/web/ask", {
      method: "POST",
      headers: { "Content-Type": "application/json", "X-CSRF-Token": CSRF },
      body: JSON.stringify({ index: index, question: question, history: history }),
      credentials: "same-origin",
    }).then(function (res) {
      if (!res.ok) return res.text().then(function (body) { view.error(errorText(body, res.status)); return null; });
      var reader = res.body.getReader();
      var decoder = new TextDecoder();
      var buffered = "";
      var answer = null;
      function handle(line) {
        if (!line.trim()) return;
        var ev = JSON.parse(line);
        if (ev.plan !== undefined) view.plan(ev.plan);
        else if (ev.text !== undefined) view.text(ev.text);
        else if (ev.done) { answer = ev.done; view.finish(answer); }
        else if (ev.error) view.error(ev.error);
      }
      function pump() {
        return reader.read().then(function (r) {
          if (r.done) { if (buffered) handle(buffered); return answer; }
          buffered += decoder.decode(r.value, { stream: true });
          var lines = buffered.split("\n");
          buffered = lines.pop();
          lines.forEach(handle);
          return pump();
        });
      }
      return pump();
    }).catch(function (e) { view.error("the answer was cut off: " + e.message); return null; });
  }

  // ---- Documents -------------------------------------------------------------------------
  var docs = document.getElementById("documents");
  if (docs) initDocuments(docs);

  function initDocuments(section) {
    var index = section.getAttribute("data-index");
    var form = document.getElementById("upload-form");
    var input = document.getElementById("files");
    var list = document.getElementById("uploads");
    var pending = 0;

    function finished() {
      pending -= 1;
      if (pending === 0) setTimeout(function () { window.location.reload(); }, 800);
    }

    form.addEventListener("submit", function (ev) {
      ev.preventDefault();
      var files = Array.prototype.slice.call(input.files);
      if (!files.length) return;
      files.forEach(function (f) { pending += 1; upload(index, f, list, finished); });
      input.value = "";
    });

    section.querySelectorAll("button[data-delete]").forEach(function (b) {
      b.addEventListener("click", function () {
        var id = b.getAttribute("data-delete");
        if (!window.confirm("Delete " + b.getAttribute("data-title") + " and every trace of it from " + index + "?")) return;
        b.disabled = true;
        var row = fileRow(list, "delete " + b.getAttribute("data-title"));
        fetch("/edgerag/indexes/" + encodeURIComponent(index) + "/documents/" + encodeURIComponent(id), {
          method: "DELETE", headers: { "X-CSRF-Token": CSRF }, credentials: "same-origin",
        }).then(function (res) {
          return res.text().then(function (body) {
            if (res.status !== 202 && res.status !== 200) { row.fail(errorText(body, res.status)); b.disabled = false; return; }
            pending += 1;
            follow(JSON.parse(body), row, finished);
          });
        });
      });
    });
  }

  function fileRow(list, name) {
    var state = el("span", { cls: "state", text: "sending" });
    var bar = el("progress", { max: "100", value: "0" });
    var note = el("span", { cls: "muted" });
    var extra = el("div");
    var li = el("li", null, state, name, bar, note, extra);
    list.appendChild(li);
    return {
      li: li,
      sent: function (p) { bar.value = p; },
      state: function (s, text, p) {
        state.textContent = s;
        li.className = s;
        note.textContent = text || "";
        if (p !== undefined && p !== null) bar.value = p;
      },
      fail: function (msg) { state.textContent = "failed"; li.className = "failed"; note.textContent = " " + msg; },
      skipped: function (items) {
        var ul = el("ul", { cls: "skipped" });
        items.forEach(function (s) { ul.appendChild(el("li", null, "skipped ", el("b", { text: s.source }), ": " + s.reason)); });
        extra.appendChild(ul);
      },
    };
  }

  function upload(index, file, list, done) {
    var row = fileRow(list, file.name);
    var data = new FormData();
    data.append("files", file, file.name);
    var xhr = new XMLHttpRequest();
    xhr.open("POST", "/edgerag/indexes/" + encodeURIComponent(index) + "/documents");
    xhr.setRequestHeader("X-CSRF-Token", CSRF);
    xhr.upload.onprogress = function (e) { if (e.lengthComputable) row.sent(Math.round((100 * e.loaded) / e.total)); };
    xhr.onload = function () {
      if (xhr.status !== 202 && xhr.status !== 200) { row.fail(errorText(xhr.responseText, xhr.status)); done(); return; }
      follow(JSON.parse(xhr.responseText), row, done);
    };
    xhr.onerror = function () { row.fail("the upload was cut off"); done(); };
    xhr.send(data);
  }

  function follow(job, row, done) {
    var p = job.progress;
    var text = job.state === "queued" ? " sent" + (job.ahead ? "; " + job.ahead + " job(s) ahead" : "") : "";
    var pct = job.state === "done" ? 100 : 0;  // from here the bar is the indexing's progress
    if (p) {
      text = " " + p.desc + " " + p.n + (p.total ? "/" + p.total : "") + " " + (p.unit || "");
      if (p.total) pct = Math.round((100 * p.n) / p.total);
    }
    if (job.state === "done") {
      var r = job.result || {};
      var said = r.docs_added !== undefined
        ? " added " + r.docs_added + " document(s), " + r.chunks + " chunks" + (r.docs_present ? ", " + r.docs_present + " already there" : "")
        : " deleted " + (r.deleted || []).length + " document(s)";
      row.state("done", said, 100);
      if (r.skipped && r.skipped.length) row.skipped(r.skipped);
      done();
      return;
    }
    if (job.state === "failed") { row.fail(job.error || "failed"); done(); return; }
    row.state(job.state, text, pct);
    setTimeout(function () {
      fetch("/edgerag/jobs/" + job.id, { credentials: "same-origin" })
        .then(function (res) { return res.json(); })
        .then(function (j) { follow(j, row, done); })
        .catch(function () { setTimeout(function () { follow(job, row, done); }, 2000); });
    }, 700);
  }
})();
