// The few DOM helpers the page needs: no framework, every node built with textContent (nothing the user pastes is
// ever parsed as HTML).

type Child = Node | string | null | undefined | false;

/**
 * An element with attributes (`class`, `data-*`, `title`, …) and children; strings become text nodes.
 *
 * @example
 * h("span", { class: "token" }, "<|im_start|>");
 */
export function h<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  attributes: Record<string, string | undefined> = {},
  ...children: Child[]
): HTMLElementTagNameMap[K] {
  const element = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes))
    if (value !== undefined) element.setAttribute(name, value);
  for (const child of children) {
    if (child === null || child === undefined || child === false) continue;
    element.append(typeof child === "string" ? document.createTextNode(child) : child);
  }
  return element;
}

/**
 * The element with this id (the page's own markup: a missing one is a bug, thrown at start).
 *
 * @example
 * byId<HTMLTextAreaElement>("template-source").value;
 */
export function byId<T extends HTMLElement>(id: string): T {
  const element = document.getElementById(id);
  if (element === null) throw new Error(`the page has no #${id}`);
  return element as T;
}

/**
 * Replaces the children of `element`.
 *
 * @example
 * fill(byId("issues"), h("li", {}, "none"));
 */
export function fill(element: Element, ...children: Child[]): void {
  element.replaceChildren(
    ...children.filter(
      (child): child is Node | string => child !== null && child !== undefined && child !== false,
    ),
  );
}

/**
 * A button that copies `text()` to the clipboard and says so.
 *
 * @example
 * copyButton("Copy", () => rendered);
 */
export function copyButton(label: string, text: () => string, testId?: string): HTMLButtonElement {
  const button = h("button", { type: "button", class: "copy", "data-testid": testId }, label);
  button.addEventListener("click", async () => {
    try {
      await navigator.clipboard.writeText(text());
      button.textContent = "Copied";
    } catch {
      button.textContent = "Copy failed";
    }
    setTimeout(() => {
      button.textContent = label;
    }, 1500);
  });
  return button;
}
