// Live updates for the projector console and the phone, with no framework.
// The server renders every screen (Django templates); this module only
//  - keeps one websocket open (reconnecting after sleep or a wifi drop),
//  - swaps in the HTML the server pushes,
//  - sends the forms' actions over the socket (plain form posts still work without it),
//  - on the console: keyboard shortcuts; on every page: the timers' countdowns.
const live = document.getElementById("live");
const banner = document.getElementById("connection");
let socket = null;
let retry = 0;
let pending = null; // the last action sent and not yet answered
let bannerTimer = null;
// How the server refuses an action it has already counted (see resendIfLost).
const REPEATED = ["already_voted", "already_contributed", "no_tie", "not_your_turn"];

function socketUrl() {
  const scheme = location.protocol === "https:" ? "wss:" : "ws:";
  return `${scheme}//${location.host}${live.dataset.socket}`;
}

function showBanner(show) {
  clearTimeout(bannerTimer);
  if (show) {
    bannerTimer = setTimeout(() => { banner.hidden = false; }, 800);
  } else {
    banner.hidden = true;
  }
}

function connect() {
  if (socket && socket.readyState <= WebSocket.OPEN) return;
  // Only the current socket speaks: one let go (see "offline") may still say "closed" later.
  const ws = new WebSocket(socketUrl());
  socket = ws;
  ws.addEventListener("open", () => { if (ws === socket) { retry = 0; showBanner(false); } });
  ws.addEventListener("message", (event) => { if (ws === socket) receive(JSON.parse(event.data)); });
  ws.addEventListener("close", (event) => {
    if (ws !== socket) return;
    if (event.code === 4403) {  // this phone no longer holds a seat (see "removed")
      if (live.dataset.removed) location.assign(live.dataset.removed); else location.reload();
      return;
    }
    lost();
  });
}

let reconnecting = null;
function lost() {  // the socket is gone: say so, and try again a little later each time
  showBanner(true);
  retry = Math.min(retry + 1, 5);
  clearTimeout(reconnecting);
  reconnecting = setTimeout(connect, 500 * 2 ** retry);
}

function receive(message) {
  if (message.type === "view") {
    noteServerTime(message.now);
    // A screen of the moment already shown keeps the user's place (see notePlace).
    const same = !message.phase || message.phase === live.dataset.phase;
    const place = same ? notePlace() : null;
    const refused = live.querySelector("[data-error]");
    const shown = swap(message.html, message.phase);
    reapplyHeld(message.phase);
    reapplyCounts(message.phase);
    if (shown) {
      keepRefusal(message.phase, refused);
      if (place) putBack(place);
    }
    resendIfLost(message.phase);
  } else if (message.type === "progress") {
    const seen = counts[message.table];
    const phase = live.dataset.phase;
    const shown = live.querySelector(`[data-progress="${message.table}"]`);
    if (message.bag && shown && shown.dataset.bag && message.bag !== shown.dataset.bag) return;
    if (typeof message.voted === "number"
        && (!seen || seen.phase !== phase || seen.bag !== message.bag
            || seen.voted < message.voted)) {
      counts[message.table] = { phase, bag: message.bag, voted: message.voted,
                                text: message.text, counted: Boolean(message.counted) };
    }
    if (message.counted) holdCount(message.table, message.bag);
    showCount(message.table, message.voted, message.text, message.bag, message.counted);
  } else if (message.type === "counted") {
    holdCount(message.table, message.bag);  // a phone: a held count at its table
  } else if (message.type === "ack") {
    if (pending && pending.id === message.id) {
      if (pending.message.type === "ballot") showVoted(message.progress);
      pending = null;
    }
    if (sentFrom && sentFrom.id === message.id) {
      // Done: the form that sent it starts afresh (what was typed in it is not kept).
      byKey(live.querySelectorAll("form"), formKey).get(sentFrom.form)?.forEach((f) => f.reset());
      sentFrom = null;
    }
  } else if (message.type === "presence") {
    // The console: a phone came or went (no new screen for that).
    const seat = live.querySelector(`[data-presence="${message.seat}"]`);
    if (seat) {
      seat.classList.toggle("offline", !message.connected);
      const label = seat.querySelector("[data-offline]");
      if (label) label.hidden = message.connected;
    }
  } else if (message.type === "error") {
    const mine = pending && pending.id === message.id;
    // A resent action that had in fact arrived is refused as a duplicate: nothing to report.
    // A resent ballot or choice that the server already has is not shown as an error after
    // a reconnect.
    const quiet = mine && pending.resent && REPEATED.includes(message.code);
    // The server asks before a count with tokens missing: the same button again confirms.
    if (mine && message.code === "confirm_count") {
      armAsked(actionKey(pending.message), message.message);
      pending = null;
      return;
    }
    if (mine) pending = null;
    if (!quiet) showError(message.message);
  } else if (message.type === "removed") {
    // The teacher removed this student (or gave the seat to a new phone): the join page
    // says so, instead of an empty form.
    if (live.dataset.removed) location.assign(live.dataset.removed); else location.reload();
  }
}

