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

// The "use it" links of a role page name the full URL they lead to, wherever the site is served.
(function () {
  "use strict";
  document.querySelectorAll("a.rolecat-url code").forEach(function (code) {
    if (!/^[a-z]+:/.test(code.textContent)) code.textContent = code.parentNode.href;
  });
})();
