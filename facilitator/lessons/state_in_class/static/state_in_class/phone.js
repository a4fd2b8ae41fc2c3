// State in Class phones: a choice sent with nothing chosen shows our own message (the
// form's [data-choose-first], in the lesson's language) instead of the browser's bubble.
// The form keeps its `required` radios, and the server still refuses a message without a
// choice. Listeners on the document: they outlive the screens the live page swaps in.
document.addEventListener("invalid", (event) => {
  const form = event.target.form;
  const note = form && form.querySelector("[data-choose-first]");
  if (!note) return;
  event.preventDefault();
  note.hidden = false;
  const first = form.querySelector("input:invalid");
  if (first && document.activeElement !== first) first.focus();
}, true);
document.addEventListener("change", (event) => {
  const note = event.target.form && event.target.form.querySelector("[data-choose-first]");
  if (note) note.hidden = true;
});
