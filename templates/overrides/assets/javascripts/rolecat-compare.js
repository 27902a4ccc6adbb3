// A role's compare page (/<lang>/<bundle>/<slug>/compare/): any two of its versions, the pair
// kept in the address (?from=1&to=3) so a comparison can be linked and survives a reload.
//
// The page carries every version of the role in its language as JSON (#rolecat-compare-data):
// each field already in the words the version pages use (site_plugins/pages/changes.py), so this
// script only picks two and diffs them. The diff is jsdiff's (vendor/diff.min.js), applied as
// build_tools/history/worddiff.py applies difflib: lines first, then the changed lines word by
// word, with the same tokens and the same merging of neighbouring changes; long unchanged runs
// fold as on the version pages. Every catalog text goes in as a text node, never as markup.
(function () {
  "use strict";

  var source = document.getElementById("rolecat-compare-data");
  var root = document.querySelector("[data-rolecat-compare]");
  if (!source || !root || !window.Diff) return;
  var data = JSON.parse(source.textContent);
  var words = data.words;
  var form = root.querySelector("form");
  var result = root.querySelector(".rolecat-compare-result");
  var byKey = {};
  data.versions.forEach(function (version) { byKey[version.key] = version; });

  // worddiff.py's _TOKEN (a word, a run of whitespace, one other character) and the line
  // boundaries of Python's str.splitlines.
  var TOKEN = /[\p{L}\p{N}_]+|\s+|[^\p{L}\p{N}_\s]/gu;
  var LINE_END = /\r\n|[\n\r\v\f\x1c-\x1e\x85\u2028\u2029]/g;

  function lines(text) {
    var found = [], start = 0, match;
    LINE_END.lastIndex = 0;
    while ((match = LINE_END.exec(text))) {
      found.push(text.slice(start, LINE_END.lastIndex));
      start = LINE_END.lastIndex;
    }
    if (start < text.length) found.push(text.slice(start));
    return found;
  }

  function append(list, items) {
    for (var i = 0; i < items.length; i++) list.push(items[i]);
  }

  function wordPieces(old, now) {
    var a = old.match(TOKEN) || [], b = now.match(TOKEN) || [];
    if (a.length * b.length > data.max_word_pairs) {
      return [{ op: "delete", text: old }, { op: "insert", text: now }];
    }
    return window.Diff.diffArrays(a, b).map(function (change) {
      var op = change.added ? "insert" : change.removed ? "delete" : "equal";
      return { op: op, text: change.value.join("") };
    });
  }

  function wordDiff(old, now) {
    var pieces = [], removed = [], added = [];
    function changed() {
      if (removed.length || added.length) {
        append(pieces, wordPieces(removed.join(""), added.join("")));
      }
      removed = [];
      added = [];
    }
    window.Diff.diffArrays(lines(old), lines(now)).forEach(function (change) {
      if (change.removed) append(removed, change.value);
      else if (change.added) append(added, change.value);
      else {
        changed();
        pieces.push({ op: "equal", text: change.value.join("") });
      }
    });
    changed();
    return tidy(pieces);
  }

  // worddiff.py's _tidy: neighbours merged; a change, whitespace and a change read as one. Then
  // what a change removes and adds alike at its ends (a space jsdiff kept inside it, where
  // difflib matched it) goes back to the unchanged text around it.
  function tidy(pieces) {
    var groups = [];  // unchanged text as a string, or a change as [removed, added]
    pieces.forEach(function (piece) {
      if (!piece.text) return;
      var last = groups.length ? groups[groups.length - 1] : null;
      if (piece.op === "equal") {
        if (typeof last === "string") groups[groups.length - 1] = last + piece.text;
        else groups.push(piece.text);
        return;
      }
      var before = groups.length > 1 ? groups[groups.length - 2] : null;
      if (typeof last === "string" && !last.trim() && Array.isArray(before)) {
        groups.splice(groups.length - 2, 2);
        last = [before[0] + last, before[1] + last];
        groups.push(last);
      }
      if (!Array.isArray(last)) {
        last = ["", ""];
        groups.push(last);
      }
      if (piece.op === "delete") last[0] += piece.text;
      else last[1] += piece.text;
    });
    var tidied = [];
    groups.forEach(function (group) {
      if (typeof group === "string") {
        tidied.push({ op: "equal", text: group });
        return;
      }
      var ends = trimmed(group[0], group[1]);
      if (ends[0]) tidied.push({ op: "equal", text: ends[0] });
      if (ends[1]) tidied.push({ op: "delete", text: ends[1] });
      if (ends[2]) tidied.push({ op: "insert", text: ends[2] });
      if (ends[3]) tidied.push({ op: "equal", text: ends[3] });
    });
    return merged(tidied);
  }

  // [same start, removed, added, same end] of one change, cut at whole tokens.
  function trimmed(removed, added) {
    var a = removed.match(TOKEN) || [], b = added.match(TOKEN) || [];
    if (!a.length || !b.length || a.join("") !== removed || b.join("") !== added) {
      return ["", removed, added, ""];
    }
    var head = 0, tail = 0;
    while (head < a.length && head < b.length && a[head] === b[head]) head++;
    while (tail < a.length - head && tail < b.length - head &&
           a[a.length - 1 - tail] === b[b.length - 1 - tail]) tail++;
    return [
      a.slice(0, head).join(""),
      a.slice(head, a.length - tail).join(""),
      b.slice(head, b.length - tail).join(""),
      a.slice(a.length - tail).join(""),
    ];
  }

  function merged(pieces) {
    var out = [];
    pieces.forEach(function (piece) {
      var last = out.length ? out[out.length - 1] : null;
      if (last && last.op === "equal" && piece.op === "equal") last.text += piece.text;
      else out.push({ op: piece.op, text: piece.text });
    });
    return out;
  }

  function format(template, values) {
    return template.replace(/%\((\w+)\)s/g, function (whole, name) {
      return name in values ? String(values[name]) : whole;
    });
  }

  // changes.py's fold: unchanged runs longer than the context around them fold away.
  function fold(pieces) {
    var parts = [], context = data.context_lines;
    pieces.forEach(function (piece, position) {
      if (piece.op !== "equal") {
        parts.push(piece);
        return;
      }
      var all = lines(piece.text);
      var head = position > 0 ? context : 0;
      var tail = position < pieces.length - 1 ? context : 0;
      if (all.length <= head + tail + 2) {
        parts.push(piece);
        return;
      }
      var middle = all.slice(head, all.length - tail);
      if (head) parts.push({ op: "equal", text: all.slice(0, head).join("") });
      parts.push({
        op: "fold",
        text: middle.join(""),
        summary: format(words.unchanged_lines, { count: middle.length }),
      });
      if (tail) parts.push({ op: "equal", text: all.slice(all.length - tail).join("") });
    });
    return parts;
  }

  function element(tag, className, text) {
    var node = document.createElement(tag);
    if (className) node.className = className;
    if (text !== undefined) node.textContent = text;
    return node;
  }

  // A text as the version pages' HTML gives it: a page's parser reads CR LF and CR as LF.
  function text(value) {
    return document.createTextNode(value.replace(/\r\n?/g, "\n"));
  }

  function showPieces(box, pieces) {
    pieces.forEach(function (piece) {
      if (piece.op === "equal") {
        box.appendChild(text(piece.text));
      } else if (piece.op === "fold") {
        var details = element("details", "rolecat-fold");
        details.appendChild(element("summary", "", piece.summary));
        details.appendChild(text(piece.text));
        box.appendChild(details);
      } else {
        var mark = element(piece.op === "delete" ? "del" : "ins");
        var inner = piece.word ? mark.appendChild(element("span", "rolecat-word")) : mark;
        inner.appendChild(text(piece.text));
        box.appendChild(mark);
      }
    });
    return box;
  }

  // One changed field, as the version pages show it (version.html): two texts keep their word
  // diff, each side whole; any other value shows whole on each side, in words.
  function sides(old, now) {
    if (!old.word && !now.word) {
      var pieces = wordDiff(old.text, now.text);
      return [
        pieces.filter(function (p) { return p.op !== "insert"; }),
        pieces.filter(function (p) { return p.op !== "delete"; }),
      ];
    }
    return [
      [{ op: "delete", text: old.text, word: old.word }],
      [{ op: "insert", text: now.text, word: now.word }],
    ];
  }

  function fieldsTable(older, newer) {
    var body = element("tbody");
    data.fields.forEach(function (field) {
      var old = older.fields[field[0]], now = newer.fields[field[0]];
      if (old.text === now.text && old.word === now.word) return;
      var row = element("tr");
      var label = element("th", "", field[1]);
      label.scope = "row";
      row.appendChild(label);
      sides(old, now).forEach(function (pieces, position) {
        var cell = element("td");
        cell.setAttribute("data-label", position ? words.after : words.before);
        cell.appendChild(showPieces(element("div", "rolecat-diff"), pieces));
        row.appendChild(cell);
      });
      body.appendChild(row);
    });
    if (!body.children.length) return null;
    var head = element("tr");
    [words.field, words.before, words.after].forEach(function (text) {
      var cell = element("th", "", text);
      cell.scope = "col";
      head.appendChild(cell);
    });
    var table = element("table", "rolecat-before-after");
    table.appendChild(element("thead")).appendChild(head);
    table.appendChild(body);
    var wrap = element("div", "rolecat-before-after-wrap");
    wrap.appendChild(table);
    return wrap;
  }

  function note(text) {
    var box = element("div", "admonition warning rolecat-withheld");
    box.appendChild(element("p", "admonition-title", words.withheld));
    box.appendChild(element("p", "", text));
    return box;
  }

  function show(older, newer) {
    result.textContent = "";
    result.appendChild(element("p", "rolecat-compared", format(words.compare_pair, {
      from: older.number, from_date: older.date, to: newer.number, to_date: newer.date,
    })));
    if (older === newer) {
      result.appendChild(element("p", "rolecat-state", words.compare_same));
      return;
    }
    [older, newer].forEach(function (version) {
      if (version.withheld) result.appendChild(note(version.withheld));
    });
    var table = fieldsTable(older, newer);
    if (table) result.appendChild(table);
    if (older.instructions !== newer.instructions) {
      result.appendChild(element("h2", "", words.instructions)).id = "compared-instructions";
      var pieces = fold(wordDiff(older.instructions, newer.instructions));
      result.appendChild(showPieces(element("div", "rolecat-diff rolecat-diff-instructions"), pieces));
    } else if (!table) {
      result.appendChild(element("p", "rolecat-state", words.compare_identical));
    }
  }

  // The pair named in the address, where it names versions of this page; else the default.
  function picked() {
    var query = new URLSearchParams(window.location.search);
    var older = query.get("from"), newer = query.get("to");
    return [
      Object.prototype.hasOwnProperty.call(byKey, older) ? older : data.from,
      Object.prototype.hasOwnProperty.call(byKey, newer) ? newer : data.to,
    ];
  }

  function update() {
    var pair = picked();
    form.elements.from.value = pair[0];
    form.elements.to.value = pair[1];
    show(byKey[pair[0]], byKey[pair[1]]);
  }

  function choose() {
    var query = new URLSearchParams(window.location.search);
    query.set("from", form.elements.from.value);
    query.set("to", form.elements.to.value);
    var address = window.location.pathname + "?" + query.toString() + window.location.hash;
    if (address !== window.location.pathname + window.location.search + window.location.hash) {
      window.history.pushState(null, "", address);
    }
    update();
  }

  form.addEventListener("submit", function (event) {
    event.preventDefault();
    choose();
  });
  form.addEventListener("change", choose);
  window.addEventListener("popstate", update);
  root.hidden = false;
  update();
})();