// ---- console: a vote's count per table ("5 of 8 have voted") ----
// Counts go out as soon as a ballot is in, while the console's views are rendered in the
// background: a view rendered just before a ballot can arrive after that ballot's count.
// Keep the higher count, and never turn a counted bag back into "7 of 8". A bag emptied and
// asked again (an undone count, a lost key) has a new generation (data-bag): the counts of
// the bag as it was are dropped. A count that changes nothing else on the console comes as
// a "counted" progress frame, not a new screen: the line becomes what the server renders
// for a counted bag ("The bag has been counted.", marked data-counted).
const counts = {};
function showCount(table, voted, text, bag, counted) {
  const target = live.querySelector(`[data-progress="${table}"]`);
  if (!target || !text || target.hasAttribute("data-counted")) return;
  if (bag && target.dataset.bag && bag !== target.dataset.bag) return;
  if (typeof voted === "number") {
    if (Number(target.dataset.voted ?? -1) > voted) return;
    target.dataset.voted = voted;
  }
  const changed = target.textContent !== text;
  target.textContent = text;
  // A burst of ballots is told once, when it settles (the latest count).
  if (changed && live.dataset.socket.startsWith("/ws/lesson/")) announce(text, 1500);
  if (voted > 0) showVotedLabel();
  if (counted) {
    for (const name of ["data-voted", "data-of", "data-bag"]) target.removeAttribute(name);
    target.setAttribute("data-counted", "");
  }
}
// The main button says "Count the votes" once a bag holds ballots the step will open: three
// tokens, or every party's (the server renders the label for the ballots it has, and the one
// it takes then: data-voted-label; facilitator/main_button.py).
function showVotedLabel() {
  const button = live.querySelector("button[data-key=next][data-voted-label]");
  if (!button) return;
  const opened = [...live.querySelectorAll("[data-progress][data-of]")].some((bag) => {
    const voted = Number(bag.dataset.voted || 0);
    return voted >= 3 || (voted > 0 && voted >= Number(bag.dataset.of));
  });
  if (!opened) return;
  button.textContent = button.dataset.votedLabel;
  button.removeAttribute("data-voted-label");
  live.querySelector("[data-label-hint]")?.remove();  // the confirmation names it too
  const hint = live.querySelector("[data-voted-hint]");
  if (hint) hint.hidden = false;
}
function reapplyCounts(phase) {
  for (const [table, count] of Object.entries(counts)) {
    const target = live.querySelector(`[data-progress="${table}"]`);
    const sameBag = !count.bag || !target || count.bag === target.dataset.bag;
    if (count.phase === phase && sameBag) {
      showCount(table, count.voted, count.text, count.bag, count.counted);
    } else {
      delete counts[table];
    }
  }
}

// ---- a held count: what the count changes on a screen, without a new screen ----
// Parts of a screen that last only until their table's bag is counted are marked
// data-until-counted (with the bag's generation, data-bag); the part the count brings follows
// each in a <template data-once-counted> (none: the part goes). The server renders the same
// after the count. A screen rendered just before the count can arrive after its frame: the
// count is kept for the moment it belongs to and carried out on that screen too.
const held = {};
function holdCount(table, bag) {
  held[table] = { phase: live.dataset.phase, bag };
  showCounted(table, bag);
}
function showCounted(table, bag) {
  for (const part of live.querySelectorAll(`[data-until-counted="${table}"]`)) {
    if (bag && part.dataset.bag && part.dataset.bag !== bag) continue;
    const next = part.nextElementSibling;
    if (next && next.matches(`template[data-once-counted="${table}"]`)) {
      const news = next.content.textContent.replace(/\s+/g, " ").trim();
      if (news && !part.closest("[hidden]")) announce(news);
      part.replaceWith(next.content.cloneNode(true));
      next.remove();
    } else {
      part.remove();
    }
  }
  startCountdowns();  // a part the count brings may hold one
}
function reapplyHeld(phase) {
  for (const [table, count] of Object.entries(held)) {
    if (count.phase === phase) showCounted(table, count.bag); else delete held[table];
  }
}

