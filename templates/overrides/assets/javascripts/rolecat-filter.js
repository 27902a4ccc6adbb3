// Narrows a list of roles in the page, with no server: a form [data-rolecat-filters="<list id>"]
// holds any number of controls [data-rolecat-filter="<key>"], and the list's items
// [data-rolecat-item] carry data-rolecat-<key>. An item stays when every control agrees:
// a text box when the item's value contains each word typed (any case), any other control
// (a select, say) when it is empty or equals the item's value. A part of the list marked
// [data-rolecat-group] (a bundle's cards, a table with its header) hides when none of its items
// is left; [data-rolecat-none="<list id>"] shows when none is left at all. The count says how
// many are shown of how many (data-template), or how many there are (data-total).
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

  document.querySelectorAll("[data-rolecat-filters]").forEach(function (form) {
    var id = form.getAttribute("data-rolecat-filters");
    var list = document.getElementById(id);
    if (!list) return;
    var items = Array.prototype.slice.call(list.querySelectorAll("[data-rolecat-item]"));
    var groups = Array.prototype.slice.call(list.querySelectorAll("[data-rolecat-group]"));
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

    form.addEventListener("input", apply);
    form.addEventListener("change", apply);
    form.addEventListener("submit", function (event) { event.preventDefault(); });
    form.hidden = false;
    apply();
  });
})();
