// The debrief page: has each handout not yet stored built in turn, and shows the progress.
// Without this script the links still work: a handout is built when it is first opened.
const box = document.querySelector(".preparing");
if (box) {
  const status = box.querySelector("[data-status]");
  const bar = box.querySelector("progress");
  let done = 0;
  for (const item of box.querySelectorAll("[data-prepare]")) {
    const word = item.querySelector("span");
    let ok = false;
    try {
      const response = await fetch(item.dataset.prepare, {
        method: "POST", credentials: "same-origin",
        headers: { "X-CSRFToken": box.dataset.csrf },
      });
      ok = response.ok;
    } catch {
      ok = false;
    }
    word.textContent = ok ? item.dataset.done : item.dataset.failed;
    done += 1;
    bar.value = done;
  }
  status.textContent = status.dataset.ready;
}