function resendIfLost(phase) {
  // An action sent just before the connection dropped: send it again if that moment of the
  // lesson is still on. The server counts it once (a second ballot is refused).
  if (pending && pending.on !== socket && pending.message.expected === phase) {
    send(pending.message, true);
  }
}

// The console's own choice of the table in focus lives in localStorage, which outlives the tab.
// Timers and what a table has read so far are the server's, not the page's.
const store = window.localStorage;

// ---- console only: focus on one table of several (kept across updates and reloads) ----
function applyFocus() {
  const focus = store.getItem(`focus:${live.dataset.socket}`) || "";
  const grid = live.querySelector(".tables");
  if (!grid) return;
  grid.classList.toggle("focused", focus !== "");
  for (const board of grid.querySelectorAll("article.board")) {
    const mine = board.id === `table-${focus}`;
    board.hidden = focus !== "" && !mine;
    for (const link of board.querySelectorAll("[data-focus]")) {
      link.hidden = (link.dataset.focus === "") !== (focus !== "");
    }
  }
}
document.addEventListener("click", (event) => {
  const link = event.target.closest("[data-focus]");
  if (!link) return;
  event.preventDefault();
  store.setItem(`focus:${live.dataset.socket}`, link.dataset.focus);
  applyFocus();
});

function swap(html, phase) {
  if (typeof html !== "string") return false;
  const same = !phase || phase === live.dataset.phase;
  const before = document.activeElement;
  // A button that was pressed was disabled while its action went out, which took the focus
  // to the page: it counts as focused.
  const lost = !before || before === document.body;
  const was = lost && pressed ? pressed : null;
  pressed = null;
  const focused = (before && before.id) || (was ? was.id : "");
  const keyed = before && live.contains(before) ? before.dataset.key : was?.key;
  const fromPage = lost || live.contains(before);
  const told = same ? statusTexts() : null;
  live.innerHTML = html;
  if (phase) live.dataset.phase = phase;
  // A question asked for this moment of the lesson stays asked across a live update.
  if (armed && armed === live.dataset.phase && armedText) showQuestion(armedText);
  else disarm();
  noteServed();
  if (!same) {
    // A new moment changes the user's task: the focus follows its id or its key (the
    // console's controls: the teacher's task is the same button), else it goes to the new
    // moment's heading (tabindex=-1) so that a screen reader reads it; the screen shows from
    // the start of "Now", whatever the phone was scrolled to. A focus outside the live part
    // of the page (the language switch) stays where it is.
    let target = focused ? document.getElementById(focused) : null;
    if (!target && keyed) target = live.querySelector(`button[data-key="${keyed}"]:not(:disabled)`);
    if (target) target.focus({ preventScroll: true });
    else if (fromPage && !focusHeading()) announceStage();
    if (target && !live.querySelector("#now")) announceStage();
    const now = live.querySelector("#now");
    if (now && now.getBoundingClientRect().top < 0) window.scrollTo(0, 0);
  } else if (was && (was.id || was.key) && document.activeElement === document.body) {
    // The same moment again (a refusal, a fresher screen): back to the button pressed.
    const again = (was.id && document.getElementById(was.id))
      || (was.key && live.querySelector(`button[data-key="${was.key}"]:not(:disabled)`));
    if (again) again.focus({ preventScroll: true });
  }
  if (same && told) {
    // The same moment with news: what the new screen says in a status or alert that the old
    // one did not say is told (once), and nothing moves the focus.
    const fresh = [...statusTexts()].filter((text) => !told.has(text));
    if (fresh.length) announce(fresh.join(" "));
  }
  startCountdowns();
  applyFocus();
  return true;
}

// ---- what a screen reader is told: #announcer, a polite status region that stays on the page
// (outside #live, so that it is there before its words change). Told there: a ballot's count
// ("5 of 8 have voted", never anyone's choice), a count held at a table, a status that a
// live update of the same moment brings, a new moment on the console, and a countdown at one
// minute and at ten seconds left. Nothing told there moves the focus.
const announcer = document.getElementById("announcer");
let announceTimer = null;
function announce(text, delay = 150) {
  if (!announcer || !text) return;
  clearTimeout(announceTimer);
  announcer.textContent = "";
  announceTimer = setTimeout(() => { announcer.textContent = text; }, delay);
}
function said(element) {
  return element.textContent.replace(/\s+/g, " ").trim();
}
function statusTexts() {
  const texts = new Set();
  for (const element of live.querySelectorAll('[role="status"], [role="alert"]')) {
    if (element.closest("[hidden]") || element.hasAttribute("data-error")) continue;
    const text = said(element);
    if (text) texts.add(text);
  }
  return texts;
}
// The new moment's heading: the phone's first heading in "Now" (a module may mark another
// with data-stage-heading). False when the screen has none (the console).
function focusHeading() {
  const headings = [...live.querySelectorAll("[data-stage-heading], #now h1, #now h2")]
    .filter((h) => !h.closest("[hidden]"));
  const heading = headings[0];
  if (!heading) return false;
  if (!heading.hasAttribute("tabindex")) heading.setAttribute("tabindex", "-1");
  heading.focus({ preventScroll: true });
  return true;
}
// The console's new moment, as its progress bar says it (the steps marked aria-current).
function announceStage() {
  const steps = [...live.querySelectorAll('[aria-current="step"]')].map(said).filter(Boolean);
  if (steps.length) announce(steps.join(", "));
}

