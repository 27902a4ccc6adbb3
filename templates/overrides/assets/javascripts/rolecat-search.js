// The header's search: Pagefind's bundle of the page's language (/pagefind/<lang>/), queried as
// you type, results in Material's search panel. Pagefind's script and the index load while the
// page is idle; a query then fetches only the index chunks of its words and the fragments of the
// results it shows. A large language's index comes in parts (site_plugins/search.py), listed in
// the bundle's rolecat-parts.json: they are merged into one, so a query searches them all.
(function () {
  "use strict";

  var PAGE = 10;
  var box = document.querySelector("[data-rolecat-search]");
  if (!box) return;
  var input = box.querySelector(".md-search__input");
  var form = box.querySelector(".md-search__form");
  var meta = box.querySelector(".md-search-result__meta");
  var list = box.querySelector(".md-search-result__list");
  var more = box.querySelector(".rolecat-search-more");
  var toggle = document.getElementById("__search");
  var bundle = new URL(box.getAttribute("data-bundle"), document.baseURI).href;
  var root = new URL(box.getAttribute("data-root"), document.baseURI).pathname;

  var OPTIONS = { baseUrl: root, excerptLength: 24 };
  var pagefind = null;
  function load() {
    if (!pagefind) {
      var parts = fetch(bundle + "rolecat-parts.json").then(function (response) {
        if (!response.ok) throw new Error("no list of the index's parts");
        return response.json();
      });
      pagefind = import(bundle + "pagefind.js").then(function (module) {
        return module.options(OPTIONS).then(function () {
          return module.init();
        }).then(function () {
          return parts;
        }).then(function (list) {
          return Promise.all(list.parts.map(function (part) {
            return module.mergeIndex(new URL(part, bundle).href, OPTIONS);
          }));
        }).then(function () {
          return module;
        });
      });
    }
    return pagefind;
  }

  function say(key, count) {
    meta.textContent = (box.getAttribute("data-" + key) || "").replace("#", String(count));
  }

  // Pagefind's excerpts are HTML with <mark> around the matched words. Only the text and the
  // marks are kept: catalog text never becomes markup (an inert document runs nothing).
  function excerpt(html) {
    var out = document.createElement("p");
    out.className = "md-search-result__teaser";
    var parsed = new DOMParser().parseFromString("<body>" + html, "text/html").body;
    parsed.childNodes.forEach(function (node) {
      if (node.nodeName === "MARK") {
        var mark = document.createElement("mark");
        mark.textContent = node.textContent;
        out.appendChild(mark);
      } else {
        out.appendChild(document.createTextNode(node.textContent));
      }
    });
    return out;
  }

  function item(data) {
    var li = document.createElement("li");
    li.className = "md-search-result__item";
    var link = document.createElement("a");
    link.className = "md-search-result__link";
    link.href = data.url;
    var article = document.createElement("article");
    article.className = "md-search-result__article md-typeset";
    var title = document.createElement("h1");
    title.textContent = (data.meta && data.meta.title) || data.url;
    article.appendChild(title);
    if (data.meta && data.meta.bundle) {  // a role names its bundle (role.html's breadcrumb)
      var bundleName = document.createElement("span");
      bundleName.className = "rolecat-search-bundle";
      bundleName.textContent = data.meta.bundle;
      title.appendChild(bundleName);
    }
    article.appendChild(excerpt(data.excerpt || ""));
    link.appendChild(article);
    li.appendChild(link);
    return li;
  }

  // One query runs at a time: keys typed meanwhile are searched together once it is done, so
  // fast typing never queues a search per letter. Results appear one by one, in rank order, as
  // their fragments arrive.
  var found = [];
  var shown = 0;
  var searched = null;
  var running = false;

  function showMore() {
    var query = searched;
    var slots = found.slice(shown, shown + PAGE);
    slots.forEach(function (result) {
      var slot = document.createElement("li");
      slot.hidden = true;
      list.appendChild(slot);
      result.data().then(function (data) {
        if (query === searched && slot.parentNode === list) list.replaceChild(item(data), slot);
      }, function () {
        slot.remove();
      });
    });
    shown += slots.length;
    more.hidden = shown >= found.length;
  }

  function run() {
    if (running) return;
    var query = input.value.trim();
    if (query === searched) return;
    if (!query) {
      searched = query;
      found = [];
      list.textContent = "";
      more.hidden = true;
      say("placeholder");
      return;
    }
    running = true;
    load().then(function (module) {
      return module.search(query);
    }).then(function (search) {
      if (query !== input.value.trim()) return;  // typed on: search that instead
      searched = query;
      found = search.results;
      shown = 0;
      list.textContent = "";
      say(found.length === 0 ? "none" : found.length === 1 ? "one" : "other", found.length);
      showMore();
    }).catch(function () {
      searched = query;
      found = [];
      list.textContent = "";
      say("unavailable");
    }).then(function () {
      running = false;
      if (input.value.trim() !== searched) run();
    });
  }

  function open() {
    if (!toggle.checked) {
      toggle.checked = true;
      toggle.dispatchEvent(new Event("change"));
    }
  }

  function close() {
    if (toggle.checked) {
      toggle.checked = false;
      toggle.dispatchEvent(new Event("change"));
    }
    input.blur();
  }

  function links() {
    return Array.prototype.slice.call(list.querySelectorAll(".md-search-result__link"));
  }

  input.addEventListener("input", run);
  input.addEventListener("focus", function () { open(); load(); });
  // Focus leaving the search (Tab past its last result, or a click elsewhere) closes it, so no
  // overlay is left dimming the page.
  box.addEventListener("focusout", function (event) {
    if (toggle.checked && !(event.relatedTarget && box.contains(event.relatedTarget))) {
      setTimeout(function () {
        if (!box.contains(document.activeElement)) close();
      });
    }
  });
  form.addEventListener("submit", function (event) { event.preventDefault(); });
  form.addEventListener("reset", function () { setTimeout(run); input.focus(); });
  more.addEventListener("click", showMore);
  // A closed search's results are inert: out of the Tab order and of what screen readers read.
  var output = box.querySelector(".md-search__output");
  function settle() {
    if (output) output.inert = !toggle.checked;
  }
  toggle.addEventListener("change", function () {
    settle();
    if (toggle.checked) input.focus();
  });
  settle();

  box.addEventListener("keydown", function (event) {
    var all = links();
    var at = all.indexOf(document.activeElement);
    if (event.key === "Escape") {
      event.preventDefault();
      close();
    } else if (event.key === "ArrowDown" && all.length) {
      event.preventDefault();
      all[Math.min(at + 1, all.length - 1)].focus();
    } else if (event.key === "ArrowUp" && at >= 0) {
      event.preventDefault();
      if (at === 0) input.focus(); else all[at - 1].focus();
    } else if (event.key === "Enter" && document.activeElement === input && all.length) {
      event.preventDefault();
      all[0].click();
    }
  });

  // "/", "s" or "f" anywhere else opens the search, as on Material's own search; Escape closes
  // it wherever the focus is.
  document.addEventListener("keydown", function (event) {
    var target = event.target;
    if (event.key === "Escape" && toggle.checked) {
      close();
      return;
    }
    if (event.ctrlKey || event.metaKey || event.altKey || target === input) return;
    if (target.isContentEditable || /^(INPUT|TEXTAREA|SELECT)$/.test(target.tagName)) return;
    if (event.key === "/" || event.key === "s" || event.key === "f") {
      event.preventDefault();
      open();
      input.focus();
    }
  });

  // Warm up when a reader is about to search (a pointer over the search or a key into it), not
  // at every page load: the script, the language's index metadata and its WebAssembly are
  // bytes and main-thread time a reader who never searches would pay for.
  var label = document.querySelector('label[for="__search"]');
  [box, label].forEach(function (node) {
    if (node) node.addEventListener("pointerenter", function () { load(); }, { once: true });
  });

  // The galleries' filter asks the index for the pages whose text holds every word of a query
  // (rolecat-filter.js): their paths, at most MAX of them.
  var MAX = 500;
  window.rolecatSearch = function (query) {
    return load().then(function (module) {
      return module.search(query);
    }).then(function (search) {
      return Promise.all(search.results.slice(0, MAX).map(function (result) {
        return result.data().then(function (data) {
          return new URL(data.url, document.baseURI).pathname;
        });
      }));
    });
  };
})();
