// Narrows a list of roles in the page, with no server: a form [data-rolecat-filters="<list id>"]
// holds any number of controls [data-rolecat-filter="<key>"], and the list's items
// [data-rolecat-item] carry data-rolecat-<key>. An item stays when every control agrees:
// a text box when the item's value contains each word typed (any case), any other control
// (a select, say) when it is empty or equals the item's value. With the box
// [data-rolecat-filter-deep] ticked, an item also stays when the page's search index
// (Pagefind, through window.rolecatSearch of rolecat-search.js) finds the words in its role's
// instructions. A part of the list marked [data-rolecat-group] hides when none of its items is
// left; [data-rolecat-none="<list id>"] shows when none is left at all. The count says how many
// are shown of how many (data-template), or how many there are (data-total).
//
// The choice lives in the page's address (?q=…&in=instructions&model=…), so a filtered list
// can be linked, reloaded and reached again with Back.
(function () {
  "use strict";

  function words(text) {
    return text.toLocaleLowerCase().split(/\s+/).filter(Boolean);
  }

  function accepts(control, value) {
    var wanted = control.value.trim();
    if (!wanted) return true;
    if (control.type === "search" || control.type === "text") {
      var have = (value || "").toLocaleLowerCase();
      return words(wanted).every(function (word) { return have.indexOf(word) !== -1; });
    }
    return wanted === value;
  }

  function fill(template, shown, total) {
    return (template || "").replace("{shown}", String(shown)).replace("{total}", String(total));
  }

  // The pages whose instructions hold every word of the query, as absolute paths. Asked once
  // the page's scripts have all run: rolecat-search.js, which answers, comes after this one.
  function found(query) {
    return new Promise(function (resolve) { setTimeout(resolve); }).then(function () {
      return window.rolecatSearch ? window.rolecatSearch(query) : null;
    }).then(function (paths) {
      if (!paths) return null;
      var set = {};
      paths.forEach(function (path) { set[path] = true; });
      return set;
    }, function () { return null; });
  }

  document.querySelectorAll("[data-rolecat-filters]").forEach(function (form) {
    var id = form.getAttribute("data-rolecat-filters");
    var list = document.getElementById(id);
    if (!list) return;
    var items = Array.prototype.slice.call(list.querySelectorAll("[data-rolecat-item]"));
    var groups = Array.prototype.slice.call(list.querySelectorAll("[data-rolecat-group]"));
    var none = document.querySelector('[data-rolecat-none="' + id + '"]');
    var count = form.querySelector(".rolecat-filter-count");
    var controls = Array.prototype.slice.call(form.querySelectorAll("[data-rolecat-filter]"));
    var text = form.querySelector('[data-rolecat-filter="text"]');
    var deep = form.querySelector("[data-rolecat-filter-deep]");
    if (deep && !document.querySelector("[data-rolecat-search]")) {  // a site without search
      deep.parentNode.hidden = true;
      deep = null;
    }
    var pages = null;  // the deep search's answer for the text box's query
    var asked = 0;

    function path(item) {
      return new URL(item.getAttribute("data-rolecat-href"), document.baseURI).pathname;
    }

    function show() {
      var shown = 0;
      items.forEach(function (item) {
        var keep = controls.every(function (control) {
          var key = control.getAttribute("data-rolecat-filter");
          var ok = accepts(control, item.getAttribute("data-rolecat-" + key));
          if (!ok && control === text && pages) ok = !!pages[path(item)];
          return ok;
        });
        item.hidden = !keep;
        if (keep) shown += 1;
      });
      groups.forEach(function (group) {
        group.hidden = !group.querySelector("[data-rolecat-item]:not([hidden])");
      });
      if (none) none.hidden = shown > 0;
      if (count) {
        count.textContent = shown < items.length
          ? fill(count.getAttribute("data-template"), shown, items.length)
          : fill(count.getAttribute("data-total"), shown, items.length);
      }
    }

    function remember() {
      var url = new URL(location.href);
      controls.concat(deep ? [deep] : []).forEach(function (control) {
        var on = control.type === "checkbox" ? control.checked : control.value.trim();
        if (on) url.searchParams.set(control.name, control.type === "checkbox" ? control.value : control.value.trim());
        else url.searchParams.delete(control.name);
      });
      if (url.href !== location.href) history.replaceState(history.state, "", url.href);
    }

    function apply() {
      remember();
      var query = text ? text.value.trim() : "";
      pages = null;
      show();
      if (deep && deep.checked && query) {
        var mine = ++asked;
        found(query).then(function (set) {
          if (mine !== asked) return;  // typed on meanwhile
          pages = set;
          show();
        });
      }
    }

    // Back to what the address says.
    var params = new URL(location.href).searchParams;
    controls.concat(deep ? [deep] : []).forEach(function (control) {
      var value = params.get(control.name);
      if (value === null) return;
      if (control.type === "checkbox") control.checked = value === control.value;
      else control.value = value;
    });

    form.addEventListener("input", apply);
    form.addEventListener("change", apply);
    form.addEventListener("submit", function (event) { event.preventDefault(); });
    apply();
  });
})();