// ---- a live update of the same moment keeps the user's place ----
// A view of the moment already on screen (the same phase) is that screen with fresher facts
// (a tablemate's motion, a vote's count, a reconnect), and the user may be half-way through a
// form on it. For such a swap the page guarantees that, after it, as long as the new screen
// still has them:
//  - every <details> the user opened or closed is as the user left it (unless the server now
//    renders it otherwise than before: then the server's news wins, e.g. the teacher's
//    controls opening by themselves when a motion is ready);
//  - what the user typed or chose in a field (a value that differs from the one the server
//    rendered) is still there, and every radio or checkbox is ticked as the user left it;
//  - the element that had the focus has it again (without scrolling), and only if the swap
//    took it away: an update never moves a focus that was elsewhere;
//  - what the user was looking at stays where it was on the screen: the focused element if it
//    was in view, else the first element in view that the new screen still has (a heading,
//    a summary, a field, anything with an id), even when a motion or a line is added above
//    it; failing that (or at the very top of the page), the page keeps its scroll offset.
// Things are matched by a key that does not depend on the counts on screen: an id, a
// data-keep attribute, a form's address, kind and hidden fields with a field's name (and
// value, for a radio, checkbox or button), a summary's text, else an element's tag and text
// (a heading, a label); the n-th of several with one key is matched with the n-th. A new
// moment (another phase) starts afresh (swap). A form whose action was accepted (its "ack")
// starts afresh too: its fields go back to what the server rendered.
const served = new WeakMap();  // each <details>: open as the server rendered it
function noteServed() {
  for (const details of live.querySelectorAll("details")) served.set(details, details.open);
}
function formKey(form) {
  if (!form) return "";
  const fields = [...form.querySelectorAll('input[type="hidden"]')]
    .filter((i) => i.name !== "csrfmiddlewaretoken" && i.name !== "expected")
    .map((i) => `${i.name}=${i.value}`);
  return [form.getAttribute("action") || "", form.dataset.action || "", ...fields].join("|");
}
function detailsKey(details) {
  if (details.id) return `#${details.id}`;
  if (details.dataset.keep) return `keep:${details.dataset.keep}`;
  const summary = details.querySelector(":scope > summary");
  const words = summary ? summary.textContent.trim() : "";
  return `summary:${words}|${formKey(details.querySelector("form"))}`;
}
const CHOSEN = ["radio", "checkbox", "submit", "button"];
function fieldKey(field) {
  const chosen = field.localName === "button" || CHOSEN.includes(field.type);
  const words = field.name ? "" : field.textContent.trim();
  return `${formKey(field.form)}|${field.name}|${chosen ? field.value : ""}|${words}`;
}
function focusKey(element) {
  if (!element || element === live || !live.contains(element)) return null;
  if (element.id) return `#${element.id}`;
  if (element.localName === "summary" && element.parentElement.localName === "details") {
    return `summary of ${detailsKey(element.parentElement)}`;
  }
  if (element.matches("button, input, select, textarea")) return `field ${fieldKey(element)}`;
  return `${element.localName} ${element.textContent.trim()}`;
}
// Elements by key, in document order (several may share one).
function byKey(elements, key) {
  const found = new Map();
  for (const element of elements) {
    const k = key(element);
    if (k === null) continue;
    if (!found.has(k)) found.set(k, []);
    found.get(k).push(element);
  }
  return found;
}
const TYPED = "input:not([type=hidden]):not([type=radio]):not([type=checkbox]):not([type=submit])"
  + ":not([type=button]):not([type=file]), textarea";
