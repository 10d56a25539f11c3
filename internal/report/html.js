// spgo HTML report: switches each root's per-line view, and the chart of
// its simulated schedules, between the processor counts the profile
// attributes. The page shows the default
// without this script. A URL fragment #q=N selects, in every root, the
// largest listed count ≤ N.
(function () {
  "use strict";
  var units = ["B", "KiB", "MiB", "GiB", "TiB"];
  // fixed(v, d) is strconv.FormatFloat(v, 'f', d, 64): ties to even.
  function fixed(v, d) {
    var m = Math.pow(10, d), x = v * m, f = Math.floor(x), r = x - f;
    if (r > 0.5 + 1e-9 || (Math.abs(r - 0.5) <= 1e-9 && f % 2 === 1)) {
      f++;
    }
    return (f / m).toFixed(d);
  }
  function bytes(n) {
    var neg = "";
    if (n < 0) {
      neg = "-";
      n = -n;
    }
    if (n < 1024) {
      return neg + n + " B";
    }
    var v = n, u = 0;
    while (v >= 1024 && u < units.length - 1) {
      v /= 1024;
      u++;
    }
    var s = fixed(v, 1);
    if (s.slice(-2) === ".0") {
      s = s.slice(0, -2);
    }
    return neg + s + " " + units[u];
  }
  function width(part, whole) {
    if (whole <= 0 || part <= 0) {
      return "0%";
    }
    return Math.min(100, 100 * part / whole).toFixed(2) + "%";
  }
  function el(tag, cls, text) {
    var e = document.createElement(tag);
    if (cls) {
      e.className = cls;
    }
    if (text !== undefined && text !== null) {
      e.textContent = text;
    }
    return e;
  }
  function setAll(sec, sel, text) {
    var es = sec.querySelectorAll(sel);
    for (var i = 0; i < es.length; i++) {
      es[i].textContent = text;
    }
  }

  var node = document.getElementById("spgo-data");
  if (!node) {
    return;
  }
  var data = JSON.parse(node.textContent);
  var want = 0;
  var m = /(?:^#|[#&])q=(\d+)/.exec(window.location.hash || "");
  if (m) {
    want = parseInt(m[1], 10);
  }

  function render(r, sec, i) {
    var q = r.qs[i], tot = r.tot[i], sh = r.sh[i], sp = r.sp[i];
    setAll(sec, ".qlabel", String(q));
    setAll(sec, ".qtotal", bytes(tot));
    var tbody = sec.querySelector("tbody.barrows");
    if (tbody) {
      while (tbody.firstChild) {
        tbody.removeChild(tbody.firstChild);
      }
      var widest = sh.length > 1 ? sh[1] : 0;
      for (var k = 0; k + 3 < sp.length; k += 4) {
        var li = sp[k], run = sp[k + 1], comp = sp[k + 2], susp = sp[k + 3];
        var b = run + comp + susp, line = r.lines[li] || ["", 0, "", ""];
        var tr = el("tr");
        tr.title = "running " + bytes(run) + ", completed " + bytes(comp) + ", suspended " + bytes(susp);
        var pos = el("td", "pos");
        pos.appendChild(el("span", "file", line[1] > 0 ? line[0] + ":" + line[1] : line[0]));
        pos.appendChild(el("span", "fn", line[2]));
        tr.appendChild(pos);
        var cell = el("td", "barcell"), bar = el("div", "bar");
        [["seg run", run], ["seg comp", comp], ["seg susp", susp]].forEach(function (s) {
          var seg = el("span", s[0]);
          seg.style.width = width(s[1], widest);
          bar.appendChild(seg);
        });
        cell.appendChild(bar);
        tr.appendChild(cell);
        tr.appendChild(el("td", "num", bytes(b)));
        tr.appendChild(el("td", "num", tot ? fixed(100 * b / tot, 1) + "%" : ""));
        var code = el("td", "code");
        code.appendChild(el("code", "", line[3]));
        tr.appendChild(code);
        tbody.appendChild(tr);
      }
    }
    var more = sec.querySelector(".morebars");
    if (more) {
      var n = sh.length / 2 - sp.length / 4;
      more.hidden = n <= 0;
      more.textContent = n > 0 ? "… " + n + " more lines" : "";
    }
    // The annotated source: shares and heat at q.
    var share = {};
    for (var j = 0; j + 1 < sh.length; j += 2) {
      share[sh[j]] = sh[j + 1];
    }
    var cells = sec.querySelectorAll("td.share[data-li]"), sums = [], hot = 0, c;
    for (c = 0; c < cells.length; c++) {
      var ids = cells[c].getAttribute("data-li").split(" "), s = 0;
      for (var x = 0; x < ids.length; x++) {
        s += share[ids[x]] || 0;
      }
      sums.push(s);
      hot = Math.max(hot, s);
    }
    for (c = 0; c < cells.length; c++) {
      var h = sums[c] > 0 && hot > 0 ? Math.min(9, 1 + Math.floor(8 * sums[c] / hot)) : 0;
      cells[c].textContent = sums[c] > 0 ? bytes(sums[c]) : "";
      cells[c].parentNode.className = "h" + h;
      cells[c].setAttribute("data-b", String(sums[c]));
    }
    var files = sec.querySelectorAll("div.file");
    for (var f = 0; f < files.length; f++) {
      var ft = files[f].querySelector(".ftotal");
      if (!ft) {
        continue;
      }
      var fc = files[f].querySelectorAll("td.share[data-li]"), t = 0;
      for (c = 0; c < fc.length; c++) {
        t += parseInt(fc[c].getAttribute("data-b"), 10) || 0;
      }
      ft.textContent = bytes(t);
    }
    sec.setAttribute("data-q", String(q));
    showSim(sec, q);
  }

  // The simulated schedules at q: the largest simulated p ≤ q, the
  // smallest when there is none (the blocks are in increasing p).
  function showSim(sec, q) {
    var blocks = sec.querySelectorAll("div.simp[data-p]"), show = 0, k;
    for (k = 0; k < blocks.length; k++) {
      if (parseInt(blocks[k].getAttribute("data-p"), 10) <= q) {
        show = k;
      }
    }
    for (k = 0; k < blocks.length; k++) {
      blocks[k].hidden = k !== show;
    }
  }

  data.roots.forEach(function (r) {
    var sec = document.getElementById(r.id);
    if (!sec || !r.qs.length) {
      return;
    }
    var qi = r.q;
    if (want > 0) {
      for (var i = 0; i < r.qs.length; i++) {
        if (r.qs[i] <= want) {
          qi = i;
        }
      }
    }
    var sel = sec.querySelector("select.qsel");
    if (sel) {
      sel.disabled = false;
      sel.value = String(r.qs[qi]);
      sel.addEventListener("change", function () {
        var k = r.qs.indexOf(parseInt(sel.value, 10));
        if (k >= 0) {
          render(r, sec, k);
        }
      });
    }
    render(r, sec, qi);
  });
  // A link to a root opens its section.
  function openTarget() {
    var id = decodeURIComponent((window.location.hash || "").slice(1));
    var e = id && id.indexOf("q=") !== 0 ? document.getElementById(id) : null;
    var d = e ? e.querySelector("details") : null;
    if (d) {
      d.open = true;
    }
  }
  window.addEventListener("hashchange", openTarget);
  openTarget();
  document.body.setAttribute("data-ready", "1");
})();
