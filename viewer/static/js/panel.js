// The evidence panel: what the selected node is, where it is defined, its attributes, and
// its edges grouped by direction and type (counts, expandable neighbour lists).
import { location } from "./graph.js";
import { edgeColor, kindColor } from "./theme.js";

const LIST_CAP = 200;

const el = (tag, attrs = {}, ...children) => {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (k === "class") node.className = v;
    else if (k === "style") node.style.cssText = v;
    else if (k.startsWith("on")) node.addEventListener(k.slice(2), v);
    else node.setAttribute(k, v);
  }
  for (const c of children) if (c != null) node.append(c);
  return node;
};

export function renderPanel(root, model, node, { onSelect, hiddenEdges, onHover }) {
  root.replaceChildren();
  if (!node) {
    root.append(
      el("div", { class: "panel-empty" },
        el("h2", {}, "Evidence"),
        el("p", {}, "Click a node or search for one to see where it is defined, its attributes and its edges."),
        el("p", { class: "muted" }, "Drag a node to pin it (double-click to unpin). Scroll to zoom, drag the background to pan."),
      ),
    );
    return;
  }
  const where = location(node);
  root.append(
    el("div", { class: "panel-head" },
      el("span", { class: "kind-badge", style: `--c:${kindColor(node.kind)}` }, node.kind),
      el("h2", { class: "node-name", title: node.name }, node.name),
      el("code", { class: "node-id", title: "node id" }, node.id),
      where ? el("div", { class: "node-loc", "data-testid": "node-loc" }, el("span", { class: "label" }, "defined at "), el("code", {}, where)) : null,
    ),
  );

  const attrs = Object.entries(node.attrs || {});
  const facts = [["project", node.project], ["component", node.component], ["degree", String(node.degree)]].filter(([, v]) => v);
  const table = el("table", { class: "attrs", "data-testid": "attrs" });
  for (const [k, v] of [...facts, ...attrs]) {
    const text = typeof v === "string" ? v : JSON.stringify(v);
    table.append(el("tr", {}, el("th", {}, k), el("td", {}, text)));
  }
  root.append(el("section", {}, el("h3", {}, "Attributes"), table));

  const groups = model.groupedEdges(node.id);
  const edgesBox = el("section", { class: "edge-groups", "data-testid": "edge-groups" },
    el("h3", {}, `Edges (${groups.reduce((s, g) => s + g.items.length, 0)})`));
  if (!groups.length) edgesBox.append(el("p", { class: "muted" }, "No edges per the static graph."));
  for (const g of groups) {
    const hidden = hiddenEdges.has(g.type);
    const arrow = g.dir === "out" ? "→" : "←";
    const details = el("details", { class: `edge-group${hidden ? " hidden-type" : ""}`, "data-type": g.type, "data-dir": g.dir });
    if (g.items.length <= 6 && groups.length <= 8) details.open = true;
    details.append(
      el("summary", {},
        el("span", { class: "swatch line", style: `--c:${edgeColor(g.type)}` }),
        el("span", { class: "etype" }, `${arrow} ${g.type}`),
        el("span", { class: "count" }, String(g.items.length)),
        hidden ? el("span", { class: "muted small" }, " hidden") : null,
      ),
    );
    const list = el("ul", {});
    for (const { edge, other } of g.items.slice(0, LIST_CAP)) {
      const loc = edge.file ? `${edge.file}${edge.line ? `:${edge.line}` : ""}` : "";
      const extra = edgeExtras(edge.attrs);
      list.append(
        el("li", {},
          el("button", { class: "nb", "data-id": other.id, title: other.id, onclick: () => onSelect(other.id), onmouseenter: () => onHover(other), onmouseleave: () => onHover(null) },
            el("span", { class: "dot", style: `--c:${kindColor(other.kind)}` }),
            el("span", { class: "nb-name" }, other.name),
            el("span", { class: "nb-kind" }, other.kind),
          ),
          loc || extra ? el("div", { class: "edge-meta" }, loc ? el("code", {}, loc) : null, extra ? el("span", {}, extra) : null) : null,
        ),
      );
    }
    if (g.items.length > LIST_CAP) list.append(el("li", { class: "muted" }, `+${g.items.length - LIST_CAP} more`));
    details.append(list);
    edgesBox.append(details);
  }
  root.append(edgesBox);
}

function edgeExtras(attrs) {
  if (!attrs) return "";
  const parts = [];
  for (const key of ["order", "via", "envs", "confidence"]) {
    if (attrs[key] == null) continue;
    const v = Array.isArray(attrs[key]) ? attrs[key].join("+") : attrs[key];
    parts.push(`${key} ${v}`);
  }
  return parts.join(" · ");
}