function notePlace() {
  const place = { details: [], typed: [], chosen: [], ticks: [], focus: null, anchors: [],
                  x: window.scrollX, y: window.scrollY };
  for (const [key, all] of byKey(live.querySelectorAll("details"), detailsKey)) {
    all.forEach((d, i) => {
      const was = served.has(d) ? served.get(d) : d.open;
      if (d.open !== was) place.details.push([key, i, d.open, was]);
    });
  }
  for (const [key, all] of byKey(live.querySelectorAll(TYPED), fieldKey)) {
    all.forEach((f, i) => { if (f.value !== f.defaultValue) place.typed.push([key, i, f.value]); });
  }
  for (const [key, all] of byKey(live.querySelectorAll("select"), fieldKey)) {
    all.forEach((f, i) => {
      if ([...f.options].some((o) => o.selected !== o.defaultSelected)) {
        place.chosen.push([key, i, [...f.selectedOptions].map((o) => o.value)]);
      }
    });
  }
  // What the student had ticked is ticked again (as on the screen a reconnecting socket gets);
  // a box the user unticked stays unticked.
  const boxes = live.querySelectorAll("form input[type=radio], form input[type=checkbox]");
  for (const [key, all] of byKey(boxes, fieldKey)) {
    all.forEach((b, i) => {
      if (b.checked || b.defaultChecked) place.ticks.push([key, i, b.checked]);
    });
  }
  const kinds = new Map();
  place.focus = locate(document.activeElement, kinds);
  // What the user looks at: the focused element if it is in view, else the first element
  // wholly below the top of the screen, else one cut by it.
  const top = (e) => e.getBoundingClientRect().top;
  const inView = (e) => {
    const box = e.getBoundingClientRect();
    return box.height > 0 && box.bottom > 0 && box.top < window.innerHeight;
  };
  const seen = [...live.querySelectorAll(ANCHORS)].filter(inView);
  seen.sort((a, b) => Number(top(a) < 0) - Number(top(b) < 0));
  const active = document.activeElement;
  if (place.focus && inView(active)) seen.unshift(active);
  place.anchors = seen.slice(0, 12).map((e) => [locate(e, kinds), top(e)])
    .filter(([where]) => where);
  return place;
}
const ANCHORS = "[id], h1, h2, h3, h4, summary, legend, label, button, input, select, textarea";
// Where an element is: its key, and which of the elements of its kind with that key
// (``kinds``: those elements by key, read once per kind for one screen).
function ofKind(name, kinds) {
  if (!kinds.has(name)) kinds.set(name, byKey(live.querySelectorAll(name), focusKey));
  return kinds.get(name);
}
function locate(element, kinds) {
  const key = focusKey(element);
  if (key === null) return null;
  const all = ofKind(element.localName, kinds).get(key) || [];
  return { name: element.localName, key, index: Math.max(0, all.indexOf(element)) };
}
function find(where, kinds) {
  if (!where) return null;
  const all = ofKind(where.name, kinds).get(where.key);
  return all?.[where.index] || all?.[0] || null;
}
function putBack(place) {
  const details = byKey(live.querySelectorAll("details"), detailsKey);
  for (const [key, i, open, was] of place.details) {
    const d = details.get(key)?.[i];
    if (d && served.get(d) === was) d.open = open;
  }
  const typed = byKey(live.querySelectorAll(TYPED), fieldKey);
  for (const [key, i, value] of place.typed) {
    const f = typed.get(key)?.[i];
    if (f && !f.disabled && !f.readOnly) f.value = value;
  }
  const selects = byKey(live.querySelectorAll("select"), fieldKey);
  for (const [key, i, values] of place.chosen) {
    const f = selects.get(key)?.[i];
    if (f && !f.disabled) for (const o of f.options) o.selected = values.includes(o.value);
  }
  const boxes = byKey(live.querySelectorAll(
    "form input[type=radio], form input[type=checkbox]"), fieldKey);
  for (const [key, i, checked] of place.ticks) {
    const b = boxes.get(key)?.[i];
    if (b && !b.disabled) b.checked = checked;
  }
  const kinds = new Map();
  const active = document.activeElement;
  if (place.focus && (!active || active === document.body || !live.contains(active))) {
    const element = find(place.focus, kinds);
    if (element && !element.closest("[hidden]")) element.focus({ preventScroll: true });
  }
  window.scrollTo({ left: place.x, top: place.y, behavior: "instant" });
  // A page at its very top stays there: news at the top of the screen is seen.
  for (const [where, top] of place.y > 0 ? place.anchors : []) {
    const element = find(where, kinds);
    if (!element || element.closest("[hidden]")) continue;
    const moved = element.getBoundingClientRect().top - top;
    window.scrollBy({ left: 0, top: moved, behavior: "instant" });
    break;
  }
}

