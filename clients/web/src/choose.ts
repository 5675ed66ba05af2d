// Choices made on the board: the server's legal actions, grouped by the keys a game's
// board module gives each one (steps()), are offered one step at a time. The keys of the
// next step are highlighted on the board (focusable, Enter/Space, named for screen
// readers); a key with no place on the board becomes a button. When one action is left it
// is sent; a decision with one legal action is taken for the player unless they turn that off.
import { sharedWords, type Choice, type Ctx, type GameBoard } from "./kit";

const AUTO = "parlour:auto-forced";

/** Keys clicked so far, and which of them the player clicked (the rest followed alone). */
let chosen: string[] = [];
let clicked: number[] = [];
/** The decision the keys belong to (its labels): a new decision starts from no key. */
let decision = "";
/** The version a lone action was already sent at (sent once, even if refused). */
let autoSentAt = "";
/** What is offered now (a redraw of the same board and decision changes nothing). */
let shown: { root: Element; key: string } | null = null;

export interface Offer {
  board: GameBoard;
  ctx: Ctx;
  /** The drawn board, already in the page. */
  root: Element;
  /** Where the prompt, buttons and the "play forced moves" box go. */
  panel: HTMLElement;
  choices: Choice[];
  /** Actions cannot be sent now (one is on its way). */
  busy: boolean;
  version: string;
  act(index: number): void;
}

/** Whether lone actions are played for the player (on unless they turned it off). */
export function autoForced(): boolean {
  return localStorage.getItem(AUTO) !== "off";
}

function el(tag: string, text = "", className = ""): HTMLElement {
  const node = document.createElement(tag);
  if (text) node.textContent = text;
  if (className) node.className = className;
  return node;
}

/** Offer the choices on the board; redrawn after every click. */
export function offer(o: Offer): void {
  const key = o.choices.map((c) => c.label).join("\n");
  const same = `${key}\n${o.busy}\n${o.version}`;
  if (shown?.root === o.root && shown.key === same) return;
  shown = { root: o.root, key: same };
  if (key !== decision) {
    decision = key;
    chosen = [];
    clicked = [];
  }
  render(o);
}

function render(o: Offer): void {
  unmark(o.root);
  const all = o.choices.map((choice, index) => ({ choice, index, steps: o.board.steps(choice, o.ctx) }));
  let left = all.filter((c) => chosen.every((k, i) => c.steps[i] === k));
  if (!left.length) {
    chosen = [];
    clicked = [];
    left = all;
  }
  const nextOf = (c: (typeof all)[number]) => c.steps[chosen.length] ?? `=${c.index}`;
  let next = [...new Set(left.map(nextOf))];
  // Every action left agrees on the next key: it is not a choice, so take it.
  while (next.length === 1 && left.length > 1) {
    chosen.push(next[0]);
    next = [...new Set(left.map(nextOf))];
  }
  const lone = left.length === 1 && (chosen.length > 0 || o.choices.length === 1);
  const panel = o.panel;
  panel.replaceChildren();
  const prompt = el("p", "", "prompt");
  prompt.id = "step-prompt";
  panel.append(prompt);
  if (lone && !o.busy && (clicked.length > 0 || (autoForced() && autoSentAt !== o.version))) {
    if (!clicked.length) autoSentAt = o.version;
    prompt.textContent = o.choices.length === 1 ? `Played for you (the only choice): ${left[0].choice.label}` : left[0].choice.label;
    chosen = [];
    clicked = [];
    o.act(left[0].index);
    return;
  }
  prompt.textContent = o.board.prompt?.(o.ctx, chosen, next) ?? (chosen.length ? "Now choose one of the highlighted places." : "Your turn: choose one of the highlighted places.");
  const buttons = el("div", "", "choice-buttons");
  for (const k of next) {
    const with_ = left.filter((c) => nextOf(c) === k);
    const labels = with_.map((c) => c.choice.label);
    // never the key itself: the one action's words, the game's, the words all share, or
    // (on the board) the place's own name, else every action's words
    const words = with_.length === 1 ? labels[0] : o.board.keyLabel?.(k, o.ctx) ?? sharedWords(labels) ?? "";
    const go = () => {
      if (o.busy) return;
      clicked.push(chosen.length);
      chosen.push(k);
      render(o);
    };
    const places = k.startsWith("=") ? [] : [...o.root.querySelectorAll(`[data-target="${CSS.escape(k)}"]`)];
    if (!places.length) {
      const button = el("button", words || labels.join(" or ")) as HTMLButtonElement;
      button.dataset.target = k;
      button.dataset.legal = "1";
      button.disabled = o.busy;
      button.onclick = go;
      buttons.append(button);
      continue;
    }
    for (const place of places) mark(place, words, go);
  }
  for (const k of chosen) for (const place of o.root.querySelectorAll(`[data-target="${CSS.escape(k)}"]`)) place.classList.add("chosen");
  panel.append(buttons);
  if (clicked.length) {
    const back = el("button", "Back", "back") as HTMLButtonElement;
    back.onclick = () => {
      chosen.length = clicked.pop() ?? 0;
      render(o);
    };
    buttons.append(back);
  }
  panel.append(autoBox());
}

/** Every place marked before is a plain picture again. */
function unmark(root: Element): void {
  for (const node of root.querySelectorAll<HTMLElement>(".legal, .chosen")) {
    node.classList.remove("legal", "chosen");
    delete node.dataset.legal;
    node.removeAttribute("tabindex");
    node.setAttribute("role", node.dataset.role ?? "img");
    node.setAttribute("aria-label", node.dataset.aria ?? "");
    node.onclick = null;
    node.onkeydown = null;
  }
}

/** A place on the board made a target: highlighted, focusable, clicked or Enter/Space. */
function mark(place: Element, words: string, go: () => void): void {
  const node = place as HTMLElement;
  node.classList.add("legal");
  node.dataset.legal = "1";
  node.dataset.role ??= node.getAttribute("role") ?? "img";
  node.dataset.aria ??= node.getAttribute("aria-label") ?? "";
  node.setAttribute("tabindex", "0");
  node.setAttribute("role", "button");
  const own = node.dataset.aria;
  node.setAttribute("aria-label", !words || words === own ? own || words : own ? `${words} (${own})` : words);
  node.onclick = (event) => { event.stopPropagation(); go(); };
  node.onkeydown = (event) => {
    if (event.key === "Enter" || event.key === " ") {
      event.preventDefault();
      go();
    }
  };
}

function autoBox(): HTMLElement {
  const box = el("label", "", "auto");
  const input = document.createElement("input");
  input.type = "checkbox";
  input.checked = autoForced();
  input.onchange = () => localStorage.setItem(AUTO, input.checked ? "on" : "off");
  box.append(input, " Play my move for me when it is the only one");
  return box;
}
