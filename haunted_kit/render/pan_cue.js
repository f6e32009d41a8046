// The kit's pan cue: one piece of code for every board drawn wider than its box (a phone's board at
// a readable size), in the notebooks' and Voila's boards (haunted_kit.widgets.canvas.PanCue) and on
// the table server's pages (server_page.html's .hk-pan boxes). A plain script (no module syntax):
// the server page inlines it and the widget puts its render function after it.
//
// hkPanCue(box, cue, opts): box is the element that scrolls sideways (the board inside it), cue an
// element outside it (above it) that this fills with a line shown only while the board is wider than
// its box: "← left" and "right →" buttons (keyboard and mouse: each pans most of a box's width) around
// the words HK_PAN_WORDS. opts.live: the words are a live region, so a screen reader says them when
// the board starts to overflow (a notebook's board lives long; the server page has its own live
// region and redraws its boards at every move, so it says nothing there); opts.what: the board's
// name in the buttons' names ("the board"); opts.name: the box's name while it pans (it is then a
// focusable region the arrow keys scroll; nothing while it fits: no stop for the Tab key).
const HK_PAN_WORDS = "Swipe or scroll sideways to see the whole board.";
function hkPanName(what) {
  return `${what} drawn at a readable size: scroll or pan to see all of it`;
}
// hkPanName of "what" for box, numbered ("The field 2 ...") when another landmark of the page has that
// name already (a landmark's name is unique on the page: two boards of one kind on a page).
function hkPanUniqueName(box, what) {
  const taken = new Set([...document.querySelectorAll("[role=region][aria-label]")].filter(b => b !== box)
    .map(b => b.getAttribute("aria-label")));
  let name = hkPanName(what), n = 1;
  while (taken.has(name)) name = hkPanName(`${what} ${++n}`);
  return name;
}
function hkPanOver(box) {
  return box.scrollWidth > box.clientWidth + 1;
}
function hkPanCue(box, cue, opts) {
  opts = opts || {};
  if (cue.dataset.hkPanCue) return;
  cue.dataset.hkPanCue = "1";
  cue.classList.add("hk-pan-cue");
  cue.style.cssText = "display:flex;flex-wrap:wrap;align-items:center;gap:2px 8px;max-width:100%;" +
                      "font-family:sans-serif;font-size:14px;color:#222";
  const what = opts.what || "the board";
  const button = (words, dir) => {
    const b = document.createElement("button");
    b.type = "button";
    b.className = "hk-pan-" + dir;
    b.textContent = words;
    b.setAttribute("aria-label", `Pan ${what} ${dir}`);
    b.style.cssText = "font-family:sans-serif;font-size:14px;min-height:32px;padding:2px 10px;margin:2px 0";
    b.addEventListener("click", () => {
      box.scrollLeft += (dir === "left" ? -1 : 1) * Math.max(40, Math.round(box.clientWidth * 0.8));
    });
    return b;
  };
  const left = button("\u2190 left", "left"), right = button("right \u2192", "right");
  const words = document.createElement("span");
  words.className = "hk-pan-words";
  words.style.cssText = "flex:1 1 12em;text-align:center";
  if (opts.live) {
    words.setAttribute("role", "status");
    words.setAttribute("aria-live", "polite");
  }
  cue.append(left, words, right);
  const update = () => {
    const over = hkPanOver(box);
    left.hidden = right.hidden = !over;
    const say = over ? HK_PAN_WORDS : "";
    if (words.textContent !== say) words.textContent = say;
    if (opts.name) {
      if (over) {
        box.tabIndex = 0;
        if (box.getAttribute("role") !== "region") box.setAttribute("aria-label", hkPanUniqueName(box, opts.name));
        box.setAttribute("role", "region");
        box.setAttribute("data-lm-suppress-shortcuts", "true");  // JupyterLab leaves its arrow keys to it
      } else {
        box.removeAttribute("tabindex");
        box.removeAttribute("role");
        box.removeAttribute("aria-label");
      }
    }
  };
  update();
  if (window.ResizeObserver) {
    const seen = new ResizeObserver(update);
    seen.observe(box);
    for (const child of box.children) seen.observe(child);
    new MutationObserver(() => { for (const child of box.children) seen.observe(child); update(); })
      .observe(box, { childList: true });
  }
}
// Pan box so that the board's part from fraction x0 to x1 of its width is in view (centred when it
// is not): a question's cells, the keyboard's cursor. Nothing while the board fits.
function hkPanShow(box, x0, x1) {
  if (!hkPanOver(box) || !(x0 >= 0)) return;
  const w = box.scrollWidth, a = x0 * w, b = (x1 === undefined ? x0 : x1) * w;
  if (a >= box.scrollLeft && b <= box.scrollLeft + box.clientWidth) return;
  box.scrollLeft = Math.max(0, (a + b) / 2 - box.clientWidth / 2);
}
