// Leaderboard: sort the table by any column (click or Enter/Space on a column heading).
const table = document.getElementById("leaderboard");

function sortBy(header) {
  const index = [...header.parentNode.children].indexOf(header);
  const numeric = header.querySelector("button").dataset.type === "number";
  const ascending = header.getAttribute("aria-sort") !== "ascending";
  const body = table.tBodies[0];
  const value = (row) => row.children[index].dataset.value;
  const rows = [...body.rows].sort((a, b) => {
    let order;
    if (numeric) {
      const x = value(a) === "" ? -Infinity : Number(value(a));
      const y = value(b) === "" ? -Infinity : Number(value(b));
      order = x - y;
    } else {
      order = value(a).localeCompare(value(b));
    }
    return ascending ? order : -order;
  });
  body.append(...rows);
  for (const th of header.parentNode.children) th.removeAttribute("aria-sort");
  header.setAttribute("aria-sort", ascending ? "ascending" : "descending");
}

if (table) {
  for (const header of table.tHead.rows[0].cells) {
    header.querySelector("button").addEventListener("click", () => sortBy(header));
  }
}
