// Narrows a list of roles in the page, with no server: a form [data-rolecat-filters="<list id>"]
// holds any number of controls [data-rolecat-filter="<key>"], and the list's items
// [data-rolecat-item] carry data-rolecat-<key>. An item stays when every control agrees:
// a text box when the item's value contains each word typed (any case), any other control
// (a select, say) when it is empty or equals the item's value.
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

  document.querySelectorAll("[data-rolecat-filters]").forEach(function (form) {
    var id = form.getAttribute("data-rolecat-filters");
    var list = document.getElementById(id);
    if (!list) return;
    var items = Array.prototype.slice.call(list.querySelectorAll("[data-rolecat-item]"));
    var none = document.querySelector('[data-rolecat-none="' + id + '"]');
    var count = form.querySelector(".rolecat-filter-count");
    var controls = Array.prototype.slice.call(form.querySelectorAll("[data-rolecat-filter]"));

    function apply() {
      var shown = 0;
      items.forEach(function (item) {
        var keep = controls.every(function (control) {
          var key = control.getAttribute("data-rolecat-filter");
          return accepts(control, item.getAttribute("data-rolecat-" + key));
        });
        item.hidden = !keep;
        if (keep) shown += 1;
      });
      if (none) none.hidden = shown > 0;
      if (count) {
        var filtered = shown < items.length;
        count.textContent = filtered
          ? count.getAttribute("data-template")
              .replace("{shown}", String(shown)).replace("{total}", String(items.length))
          : "";
      }
    }

    form.addEventListener("input", apply);
    form.addEventListener("change", apply);
    form.addEventListener("submit", function (event) { event.preventDefault(); });
    form.hidden = false;
    apply();
  });
})();
