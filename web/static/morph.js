// Redraw a panel by changing only what differs from its new HTML: unchanged nodes (buttons under
// the pointer, a focused field, scroll positions, running animations) stay as they are, and the
// browser lays out only the changed parts instead of re-parsing and re-laying out the whole panel.

function sameKind(a, b) {
  if (a.nodeType !== b.nodeType) return false;
  if (a.nodeType !== Node.ELEMENT_NODE) return true;
  return a.tagName === b.tagName && a.id === b.id;
}

function patchAttributes(a, b) {
  for (const { name } of [...a.attributes]) {
    if (!b.hasAttribute(name)) a.removeAttribute(name);
  }
  for (const { name, value } of b.attributes) {
    if (a.getAttribute(name) !== value) a.setAttribute(name, value);
  }
}

function patchNode(a, b) {
  if (a.nodeType !== Node.ELEMENT_NODE) {
    if (a.nodeValue !== b.nodeValue) a.nodeValue = b.nodeValue;
    return;
  }
  if (a.isEqualNode(b)) return;
  patchAttributes(a, b);
  patchChildren(a, b);
}

function patchChildren(into, from) {
  let old = into.firstChild;
  let next = from.firstChild;
  while (next) {
    const following = next.nextSibling;
    if (!old) {
      into.appendChild(next);
    } else if (sameKind(old, next)) {
      patchNode(old, next);
      old = old.nextSibling;
    } else {
      const replaced = old;
      old = old.nextSibling;
      into.replaceChild(next, replaced);
    }
    next = following;
  }
  while (old) {
    const extra = old.nextSibling;
    into.removeChild(old);
    old = extra;
  }
}

// Make `target`'s children those of `html`; keep the element `stickId` (a log) scrolled to its end
// when its content changed, after the next layout rather than forcing one now.
export function morph(target, html, stickId) {
  const template = document.createElement("template");
  template.innerHTML = html;
  const stick = stickId ? document.getElementById(stickId) : null;
  const before = stick ? stick.childElementCount + ":" + stick.lastElementChild?.textContent : "";
  patchChildren(target, template.content);
  const after = stickId ? document.getElementById(stickId) : null;
  if (!after) return;
  const now = after.childElementCount + ":" + after.lastElementChild?.textContent;
  if (after !== stick || now !== before) {
    requestAnimationFrame(() => { after.scrollTop = after.scrollHeight; });
  }
}
