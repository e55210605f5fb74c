(function () {
  "use strict";
  var input = document.getElementById("filter");
  var count = document.getElementById("filter-count");
  var items = Array.prototype.slice.call(document.querySelectorAll("[data-key]"));
  var groups = Array.prototype.slice.call(document.querySelectorAll("[data-group]"));
  var byName = items.filter(function (el) { return el.closest("#by-name"); });

  function apply() {
    var terms = input.value.toLowerCase().split(/\s+/).filter(Boolean);
    items.forEach(function (el) {
      var key = el.getAttribute("data-key");
      el.hidden = !terms.every(function (t) { return key.indexOf(t) >= 0; });
    });
    groups.forEach(function (group) {
      group.hidden = !group.querySelector("[data-key]:not([hidden])");
    });
    var shown = byName.filter(function (el) { return !el.hidden; }).length;
    count.textContent = shown + " of " + byName.length + " shown";
  }

  input.addEventListener("input", apply);
  // Enter opens the first entry still shown.
  input.addEventListener("keydown", function (event) {
    if (event.key !== "Enter") {
      return;
    }
    var first = byName.filter(function (el) { return !el.hidden; })[0];
    var link = first && first.querySelector("a");
    if (link) {
      window.location.href = link.href;
    }
  });
  var initial = new URLSearchParams(window.location.search).get("filter");
  if (initial !== null) {
    input.value = initial;
  }
  apply();
})();
