// The role pages' actions and the links that need the site's own address. Every catalog value
// stays text: nothing here writes markup.
(function () {
  "use strict";

  // --- Copy buttons: the exact text, which the page carries as JSON (a <pre>'s text would lose
  // a leading newline and any carriage return). The button says "Copied" for two seconds, at
  // its own width (both labels share one grid cell), and a status line tells screen readers.

  function fallbackCopy(text) {
    // Pages served over plain http from another host are not a secure context: no Clipboard API.
    var area = document.createElement("textarea");
    area.value = text;
    area.setAttribute("readonly", "");
    area.style.position = "fixed";
    area.style.opacity = "0";
    document.body.appendChild(area);
    area.select();
    var ok = document.execCommand("copy");
    document.body.removeChild(area);
    return ok ? Promise.resolve() : Promise.reject(new Error("copy refused"));
  }

  document.addEventListener("click", function (event) {
    var button = event.target.closest ? event.target.closest("[data-rolecat-copy]") : null;
    if (!button) return;
    var source = document.getElementById(button.getAttribute("data-rolecat-copy"));
    if (!source) return;
    // The instructions come as JSON; a command is the text of its <code>, as shown.
    var text = source.tagName === "SCRIPT" ? JSON.parse(source.textContent) : source.textContent;
    var copy = navigator.clipboard && window.isSecureContext
      ? navigator.clipboard.writeText(text)
      : fallbackCopy(text);
    copy.then(function () {
      button.setAttribute("data-rolecat-copied", "");
      var status = document.querySelector("[data-rolecat-status]");
      if (status) status.textContent = status.getAttribute("data-copied") || "";
      clearTimeout(button.rolecatTimer);
      button.rolecatTimer = setTimeout(function () {
        button.removeAttribute("data-rolecat-copied");
        if (status) status.textContent = "";
      }, 2000);
    }, function () {
      button.setAttribute("data-rolecat-copy-failed", "");
    });
  });

  // --- The action bar: one panel open at a time; Escape, or a click elsewhere, closes it and
  // gives the focus back to its button.
  var actions = Array.prototype.slice.call(document.querySelectorAll("details.rolecat-action"));
  actions.forEach(function (details) {
    details.addEventListener("toggle", function () {
      if (!details.open) return;
      actions.forEach(function (other) { if (other !== details) other.open = false; });
    });
  });
  document.addEventListener("keydown", function (event) {
    if (event.key !== "Escape") return;
    actions.forEach(function (details) {
      if (!details.open) return;
      details.open = false;
      details.querySelector("summary").focus();
    });
  });
  document.addEventListener("click", function (event) {
    actions.forEach(function (details) {
      if (details.open && !details.contains(event.target)) details.open = false;
    });
  });

  // --- Links that need the site's address, where the build did not know it (no site_url):
  // completed from the address the page is served at.
  function absolute(relative) {
    return new URL(relative, document.baseURI).href;
  }
  function shellQuoted(text) {  // as Python's shlex.quote, for a command to paste
    return /^[\w@%+=:,.\/-]+$/.test(text) ? text : "'" + text.replace(/'/g, "'\"'\"'") + "'";
  }
  document.querySelectorAll("[data-rolecat-absolute]").forEach(function (node) {
    var url = absolute(node.getAttribute("data-rolecat-absolute"));
    if (node.hasAttribute("data-rolecat-shell")) url = shellQuoted(url.replace(/\/+$/, ""));
    node.textContent = url;
  });
  document.querySelectorAll("a.rolecat-url code").forEach(function (code) {
    if (!/^[a-z]+:/.test(code.textContent)) code.textContent = code.parentNode.href;
  });
  var vscode = "https://vscode.dev/redirect?url=";
  document.querySelectorAll("a[data-rolecat-vscode]").forEach(function (link) {
    var agent = absolute(link.getAttribute("data-rolecat-vscode"));
    var inner = "vscode:chat-agent/install?url=" + encodeURIComponent(agent);
    link.href = vscode + encodeURIComponent(inner);
  });
  document.querySelectorAll("a.rolecat-js-only[data-rolecat-chat-base]").forEach(function (link) {
    var text = absolute(link.getAttribute("data-rolecat-text"));
    var prompt = link.getAttribute("data-rolecat-prompt").replace("%(url)s", text);
    link.href = link.getAttribute("data-rolecat-chat-base") + encodeURIComponent(prompt);
  });

  // --- Buttons that open the header's search (the home and 404 pages).
  var search = document.getElementById("__search");
  document.querySelectorAll("[data-rolecat-search-open]").forEach(function (button) {
    if (!search) {
      button.hidden = true;
      return;
    }
    button.addEventListener("click", function () {
      var input = document.querySelector(".md-search__input");
      search.checked = true;
      search.dispatchEvent(new Event("change"));
      if (input) input.focus();
    });
  });

  // --- The 404 page speaks the language of the address asked for (its first folder), else
  // the reader's browser's, else the site's root language.
  var missing = document.querySelector("[data-rolecat-404]");
  if (missing) {
    var sections = Array.prototype.slice.call(missing.querySelectorAll("[data-rolecat-404-language]"));
    var codes = sections.map(function (section) { return section.getAttribute("data-rolecat-404-language"); });
    var root = new URL(missing.getAttribute("data-root"), document.baseURI).pathname;
    var path = location.pathname.indexOf(root) === 0 ? location.pathname.slice(root.length) : "";
    var wanted = [path.split("/")[0]].concat(
      (navigator.languages || []).map(function (code) { return code.toLowerCase(); }),
      (navigator.languages || []).map(function (code) { return code.toLowerCase().split("-")[0]; })
    );
    var chosen = wanted.filter(function (code) { return codes.indexOf(code) !== -1; })[0];
    if (chosen) {
      sections.forEach(function (section) {
        section.hidden = section.getAttribute("data-rolecat-404-language") !== chosen;
      });
      document.documentElement.lang = chosen;
      // Its search looks in that language's index (rolecat-search.js reads this after us).
      var box = document.querySelector("[data-rolecat-search]");
      if (box) {
        var bundle = box.getAttribute("data-bundle").replace(/[^/]+\/$/, chosen + "/");
        box.setAttribute("data-bundle", bundle);
      }
    }
  }
})();
