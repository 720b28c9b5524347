// The graph vocabulary (node kinds and edge types per layer) as the server sends it with
// each partition (`vocabulary` in /api/graph, from the Python `vocab` package): the legend
// groups and orders by it, and node sizes depend on a kind's layer.

export class Vocabulary {
  constructor(json) {
    this.nodeKinds = json?.node_kinds ?? {};
    this.edgeTypes = json?.edge_types ?? {};
    this.kindOrder = Object.values(this.nodeKinds).flat();
    this.typeOrder = Object.values(this.edgeTypes).flat();
  }

  /** "knowledge", "code", "catalog", or "other" for a kind the vocabulary does not know. */
  kindLayer(kind) {
    for (const [layer, kinds] of Object.entries(this.nodeKinds)) if (kinds.includes(kind)) return layer;
    return "other";
  }

  /** Stable ordering for legends: vocabulary order first, then anything else by name. */
  orderKinds(kinds) {
    return [...kinds].sort((a, b) => rank(this.kindOrder, a) - rank(this.kindOrder, b) || a.localeCompare(b));
  }

  orderEdgeTypes(types) {
    return [...types].sort((a, b) => rank(this.typeOrder, a) - rank(this.typeOrder, b) || a.localeCompare(b));
  }
}

function rank(order, item) {
  const i = order.indexOf(item);
  return i < 0 ? order.length : i;
}