// ---- a refused action's message stays until the user acts again ----
// The socket answers a refusal with the error, then a fresh screen (facilitator/consumers.py),
// and other screens of the same moment follow as the class acts. That screen is not
// needless: the form's buttons were disabled when it was sent, and a refusal often means the
// screen was behind (a "stale" refusal: the lesson had moved on, which the message says). So
// the page keeps the message: it stays, the same element with the same text and its
// role="alert", across the screen that answers it (whatever its moment) and every later screen
// of that moment, until the user submits a form or a screen of another moment arrives.
let refusal = null;  // {text, phase}: phase null until the screen that answers it arrives
function keepRefusal(phase, before) {
  if (!refusal) return;
  if (refusal.phase === null) refusal.phase = phase || live.dataset.phase;
  else if (phase && refusal.phase !== phase) { refusal = null; return; }
  const box = live.querySelector("[data-error]");
  if (!box || (!box.hidden && box.textContent.trim())) return;  // the screen has its own
  if (before && before.textContent === refusal.text && !before.hidden) box.replaceWith(before);
  else { box.textContent = refusal.text; box.hidden = false; }
}
function clearRefusal() {
  refusal = null;
  const box = live.querySelector("[data-error]");
  if (box) { box.hidden = true; box.textContent = ""; }
}

// The phone: the ballot was counted in, so show "your token is in the bag" (rendered with the
// ballot, hidden) at once; the server sends no new screen for the voter's own ballot.
function showVoted(progress) {
  const voted = live.querySelector("[data-voted]");
  if (!voted) return;
  // The ballot's form leaves the page with the choice ticked in it: a phone picked up after
  // its vote shows only that its token is in the bag.
  // (Its button was disabled when it was sent, which already took the focus to the page.)
  const active = document.activeElement;
  const inForm = !active || active === document.body
    || [...live.querySelectorAll('form[data-action="ballot"]')].some((f) => f.contains(active));
  for (const form of live.querySelectorAll('form[data-action="ballot"]')) form.remove();
  for (const el of live.querySelectorAll("[data-hide-when-voted]")) el.hidden = true;
  const count = voted.querySelector("[data-progress]");
  if (count && progress && progress.text) count.textContent = progress.text;
  voted.hidden = false;
  // The focus was on the form that just left the page: it goes to the confirmation's heading
  // (read out), not to the page's start; a focus elsewhere stays there, and the confirmation
  // is told instead. The count follows, politely.
  const heading = voted.querySelector("h1, h2");
  const counted = progress && progress.text ? progress.text : "";
  if (inForm && heading) {
    heading.focus();
    announce(counted);
  } else {
    announce([heading ? said(heading) : "", counted].filter(Boolean).join(". "));
  }
}

function showError(text) {
  refusal = { text, phase: null };
  const box = live.querySelector("[data-error]");
  if (!box) return;
  box.textContent = text;
  box.hidden = false;
  // A phone scrolled down to the form it sent sees why it was refused (no move if in view).
  box.scrollIntoView({ block: "nearest" });
}

function send(message, resent = false) {
  // "on": the socket it went on; a view on any later socket sends it again (resendIfLost).
  pending = { id: message.id, message, on: socket, resent };
  socket.send(JSON.stringify(message));
}

function formMessage(form, submitter) {
  const data = new FormData(form);
  if (submitter && submitter.name) data.set(submitter.name, submitter.value);
  const message = {};
  // The platform's number fields, and a module's own: a control marked data-number holds a
  // whole number; a chosen control marked data-null means "none" (the message's null).
  const numbers = new Set(["seat", "table", "option"]);
  const nulls = new Set();
  for (const control of form.querySelectorAll("[name][data-number]")) numbers.add(control.name);
  for (const control of [...form.querySelectorAll("[name][data-null]"), submitter]) {
    if (!control || !("null" in control.dataset)) continue;
    if (control === submitter || control.checked) nulls.add(`${control.name}=${control.value}`);
  }
  for (const [key, value] of data.entries()) {
    if (key === "csrfmiddlewaretoken") continue;
    if (numbers.has(key) && /^-?\d+$/.test(value)) {
      message[key] = Number(value);
    } else if (key === "confirm") {
      message[key] = value === "1";
    } else if (nulls.has(`${key}=${value}`)) {
      message[key] = null;
    } else if (key === "fill" && value === "") {
      message[key] = null;
    } else {
      message[key] = value;
    }
  }
  // A fixed-length id: with the option sent as its index, every ballot's frame has the same
  // length whatever the vote (under TLS its size says nothing).
  message.id = `${Date.now().toString(36).padStart(9, "0")}${Math.random().toString(36)
    .slice(2, 8).padEnd(6, "0")}`;
  return message;
}

