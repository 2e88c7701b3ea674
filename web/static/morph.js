// Redraw the table panel by changing only what differs (web/ui/parts.py says how and why).

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

let partIds = null;
const told = new Map();

function patchNode(a, b) {
  if (a.nodeType !== Node.ELEMENT_NODE) {
    if (a.nodeValue !== b.nodeValue) a.nodeValue = b.nodeValue;
    return;
  }
  if (a.__mtTold !== undefined) {
    if (partIds !== null && partIds.has(a.id)) {
      patchAttributes(a, b);
      return;
    }
    a.__mtTold = undefined;
  }
  if (a.isEqualNode(b)) return;
  patchAttributes(a, b);
  patchChildren(a, b);
}

// A child's key: its data-slot (hand cards) or its id. Keyed children are matched by key, the
// others by position, with a look one node ahead for a node that came or went (a note shown
// before the log must not make the log, the dock and the hand be built anew).
const key = (node) => {
  if (node?.nodeType !== Node.ELEMENT_NODE) return undefined;
  if (node.dataset.slot !== undefined) return "slot " + node.dataset.slot;
  return node.id ? "id " + node.id : undefined;
};

function patchChildren(into, from) {
  const keyed = new Map();
  for (let c = into.firstElementChild; c; c = c.nextElementSibling) {
    if (key(c) !== undefined) keyed.set(key(c), c);
  }
  const wanted = new Set();
  for (let c = from.firstElementChild; c; c = c.nextElementSibling) wanted.add(key(c));
  const isWanted = (node) => key(node) !== undefined && wanted.has(key(node));
  let old = into.firstChild;
  let next = from.firstChild;
  while (next) {
    const following = next.nextSibling;
    const k = key(next);
    const kept = k === undefined ? undefined : keyed.get(k);
    keyed.delete(k);
    if (kept && sameKind(kept, next)) {
      // What stands before the kept node and is wanted nowhere goes, so the kept node stays put.
      while (old && old !== kept && !isWanted(old)) {
        const gone = old;
        old = old.nextSibling;
        into.removeChild(gone);
      }
      if (old === kept) old = old.nextSibling;
      else into.insertBefore(kept, old);
      patchNode(kept, next);
    } else if (!old || (isWanted(old) && key(old) !== k)) {
      into.insertBefore(next, old);
    } else if (sameKind(old, next)) {
      patchNode(old, next);
      old = old.nextSibling;
    } else if (old.nextSibling && !isWanted(old.nextSibling) && sameKind(old.nextSibling, next)) {
      const gone = old; // one node went
      old = old.nextSibling;
      into.removeChild(gone);
      patchNode(old, next);
      old = old.nextSibling;
    } else if (following && sameKind(old, following)) {
      into.insertBefore(next, old); // one node came
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

function parse(html) {
  const template = document.createElement("template");
  template.innerHTML = html;
  return template.content;
}

function logMark(element) {
  return element ? element.childElementCount + ":" + element.lastElementChild?.textContent : "";
}

export function morphParts(target, skeleton, changes, stickId) {
  const { ids, whole, moved } = JSON.parse(changes);
  const stick = document.getElementById(stickId);
  const before = logMark(stick);
  partIds = new Set(ids);
  try {
    if (skeleton != null) patchChildren(target, parse(skeleton));
  } finally {
    partIds = null;
  }
  for (const id of ids) fillPart(id, whole[id], moved[id]);
  const after = document.getElementById(stickId);
  if (after && (after !== stick || logMark(after) !== before)) stickToEnd(after);
}

// Scrolls `element` to its end in the next frame's animation callback: the layout its height asks
// for there is the one that frame makes anyway, not an extra one inside this task.
export function stickToEnd(element) {
  requestAnimationFrame(() => { element.scrollTop = element.scrollHeight; });
}

function fillPart(id, whole, shift) {
  const before = told.get(id) || [];
  let items = before;
  if (whole !== undefined) items = typeof whole === "string" ? [whole] : whole;
  else if (shift !== undefined) items = before.slice(shift[0]).concat(shift[1]);
  told.set(id, items);
  const element = document.getElementById(id);
  if (!element || element.__mtTold === items) return;
  if (element.__mtTold !== before) {
    element.replaceChildren(parse(items.join("")));
  } else if (typeof whole === "string") {
    patchChildren(element, parse(whole));
  } else if (whole !== undefined || element.childNodes.length !== before.length) {
    patchChildren(element, parse(items.join("")));
  } else {
    for (let i = 0; i < shift[0]; i++) element.firstChild.remove();
    if (shift[1].length) element.append(parse(shift[1].join("")));
  }
  element.__mtTold = items;
}
