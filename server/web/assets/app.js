// The script of the debate pages. It never inserts text as HTML: argument
// bodies are inserted only as the HTML the server rendered with its safe
// Markdown renderer; everything else is set as text.
(function () {
  'use strict';

  // The token never appears in a page or its links: the server exchanges
  // the token query parameter of an address for the session cookie, which
  // the page's own requests (fetch, EventSource, WebSocket) carry.

  // linkDocs turns the mentions of the given document ids in root's text
  // into links to the documents' pages (text nodes only, never markup).
  function linkDocs(root, ids) {
    if (!ids || !ids.length) return;
    var walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
    var texts = [];
    for (var n = walker.nextNode(); n; n = walker.nextNode()) {
      if (!n.parentElement || !n.parentElement.closest('a')) texts.push(n);
    }
    texts.forEach(function (t) {
      var s = t.nodeValue, parts = [], last = 0;
      for (;;) {
        var best = -1, bestID = '';
        ids.forEach(function (id) {
          var i = s.indexOf(id, last);
          if (i >= 0 && (best < 0 || i < best)) { best = i; bestID = id; }
        });
        if (best < 0) break;
        if (best > last) parts.push(document.createTextNode(s.slice(last, best)));
        var a = el('a', 'doc-link', bestID);
        a.href = '/documents/' + encodeURIComponent(bestID);
        a.title = 'Open the document';
        parts.push(a);
        last = best + bestID.length;
      }
      if (!parts.length) return;
      if (last < s.length) parts.push(document.createTextNode(s.slice(last)));
      t.replaceWith.apply(t, parts);
    });
  }

  function parseTime(s) {
    // The wire's microseconds are trimmed to what Date reads everywhere.
    var d = new Date(String(s).replace(/(\.\d{3})\d*Z$/, '$1Z'));
    return isNaN(d.getTime()) ? null : d;
  }

  function localTimes(root) {
    root.querySelectorAll('time[datetime]').forEach(function (t) {
      var d = parseTime(t.getAttribute('datetime'));
      if (!d) return;
      t.title = t.getAttribute('datetime');
      t.textContent = d.toLocaleString();
    });
  }

  function el(tag, cls, text) {
    var e = document.createElement(tag);
    if (cls) e.className = cls;
    if (text !== undefined) e.textContent = text;
    return e;
  }

  function classFor(prefix, v) {
    return prefix + String(v).toLowerCase().replace(/[^a-z0-9_]/g, '-');
  }

  function listPage() {
    function wireFilter() {
      var select = document.getElementById('state');
      if (select && select.form) {
        select.addEventListener('change', function () { select.form.submit(); });
      }
    }
    wireFilter();
    if (!window.EventSource) return;
    var status = document.getElementById('ui-list-live');
    var baseTitle = document.title.replace(/^\(\d+\) /, '');
    var loading = false, again = false;
    var shown = null; // the list's HTML as the server last sent it

    // refresh loads this same page again and swaps in its list: the HTML
    // is the server's own template output.
    function refresh() {
      if (loading) { again = true; return; }
      loading = true;
      again = false;
      var headers = { Accept: 'text/html' };
      fetch(location.pathname + location.search, { headers: headers, cache: 'no-store', credentials: 'same-origin' })
        .then(function (r) { return r.ok ? r.text() : null; })
        .then(function (html) {
          if (!html) return;
          var fresh = new DOMParser().parseFromString(html, 'text/html').getElementById('ui-list');
          var list = document.getElementById('ui-list');
          if (!fresh || !list) return;
          // Unchanged: keep the page as it is (focus, selection).
          if (fresh.outerHTML === shown) return;
          shown = fresh.outerHTML;
          list.replaceWith(document.adoptNode(fresh));
          localTimes(fresh);
          wireFilter();
        })
        .catch(function () { /* the next change tries again */ })
        .then(function () {
          loading = false;
          if (again) refresh();
        });
    }

    var first = true;
    var es = new EventSource('/ui/events');
    es.addEventListener('change', function (ev) {
      var d;
      try { d = JSON.parse(ev.data); } catch (e) { return; }
      document.title = (d.needs > 0 ? '(' + d.needs + ') ' : '') + baseTitle;
      status.textContent = 'This list updates itself.';
      // The first event only confirms what the page already shows.
      if (first) { first = false; return; }
      refresh();
    });
    es.onerror = function () {
      status.textContent = 'Live updates paused: reconnecting…';
      first = false;
    };
  }

  function debatePage() {
    var data = JSON.parse(document.getElementById('ui-data').textContent);
    var debateID = data.debate.id;
    var states = data.states || {};
    // Element references are taken before any argument is inserted.
    var ui = {
      state: document.getElementById('ui-state'),
      awaited: document.getElementById('ui-awaited'),
      conn: document.getElementById('ui-conn'),
      content: document.getElementById('ui-content'),
      intervene: document.getElementById('ui-intervene'),
      ruling: document.getElementById('ui-ruling'),
      close: document.getElementById('ui-close'),
      hint: document.getElementById('ui-hint'),
      error: document.getElementById('ui-error'),
      notice: document.getElementById('ui-notice'),
      tree: document.getElementById('ui-tree'),
      count: document.getElementById('ui-count'),
      live: document.getElementById('ui-live'),
      controls: document.getElementById('ui-controls'),
      home: document.getElementById('ui-controls-home'),
      heading: document.getElementById('ui-controls-h'),
      label: document.getElementById('ui-content-label'),
      quote: document.getElementById('ui-quote'),
      confirm: document.getElementById('ui-confirm'),
      confirmYes: document.getElementById('ui-confirm-yes'),
      confirmNo: document.getElementById('ui-confirm-no')
    };

    var state = data.debate.state;
    var nodes = {};        // argument id -> {li, kids, body}
    var count = 0;
    var rendered = 0;      // highest seq whose HTML was fetched
    var fetching = false, fetchAgain = false;
    var ws = null, live = false, attempt = 0, retryTimer = null;
    var nextMessage = 1;
    var pending = null;    // the submission awaiting its answer
    var newest = null;     // the newest argument: {id, seq, type, role, content}
    var recordedSeq = 0;   // seq of the last submission this page recorded
    var unanswered = null; // a submission whose socket dropped before the answer

    function setConn(text, on) {
      ui.conn.textContent = text;
      ui.conn.className = 'conn ' + (on ? 'conn-on' : 'conn-off');
    }

    function setState(s) {
      state = s;
      ui.state.textContent = s;
      ui.state.className = 'state ' + classFor('state-', s);
      var info = states[s] || {};
      ui.awaited.textContent = info.awaited || '—';
      updateControls();
    }

    function arbitratorMay(type) {
      var info = states[state] || {};
      return (info.arbitrator || []).indexOf(type) >= 0;
    }

    function updateControls() {
      var ready = live && !pending;
      var canIntervene = arbitratorMay('INTERVENTION');
      var canRule = arbitratorMay('RULING');
      ui.intervene.disabled = !(ready && canIntervene);
      ui.ruling.disabled = !(ready && canRule);
      ui.close.disabled = !(ready && canRule);
      var hint;
      if (!live) hint = 'Not connected: the controls come back when the page reconnects.';
      else if (pending) hint = 'Sending…';
      else if (state === 'CLOSED') hint = 'The debate is closed: nothing more can be submitted.';
      else if (canRule) hint = 'A ruling is due. Tick “Close the debate” to end it with this ruling.';
      else if (canIntervene) hint = 'The floor is open. Intervene to stop it; a ruling follows.';
      else hint = '';
      ui.hint.textContent = hint;
      // A closed debate keeps the section for its notice and hint, not a
      // form nobody can use.
      ui.controls.classList.toggle('closed', state === 'CLOSED');
      if (!(ready && canRule)) ui.confirm.hidden = true;
      placeControls(canRule);
    }

    // placeControls puts the arbitrator's form beside the APPEAL,
    // RESOLUTION or INTERVENTION a ruling answers, quoting it; otherwise
    // back under the status.
    function placeControls(canRule) {
      var n = newest && nodes[newest.id];
      if (canRule && n && newest.type !== 'CLAIM' && newest.type !== 'MOTION' && newest.type !== 'RULING') {
        if (ui.controls.parentNode !== n.li) n.li.insertBefore(ui.controls, n.kids);
        ui.heading.textContent = 'Your ruling on ' + newest.type + ' #' + newest.seq;
        ui.label.textContent = 'Text of your ruling (Markdown)';
        ui.quote.replaceChildren();
        ui.quote.appendChild(el('cite', '', newest.type + ' #' + newest.seq + ' by ' + newest.role + ':'));
        if (n.body.classList.contains('plain')) {
          ui.quote.appendChild(el('div', 'quote-body plain', newest.content || '(no text)'));
        } else {
          // A copy of the argument's body, which is the server's safe HTML.
          var copy = n.body.cloneNode(true);
          copy.className = 'quote-body';
          ui.quote.appendChild(copy);
        }
        ui.quote.hidden = false;
        return;
      }
      if (ui.controls.previousElementSibling !== ui.home) ui.home.after(ui.controls);
      ui.heading.textContent = 'Arbitrator';
      ui.label.textContent = 'Text of your intervention or ruling (Markdown)';
      ui.quote.hidden = true;
    }

    function showError(err) {
      err = err || {};
      ui.error.replaceChildren();
      var head = el('p');
      head.appendChild(el('strong', '', 'Refused' + (err.code ? ' (' + err.code + ')' : '') + ': '));
      head.appendChild(document.createTextNode(err.message || 'the server refused the request'));
      ui.error.appendChild(head);
      if (err.suggestion) ui.error.appendChild(el('p', 'suggestion', err.suggestion));
      if (err.current_state) ui.error.appendChild(el('p', 'meta', 'Current state: ' + err.current_state));
      ui.error.hidden = false;
    }

    // showProblem explains, before anything is sent, why it is not sent.
    function showProblem(text) {
      ui.error.replaceChildren(el('p', '', text));
      ui.error.hidden = false;
    }

    function hideError() {
      ui.error.hidden = true;
      ui.error.replaceChildren();
    }

    function addArgument(a, html, fresh, docs) {
      var n = nodes[a.id];
      if (!n) {
        var li = el('li', 'arg ' + classFor('arg-', a.type));
        li.id = 'arg-' + a.seq;
        var article = el('article');
        var header = el('header');
        var headID = 'arg-h-' + a.seq;
        header.id = headID;
        article.setAttribute('aria-labelledby', headID);
        header.appendChild(el('span', 'seq', '#' + a.seq));
        header.appendChild(el('span', 'type', a.type));
        header.appendChild(el('span', 'role', a.role));
        var t = el('time');
        var d = parseTime(a.created_at);
        t.setAttribute('datetime', a.created_at);
        t.title = a.created_at;
        t.textContent = d ? d.toLocaleString() : a.created_at;
        header.appendChild(t);
        var parent = a.parent_id ? nodes[a.parent_id] : null;
        if (parent) header.appendChild(el('span', 'reply', '↳ reply to ' + parent.label));
        var body = el('div', 'body plain', a.content || '');
        article.appendChild(header);
        article.appendChild(body);
        var kids = el('ol', 'kids');
        li.appendChild(article);
        li.appendChild(kids);
        n = nodes[a.id] = { li: li, kids: kids, body: body, label: '#' + a.seq };
        (parent ? parent.kids : ui.tree).appendChild(li);
        count++;
        ui.count.textContent = '(' + count + ')';
        if (fresh) {
          li.classList.add('fresh');
          ui.live.textContent = 'New argument #' + a.seq + ': ' + a.type + ' by ' + a.role;
        }
        if (!newest || a.seq > newest.seq) {
          newest = { id: a.id, seq: a.seq, type: a.type, role: a.role, content: a.content };
        }
      }
      if (typeof html === 'string') {
        // html comes from the server's safe Markdown renderer.
        n.body.innerHTML = html;
        n.body.classList.remove('plain');
        linkDocs(n.body, docs);
        if (newest && newest.id === a.id) updateControls();
      } else {
        loadHTML();
      }
    }

    function loadHTML() {
      if (fetching) { fetchAgain = true; return; }
      fetching = true;
      fetchAgain = false;
      var headers = {};
      fetch('/ui/debates/' + encodeURIComponent(debateID) + '/arguments?after=' + rendered,
        { headers: headers, cache: 'no-store', credentials: 'same-origin' })
        .then(function (r) { return r.json(); })
        .then(function (env) {
          if (!env || !env.success) return;
          env.data.arguments.forEach(function (a) {
            addArgument(a, a.html, false, a.docs);
            if (a.seq > rendered) rendered = a.seq;
          });
        })
        .catch(function () { /* bodies stay plain text until the next try */ })
        .then(function () {
          fetching = false;
          if (fetchAgain) loadHTML();
        });
    }

    function handle(f) {
      var type = f.type || f.event;
      var d = f.data || {};
      switch (type) {
        case 'initial_state':
          attempt = 0;
          // After a reconnection, what was missed is new.
          var again = count > 0;
          (d.arguments || []).forEach(function (a) { addArgument(a, undefined, again && !nodes[a.id]); });
          live = true;
          setConn('live', true);
          setState(d.debate.state);
          break;
        case 'new_argument':
          // What this page said about its last submission is stale once
          // someone else has written after it.
          if (d.argument.seq > recordedSeq && !pending) {
            ui.notice.textContent = '';
            hideError();
          }
          addArgument(d.argument, undefined, !nodes[d.argument.id]);
          setState(d.debate.state);
          break;
        case 'submitted':
          if (pending && f.id === pending.id) {
            var a = d.argument || {};
            ui.notice.textContent = (a.type ? a.type.charAt(0) + a.type.slice(1).toLowerCase() : 'Submission') +
              ' recorded as #' + a.seq + (d.replay ? ' (already recorded before)' : '') + '.';
            recordedSeq = a.seq || 0;
            ui.content.value = '';
            ui.close.checked = false;
            pending = null;
            updateControls();
          }
          break;
        case 'error':
          if (pending && f.id === pending.id) {
            pending = null;
            updateControls();
          }
          ui.notice.textContent = '';
          showError(f.error);
          break;
      }
    }

    function randomID() {
      var b = new Uint8Array(16);
      crypto.getRandomValues(b);
      return 'web-' + Array.prototype.map.call(b, function (x) { return (x + 256).toString(16).slice(1); }).join('');
    }

    function submit(kind, confirmed) {
      if (!ws || !live || pending) return;
      var content = ui.content.value;
      var close = kind === 'submit_ruling' && ui.close.checked;
      ui.notice.textContent = '';
      if (kind === 'submit_ruling' && !content.trim()) {
        showProblem('Write the ruling first: a ruling needs its text (the parties align to it).');
        ui.content.focus();
        return;
      }
      if (close && !confirmed) {
        hideError();
        ui.confirm.hidden = false;
        ui.confirmYes.focus();
        return;
      }
      ui.confirm.hidden = true;
      // Sending the same thing again after a dropped connection reuses its
      // client_request_id, so the server records it once.
      var same = unanswered && unanswered.kind === kind && unanswered.content === content && unanswered.close === close;
      var crid = same ? unanswered.crid : randomID();
      unanswered = null;
      pending = { id: String(nextMessage++), kind: kind, content: content, close: close, crid: crid };
      var payload = { debate_id: debateID, content: content, client_request_id: crid };
      if (kind === 'submit_ruling') payload.close = close;
      hideError();
      ui.notice.textContent = '';
      try {
        ws.send(JSON.stringify({ type: kind, event: kind, id: pending.id, data: payload }));
      } catch (e) {
        unanswered = pending;
        pending = null;
      }
      updateControls();
    }

    function connect() {
      retryTimer = null;
      setConn('connecting…', false);
      var url = (location.protocol === 'https:' ? 'wss://' : 'ws://') + location.host +
        '/ws?debate_id=' + encodeURIComponent(debateID);
      try {
        ws = new WebSocket(url);
      } catch (e) {
        ws = null;
        reconnectLater();
        return;
      }
      ws.onmessage = function (ev) {
        var f;
        try { f = JSON.parse(ev.data); } catch (e) { return; }
        handle(f);
      };
      ws.onclose = function () {
        ws = null;
        live = false;
        if (pending) { unanswered = pending; pending = null; }
        updateControls();
        reconnectLater();
      };
    }

    function reconnectLater() {
      if (retryTimer) return;
      var delay = Math.min(30000, 500 * Math.pow(2, attempt)) * (0.75 + Math.random() * 0.5);
      attempt = Math.min(attempt + 1, 10);
      setConn('disconnected, retrying in ' + Math.max(1, Math.round(delay / 1000)) + ' s', false);
      retryTimer = setTimeout(connect, delay);
    }

    function reconnectNow() {
      if (ws || !retryTimer) return;
      clearTimeout(retryTimer);
      attempt = 0;
      connect();
    }

    ui.intervene.addEventListener('click', function () { submit('submit_intervention'); });
    ui.ruling.addEventListener('click', function () { submit('submit_ruling'); });
    ui.confirmYes.addEventListener('click', function () { submit('submit_ruling', true); });
    ui.confirmNo.addEventListener('click', function () { ui.confirm.hidden = true; ui.ruling.focus(); });
    ui.close.addEventListener('change', function () { if (!ui.close.checked) ui.confirm.hidden = true; });
    ui.content.addEventListener('input', function () { ui.notice.textContent = ''; });
    window.addEventListener('online', reconnectNow);
    document.addEventListener('visibilitychange', function () {
      if (document.visibilityState === 'visible') reconnectNow();
    });
    setState(state);
    connect();
  }

  // The token page sends the typed token to the server, which keeps it in a
  // cookie for this browser session; the page asked for is then reloaded.
  function tokenPage() {
    var form = document.getElementById('ui-token-form');
    var input = document.getElementById('ui-token');
    var error = document.getElementById('ui-token-error');
    form.addEventListener('submit', function (ev) {
      ev.preventDefault();
      error.hidden = true;
      fetch('/session', {
        method: 'POST', credentials: 'same-origin', cache: 'no-store',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ token: input.value })
      }).then(function (r) { return r.json(); }).then(function (env) {
        if (env && env.success) { location.reload(); return; }
        error.textContent = (env && env.error && env.error.message) || 'The server refused the token.';
        error.hidden = false;
        input.select();
      }).catch(function () {
        error.textContent = 'The server cannot be reached.';
        error.hidden = false;
      });
    });
  }

  localTimes(document);
  var page = document.body.getAttribute('data-page');
  if (page === 'list') listPage();
  if (page === 'debate') debatePage();
  if (page === 'token') tokenPage();
})();
