// Click (or Enter on) a header of a table.sortable to sort its rows; numbers sort by
// their data-sort value, empty numeric cells always last.
document.querySelectorAll("table.sortable").forEach(function (table) {
  var heads = table.tHead ? table.tHead.rows[0].cells : [];
  Array.prototype.forEach.call(heads, function (th, col) {
    th.tabIndex = 0;
    th.classList.add("sorter");
    function key(row) {
      var cell = row.cells[col], raw = cell ? cell.getAttribute("data-sort") : null;
      if (raw === null) return [1, cell ? cell.textContent.trim().toLowerCase() : ""];
      return raw === "" ? [2, 0] : [0, parseFloat(raw)];
    }
    function sort() {
      var up = th.getAttribute("aria-sort") !== "ascending", body = table.tBodies[0];
      Array.prototype.forEach.call(heads, function (h) { h.removeAttribute("aria-sort"); });
      th.setAttribute("aria-sort", up ? "ascending" : "descending");
      Array.prototype.slice.call(body.rows).map(function (r) { return [key(r), r]; })
        .sort(function (a, b) {
          if (a[0][0] !== b[0][0]) return a[0][0] - b[0][0];
          var d = a[0][0] === 0 ? a[0][1] - b[0][1] : a[0][1].localeCompare(b[0][1], undefined, {numeric: true});
          return up ? d : -d;
        })
        .forEach(function (pair) { body.appendChild(pair[1]); });
    }
    th.addEventListener("click", sort);
    th.addEventListener("keydown", function (e) { if (e.key === "Enter") sort(); });
  });
});