// ---- console only: a count with tokens missing asks first ("1 has not voted: count
// anyway?"); the same key or click again counts, sending "confirm" (the server refuses such
// a count without it, and then asks the same way); Esc waits. The question is for this
// moment of the lesson and this button only.
let armed = null;     // the moment of the lesson the question was asked for
let armedFor = null;  // the action it was asked for ("next:", "ballot_close:2")
function actionKey(message) {
  return `${message.type}:${message.table ?? ""}`;
}
function missingVotes() {
  let missing = 0;
  const small = [];
  for (const bag of live.querySelectorAll("[data-progress][data-of]")) {
    const voted = Number(bag.dataset.voted || 0);
    missing += Math.max(0, Number(bag.dataset.of) - voted);
    if (voted < 3 && voted < Number(bag.dataset.of) && bag.dataset.progress) small.push(bag.dataset.progress);
  }
  return { missing, small };
}
let armedText = null;
function showQuestion(text) {
  const box = live.querySelector("[data-confirm-box]");
  armedText = text;
  if (!box) return false;
  box.querySelector("[data-confirm-text]").textContent = text;
  box.hidden = false;
  return true;
}
function askFirst(button) {
  if (!button || !button.dataset.confirmOne || armed === live.dataset.phase) return false;
  const { missing, small } = missingVotes();
  if (missing === 0) return false;
  const box = live.querySelector("[data-confirm-box]");
  let text = (missing === 1 ? button.dataset.confirmOne : button.dataset.confirmOther)
    .replace("{n}", String(missing));
  if (small.length && box && box.dataset.small) text += " " + box.dataset.small.replace("{tables}", small.join(", "));
  if (!showQuestion(text)) return false;
  armed = live.dataset.phase;
  armedFor = "next:";
  return true;
}
function armAsked(key, text) {
  if (!showQuestion(text)) { showError(text); return; }
  armed = live.dataset.phase;
  armedFor = key;
}
function disarm() {
  armed = null;
  armedFor = null;
  armedText = null;
  const box = live.querySelector("[data-confirm-box]");
  if (box) box.hidden = true;
}

let pressed = null;  // the focused button whose form was sent: {id, key}, until the next screen
let timerSubmits = false;  // a countdown's own submit (data-expire) is not the user acting
let sentFrom = null;  // the last action sent from a form: {id, form (its key)}
document.addEventListener("submit", (event) => {
  const form = event.target;
  if (!timerSubmits) clearRefusal();  // the user acts again: an earlier refusal goes
  const message = form.dataset.action ? formMessage(form, event.submitter) : null;
  const key = message ? actionKey(message) : "";
  const confirming = armed !== null && armed === live.dataset.phase && armedFor === key;
  if (!confirming && event.submitter && event.submitter.value === "next"
      && askFirst(event.submitter)) {
    event.preventDefault();
    return;
  }
  if (confirming || (event.submitter && event.submitter.value === "next")) disarm();
  if (!form.dataset.action) return;
  const open = socket && socket.readyState === WebSocket.OPEN;
  if (confirming && !form.querySelector('input[name="confirm"]')) {
    // the form post (no socket) confirms the same way
    const input = document.createElement("input");
    Object.assign(input, { type: "hidden", name: "confirm", value: "1" });
    form.append(input);
  }
  // The socket cannot get through but the network is up: post the form (the HTTP fallback).
  if (!open && navigator.onLine !== false) return;
  event.preventDefault();
  if (confirming) message.confirm = true;
  sentFrom = { id: message.id, form: formKey(form) };
  if (open) {
    send(message);
  } else {
    // Offline, the action is kept (never a form post to the browser's "no internet" page):
    // it is sent as soon as the phone is back, if that moment of the lesson
    // is still on (resendIfLost), and counted once.
    pending = { id: message.id, message, on: null, resent: false };
    showBanner(true);
  }
  // (Only a keyboard's focus: a button clicked with the mouse is not given the focus back.)
  if (event.submitter && event.submitter === document.activeElement
      && event.submitter.matches(":focus-visible")) {
    pressed = { id: event.submitter.id, key: event.submitter.dataset.key };
  }
  for (const button of form.querySelectorAll("button")) button.disabled = true;
});

