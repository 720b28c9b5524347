// The graph as the page holds it: nodes, edges, adjacency, degree, search and n-hop sets.
import { nodeRadius } from "./theme.js";
import { Vocabulary } from "./vocab.js";

export class GraphModel {
  constructor(payload) {
    this.partition = payload.partition;
    this.vocab = new Vocabulary(payload.vocabulary);
    this.nodes = payload.nodes.map((n) => ({ ...n, degree: 0 }));
    this.byId = new Map(this.nodes.map((n) => [n.id, n]));
    this.edges = [];
    for (const e of payload.edges) {
      const source = this.byId.get(e.src);
      const target = this.byId.get(e.dst);
      if (!source || !target) continue;
      this.edges.push({ ...e, source, target });
      source.degree += 1;
      target.degree += 1;
    }
    this.adj = new Map(this.nodes.map((n) => [n.id, []]));
    for (const e of this.edges) {
      this.adj.get(e.src).push(e);
      if (e.dst !== e.src) this.adj.get(e.dst).push(e);
    }
    for (const n of this.nodes) {
      n.r = nodeRadius(n.kind, this.vocab.kindLayer(n.kind), n.degree);
      n.name = String(n.name ?? n.id);
      // In `_global` several projects have an "api" or a "web": say whose it is.
      n.label = this.partition === "_global" && n.kind === "component" && n.project ? `${n.project}/${n.name}` : n.name;
      n.lname = n.name.toLowerCase();
      n.lid = n.id.toLowerCase();
    }
  }

  /** Counts per node kind and per edge type, for the legend. */
  counts() {
    const kinds = new Map();
    const types = new Map();
    for (const n of this.nodes) kinds.set(n.kind, (kinds.get(n.kind) || 0) + 1);
    for (const e of this.edges) types.set(e.type, (types.get(e.type) || 0) + 1);
    return { kinds, types };
  }

  /** Ids of the `limit` most connected nodes (ties broken by id, so reloads agree). */
  topConnected(limit) {
    if (this.nodes.length <= limit) return new Set(this.nodes.map((n) => n.id));
    const sorted = [...this.nodes].sort((a, b) => b.degree - a.degree || (a.id < b.id ? -1 : 1));
    return new Set(sorted.slice(0, limit).map((n) => n.id));
  }

  /**
   * Hop distance from `id` over edges that pass `edgeOk`, up to `depth`, ignoring
   * direction (a neighbour is a neighbour for "what is around this").
   */
  hops(id, depth, edgeOk) {
    const dist = new Map([[id, 0]]);
    let frontier = [id];
    for (let d = 1; d <= depth && frontier.length; d++) {
      const next = [];
      for (const cur of frontier) {
        for (const e of this.adj.get(cur) || []) {
          if (!edgeOk(e)) continue;
          const other = e.src === cur ? e.dst : e.src;
          if (!dist.has(other)) {
            dist.set(other, d);
            next.push(other);
          }
        }
      }
      frontier = next;
    }
    return dist;
  }

  /** Suggestions for the search box: exact id, then name prefix, then substring. */
  search(query, limit = 12) {
    const q = query.trim().toLowerCase();
    if (!q) return [];
    const scored = [];
    for (const n of this.nodes) {
      let score = -1;
      if (n.lid === q) score = 0;
      else if (n.lname === q) score = 1;
      else if (n.lname.startsWith(q)) score = 2;
      else if (n.lname.includes(q)) score = 3;
      else if (n.lid.includes(q)) score = 4;
      if (score >= 0) scored.push([score, n.degree, n]);
    }
    scored.sort((a, b) => a[0] - b[0] || b[1] - a[1] || a[2].lname.localeCompare(b[2].lname));
    return scored.slice(0, limit).map((s) => s[2]);
  }

  /** One node's edges grouped by direction and type: [{dir, type, items:[{edge, other}]}]. */
  groupedEdges(id) {
    const groups = new Map();
    for (const e of this.adj.get(id) || []) {
      const dir = e.src === id ? "out" : "in";
      const key = `${dir}|${e.type}`;
      if (!groups.has(key)) groups.set(key, { dir, type: e.type, items: [] });
      groups.get(key).items.push({ edge: e, other: dir === "out" ? e.target : e.source });
    }
    const list = [...groups.values()];
    const order = (item) => Number(item.edge.attrs?.order ?? Infinity); // middleware chain order
    for (const g of list) g.items.sort((a, b) => order(a) - order(b) || a.other.lname.localeCompare(b.other.lname));
    list.sort((a, b) => (a.dir === b.dir ? a.type.localeCompare(b.type) : a.dir === "out" ? -1 : 1));
    return list;
  }
}

/** `project/component path:line` (or `path:line-end`) for a node or edge, or "". */
export function location(item) {
  if (!item.file) return "";
  const where = item.line ? `${item.file}:${item.line}${item.end_line && item.end_line !== item.line ? `-${item.end_line}` : ""}` : item.file;
  const owner = item.component ? `${item.project}/${item.component}` : item.project || "";
  return owner ? `${owner} ${where}` : where;
}
