// The flame graphs: the block of the per-line view's p is shown (the
// select.qsel of the root's section, set by the script above), and a
// click on a box zooms the icicle to it.
(function () {
  "use strict";
  var charW = 7.2;
  function show(sec, q) {
    var blocks = sec.querySelectorAll(".flameq");
    for (var i = 0; i < blocks.length; i++) {
      blocks[i].hidden = blocks[i].getAttribute("data-q") !== q;
    }
    var labels = sec.querySelectorAll(".card.flame .qlabel");
    for (var j = 0; j < labels.length; j++) {
      labels[j].textContent = q;
    }
  }
  // zoom lays svg's boxes out so that the box g spans the width; boxes
  // outside it, or above it, are hidden.
  function zoom(svg, g) {
    var W = parseFloat(svg.getAttribute("data-w"));
    var x0 = parseFloat(g.getAttribute("data-x")), w0 = parseFloat(g.getAttribute("data-w"));
    var y0 = parseFloat(g.getAttribute("data-y"));
    var k = W / w0;
    var nodes = svg.querySelectorAll("g.fnode");
    for (var i = 0; i < nodes.length; i++) {
      var n = nodes[i];
      var x = parseFloat(n.getAttribute("data-x")), w = parseFloat(n.getAttribute("data-w"));
      var y = parseFloat(n.getAttribute("data-y"));
      var inside = x >= x0 - 1e-6 && x + w <= x0 + w0 + 1e-6;
      var above = y < y0 && x <= x0 + 1e-6 && x + w >= x0 + w0 - 1e-6;
      var nx = (x - x0) * k, nw = w * k;
      if (above) {
        nx = 0;
        nw = W;
      }
      n.style.display = inside || above ? "" : "none";
      var r = n.querySelector("rect");
      r.setAttribute("x", nx.toFixed(2));
      r.setAttribute("width", nw.toFixed(2));
      var t = n.querySelector("text");
      var name = n.getAttribute("data-name");
      var c = Math.floor((nw - 6) / charW);
      t.setAttribute("x", nx.toFixed(2));
      t.textContent = c < 3 ? "" : name.length <= c ? name : name.slice(0, c - 1) + "…";
    }
    svg.setAttribute("data-zoom", g.getAttribute("data-x") + "," + g.getAttribute("data-y"));
  }
  var secs = document.querySelectorAll("section.root");
  for (var i = 0; i < secs.length; i++) {
    (function (sec) {
      if (!sec.querySelector(".flameq")) {
        return;
      }
      var sel = sec.querySelector("select.qsel");
      if (sel) {
        show(sec, sel.value);
        sel.addEventListener("change", function () { show(sec, sel.value); });
      }
      var svgs = sec.querySelectorAll("svg.flamegraph");
      for (var j = 0; j < svgs.length; j++) {
        (function (svg) {
          svg.addEventListener("click", function (ev) {
            var g = ev.target.closest ? ev.target.closest("g.fnode") : null;
            if (g) {
              zoom(svg, g);
            }
          });
        })(svgs[j]);
      }
    })(secs[i]);
  }
  document.body.setAttribute("data-flame", "1");
})();
