// The copy button of a role page: copies the exact instructions, which the page carries as JSON
// (a <pre>'s text would lose a leading newline and any carriage return).
(function () {
  "use strict";

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
    var text = JSON.parse(source.textContent);
    var copy = navigator.clipboard && window.isSecureContext
      ? navigator.clipboard.writeText(text)
      : fallbackCopy(text);
    var label = button.textContent;
    copy.then(function () {
      button.textContent = button.getAttribute("data-copied") || label;
      button.setAttribute("data-rolecat-copied", "");
      setTimeout(function () { button.textContent = label; }, 2000);
    }, function () {
      button.setAttribute("data-rolecat-copy-failed", "");
    });
  });
})();

// Tables of roles narrowed by their controls: a <select data-rolecat-filter="tier"
// data-rolecat-target="<table id>"> shows only the rows whose data-tier is the one chosen. Any
// number of controls may point at one table; a row shows when it matches every one that has a
// value. Without the script the controls stay hidden and every row shows.
(function () {
  "use strict";

  function narrow(table) {
    var controls = document.querySelectorAll(
      "[data-rolecat-filter][data-rolecat-target='" + table.id + "']"
    );
    table.querySelectorAll("tbody tr").forEach(function (row) {
      var shown = true;
      controls.forEach(function (control) {
        var name = "data-" + control.getAttribute("data-rolecat-filter");
        if (control.value && row.getAttribute(name) !== control.value) shown = false;
      });
      row.hidden = !shown;
    });
  }

  document.querySelectorAll("[data-rolecat-filter]").forEach(function (control) {
    var table = document.getElementById(control.getAttribute("data-rolecat-target"));
    if (!table) return;
    control.closest(".rolecat-filter").hidden = false;
    control.addEventListener("change", function () { narrow(table); });
    narrow(table); // a choice the browser kept when going back to the page
  });
})();