// Phones sleep: reconnect as soon as the page is visible or the network is back.
document.addEventListener("visibilitychange", () => { if (!document.hidden) connect(); });
window.addEventListener("online", connect);
// A phone that loses the wifi would keep a dead socket open until TCP gives up (minutes), and
// a socket closed while the network is down may not say "closed" until its closing handshake
// times out: the socket is let go at once, the banner shows, and the phone reconnects once the
// network is back ("online" above), getting a fresh view.
window.addEventListener("offline", () => {
  if (!socket) return;
  const dead = socket;
  socket = null;
  dead.close();
  lost();
});

// ---- console only: keyboard shortcuts (a clicker sends space, arrows or page down) ----
document.addEventListener("keydown", (event) => {
  if (!live.dataset.socket.startsWith("/ws/lesson/")) return;
  if (event.target.closest("input, textarea, select") || event.ctrlKey || event.metaKey || event.altKey) return;
  if (event.key === "Escape" && armed) { disarm(); return; }
  const keys = { " ": "next", ArrowRight: "next", PageDown: "next", u: "u", U: "u", p: "p", P: "p" };
  const key = keys[event.key];
  if (!key) return;
  // Space on a button, link or summary that the keyboard focused is that control's own key (a
  // keyboard teacher pressing Pause must not move the lesson on); Page Down and → still
  // press "next", and so does Space after a mouse click left the focus on a control.
  const control = event.target.closest("button, a[href], summary, [role=button]");
  if (event.key === " " && control && control.matches(":focus-visible")) return;
  const button = live.querySelector(`button[data-key="${key}"]`);
  if (button && !button.disabled) { event.preventDefault(); button.click(); }
});

// ---- every countdown (data-countdown, templates/facilitator/_countdown.html): the server
// keeps each timer (the stage's, a table's turn, one player's decision), so the console and
// every phone it concerns show the same time. A running one carries its end time on the
// server's clock (data-ends-at); the page counts down to it by the server's time, learnt
// from the page (#live's data-now) and from every screen's frame ("now"): this page's clock
// only measures the time since then, so a phone whose clock is wrong still shows the right
// time. A paused one (data-left, no data-running) stands still and says so. One marked
// data-expire (the console's) submits the form around it once, a second after zero: the
// server checks its own clock, takes the timer's stated default and sends a new view (or, if
// the time is not quite up, a new view to count down from). Pausing and adding 30 s to the
// stage's timer are the console's form buttons (sent like every other teacher action).
let serverAhead = 0;  // the server's clock minus this page's, in seconds
function noteServerTime(now) {
  if (typeof now === "number" && Number.isFinite(now)) serverAhead = now - Date.now() / 1000;
}
noteServerTime(Number(live.dataset.now));
let tick = null;
const expired = new WeakSet();  // the countdowns whose form was submitted (once each)
function clockText(s) {
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, "0")}`;
}
// A running countdown is told twice, as it passes 1 minute and 10 seconds left (not when a
// screen arrives with less time already left, and once per timer: its end time is its key).
const warned = new Set();
const WARNINGS = [[60, "warnMinute"], [10, "warnSeconds"]];
function warnTime(timer, s) {
  for (const [at, name] of WARNINGS) {
    const text = timer.element.dataset[name];
    const key = `${timer.endsAt}:${at}`;
    if (!text || warned.has(key) || timer.was === undefined || !(timer.was > at && s <= at)) continue;
    warned.add(key);
    announce(text);
  }
}
function startCountdowns() {
  clearInterval(tick);
  const timers = [];
  for (const element of live.querySelectorAll("[data-countdown]")) {
    const time = element.querySelector("[data-time]");
    if (!time) continue;
    const endsAt = Number(time.dataset.endsAt);
    const running = time.dataset.running !== undefined && Number.isFinite(endsAt);
    timers.push({ element, time, running, endsAt, stands: Number(time.dataset.left) || 0 });
  }
  if (!timers.length) return;
  const show = () => {
    for (const timer of timers) {
      const { element, time, running, endsAt, stands } = timer;
      const left = running ? endsAt - (Date.now() / 1000 + serverAhead) : stands;
      const s = Math.max(0, Math.ceil(left));
      time.textContent = clockText(s);
      if (running) warnTime(timer, s);
      timer.was = s;
      element.classList.toggle("done", running && s === 0);
      const form = element.dataset.expire !== undefined ? element.closest("form") : null;
      if (running && left <= -1 && form && !expired.has(element)) {
        expired.add(element);
        timerSubmits = true;
        try { form.requestSubmit(); } finally { timerSubmits = false; }
      }
    }
  };
  show();
  if (timers.some((t) => t.running)) tick = setInterval(show, 250);
}

noteServed();
startCountdowns();
applyFocus();
connect();
