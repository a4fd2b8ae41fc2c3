// The game master's page follows the lesson: it reloads its live part every few seconds,
// except while the teacher is writing in one of its forms (nothing typed is lost).
const live = document.getElementById("pol-master");
let busy = false;
document.addEventListener("focusin", (e) => { if (live.contains(e.target)) busy = true; });
document.addEventListener("toggle", (e) => { if (e.target.open) busy = true; }, true);
async function refresh() {
  const editing = busy && live.querySelector("details[open], :focus");
  if (!editing) {
    busy = false;
    try {
      const response = await fetch(live.dataset.refresh, { credentials: "same-origin" });
      if (response.ok) live.innerHTML = await response.text();
    } catch (_error) { /* offline for a moment: try again */ }
  }
  setTimeout(refresh, 3000);
}
setTimeout(refresh, 3000);
