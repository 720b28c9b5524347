// Find a node by name or id: suggestions as you type, arrows + Enter, or a click.
import { kindColor } from "./theme.js";

export function attachSearch(input, list, getModel, onPick) {
  let items = [];
  let active = 0;

  const close = () => {
    list.hidden = true;
    list.replaceChildren();
    items = [];
  };

  const show = () => {
    const model = getModel();
    items = model ? model.search(input.value) : [];
    active = 0;
    list.replaceChildren();
    if (!input.value.trim()) return close();
    if (!items.length) {
      const li = document.createElement("li");
      li.className = "none";
      li.textContent = "no node matches";
      list.append(li);
    }
    items.forEach((n, i) => {
      const li = document.createElement("li");
      li.className = i === active ? "active" : "";
      li.dataset.id = n.id;
      const dot = document.createElement("span");
      dot.className = "dot";
      dot.style.setProperty("--c", kindColor(n.kind));
      const name = document.createElement("span");
      name.className = "s-name";
      name.textContent = n.name;
      const id = document.createElement("span");
      id.className = "s-id";
      id.textContent = n.id;
      li.append(dot, name, id);
      li.addEventListener("mousedown", (ev) => {
        ev.preventDefault();
        pick(n);
      });
      list.append(li);
    });
    list.hidden = false;
  };

  const pick = (n) => {
    input.value = n.name;
    close();
    input.blur();
    onPick(n.id);
  };

  const highlight = () => {
    [...list.children].forEach((li, i) => li.classList.toggle("active", i === active));
  };

  input.addEventListener("input", show);
  input.addEventListener("focus", () => input.value && show());
  input.addEventListener("blur", () => setTimeout(close, 100));
  input.addEventListener("keydown", (ev) => {
    if (ev.key === "ArrowDown" && items.length) {
      active = (active + 1) % items.length;
      highlight();
      ev.preventDefault();
    } else if (ev.key === "ArrowUp" && items.length) {
      active = (active - 1 + items.length) % items.length;
      highlight();
      ev.preventDefault();
    } else if (ev.key === "Enter" && items.length) {
      pick(items[active]);
      ev.preventDefault();
    } else if (ev.key === "Escape") {
      close();
      input.blur();
    }
  });
}
