// The legend: one row per node kind and edge type present, with its colour and count; a
// click shows or hides that kind/type (the choice is kept in the URL). Grouped and ordered
// by the vocabulary the server sent with the partition (model.vocab).
import { edgeColor, kindColor } from "./theme.js";

export function renderLegend(root, model, state, onToggle) {
  root.replaceChildren();
  const { kinds, types } = model.counts();
  const section = (title, items, hiddenSet, colorOf, cls, kindOf) => {
    const box = document.createElement("div");
    box.className = "legend-section";
    const h = document.createElement("h4");
    h.textContent = title;
    box.append(h);
    for (const [name, count] of items) {
      const row = document.createElement("button");
      row.className = `legend-row ${cls}${hiddenSet.has(name) ? " off" : ""}`;
      row.dataset.kind = kindOf;
      row.dataset.name = name;
      row.title = `${hiddenSet.has(name) ? "show" : "hide"} ${name}`;
      row.setAttribute("aria-pressed", String(!hiddenSet.has(name)));
      const sw = document.createElement("span");
      sw.className = `swatch ${cls === "edge" ? "line" : ""}`;
      sw.style.setProperty("--c", colorOf(name));
      const label = document.createElement("span");
      label.className = "legend-name";
      label.textContent = name;
      const c = document.createElement("span");
      c.className = "count";
      c.textContent = count.toLocaleString();
      row.append(sw, label, c);
      row.addEventListener("click", () => onToggle(kindOf, name));
      box.append(row);
    }
    return box;
  };
  const { vocab } = model;
  const kindItems = vocab.orderKinds(kinds.keys()).map((k) => [k, kinds.get(k)]);
  const layers = new Map();
  for (const item of kindItems) {
    const layer = vocab.kindLayer(item[0]);
    if (!layers.has(layer)) layers.set(layer, []);
    layers.get(layer).push(item);
  }
  for (const [layer, items] of layers) {
    root.append(section(`${layer} nodes`, items, state.hiddenKinds, kindColor, "node", "kind"));
  }
  const typeItems = vocab.orderEdgeTypes(types.keys()).map((t) => [t, types.get(t)]);
  if (typeItems.length) root.append(section("edges", typeItems, state.hiddenEdges, edgeColor, "edge", "edge"));
}
