// The viewer's state machine: which partition, which nodes are in the view, what is
// selected and highlighted, what is hidden; every change redraws and rewrites the URL.
import { GraphModel } from "./graph.js";
import { attachInteraction } from "./interact.js";
import { Layout } from "./layout.js";
import { renderLegend } from "./legend.js";
import { renderPanel } from "./panel.js";
import { Renderer } from "./render.js";
import { attachSearch } from "./search.js";
import { writeState } from "./urlstate.js";

export const FIRST_VIEW_CAP = 1500;
const EXTRA_NEIGHBOURS = 300;

export class App {
  constructor(dom, state, ui) {
    this.dom = dom;
    this.state = state; // see urlstate.readState
    this.ui = ui; // {notice(text, level), overlay(html|null), status(text)}
    this.model = null;
    this.layout = null;
    this.viewIds = new Set();
    this.hop = null;
    this.hover = null;
    this.autoFit = !state.transform;
    this.stats = { loadMs: null, settleMs: null, ticks: 0, settled: false };
    this.renderer = new Renderer(dom.canvas);
    this._frame = null;
    attachInteraction(dom.canvas, this.renderer, {
      nodes: () => this.visibleNodes,
      onSelect: (n) => this.select(n ? n.id : null),
      onHover: (n) => this.setHover(n),
      onView: () => {
        this.autoFit = false;
        this.state.transform = { ...this.renderer.t };
        this.requestDraw();
        this._writeUrlSoon();
      },
      onDragStart: () => {
        this.stats.settled = false;
        this.layout?.reheat();
      },
      onDragMove: () => this.requestDraw(),
      onDragEnd: () => this.layout?.cool(),
    });
    attachSearch(dom.search, dom.suggestions, () => this.model, (id) => this.select(id, { reveal: true }));
    new ResizeObserver(() => {
      this.renderer.resize();
      if (this.autoFit) this.renderer.fit(this.visibleNodes, this._inset());
      this.requestDraw();
    }).observe(dom.canvas);
  }

  /** Replace the graph with a freshly fetched partition payload. */
  load(payload, loadMs) {
    this.layout?.stop();
    this.model = new GraphModel(payload);
    this.stats = { loadMs, settleMs: null, ticks: 0, settled: false };
    this.hop = null;
    const sel = this.state.selected;
    if (sel && !this.model.byId.has(sel)) {
      this.ui.notice(`Node “${sel}” is not in partition “${payload.partition}” — showing the partition.`, "warn");
      this.state.selected = null;
    }
    if (!this.model.nodes.length) {
      this.ui.overlay(`<h2>Partition “${escapeHtml(payload.partition)}” is empty</h2><p>It was published with no nodes. Pick another partition above, or check the build's problems with <code>kb status</code>.</p>`);
    } else {
      this.ui.overlay(null);
    }
    this._computeView();
    if (this.state.selected) this._extend(this.state.selected);
    this._startLayout(1);
    this._afterChange();
  }

  get visibleNodes() {
    if (!this.model) return [];
    if (!this._visible) {
      const hk = this.state.hiddenKinds;
      const nodes = this.model.nodes.filter((n) => this.viewIds.has(n.id) && !hk.has(n.kind));
      const ids = new Set(nodes.map((n) => n.id));
      const edges = this.model.edges.filter((e) => ids.has(e.src) && ids.has(e.dst) && !this.state.hiddenEdges.has(e.type));
      this._visible = { nodes, edges, ids };
    }
    return this._visible.nodes;
  }

  get visibleEdges() {
    this.visibleNodes;
    return this._visible ? this._visible.edges : [];
  }

  get capped() {
    return !!this.model && this.viewIds.size < this.model.nodes.length;
  }

  _computeView() {
    this.viewIds = this.state.showAll ? new Set(this.model.byId.keys()) : this.model.topConnected(FIRST_VIEW_CAP);
    this._visible = null;
  }

  /** Bring a node outside the capped view in, with its nearest neighbours. */
  _extend(id) {
    if (this.viewIds.has(id)) return false;
    const near = [...this.model.hops(id, 2, () => true).keys()].slice(0, EXTRA_NEIGHBOURS);
    const anchor = near.map((n) => this.model.byId.get(n)).find((n) => this.viewIds.has(n.id) && n.x != null);
    for (const nid of near) {
      const n = this.model.byId.get(nid);
      if (!this.viewIds.has(nid) && anchor && n.x == null) {
        n.x = anchor.x + (Math.random() - 0.5) * 40;
        n.y = anchor.y + (Math.random() - 0.5) * 40;
      }
      this.viewIds.add(nid);
    }
    this._visible = null;
    return true;
  }

  _startLayout(alpha) {
    this.layout?.stop();
    const nodes = this.model.nodes.filter((n) => this.viewIds.has(n.id));
    const links = this.model.edges.filter((e) => this.viewIds.has(e.src) && this.viewIds.has(e.dst));
    this.stats.settled = false;
    if (!nodes.length) {
      this.stats.settled = true;
      this.stats.settleMs = 0;
      this._status();
      return;
    }
    this.layout = new Layout(nodes, links, {
      alpha,
      onFrame: () => {
        // A big graph's painting competes with its layout: while it moves, paint ~6/s.
        this.stats.ticks = this.layout.ticks;
        const now = performance.now();
        if (nodes.length < 2000 || now - (this._lastLayoutDraw || 0) > 160) {
          this._lastLayoutDraw = now;
          this.requestDraw();
        }
      },
      onSettled: ({ ms, ticks, tickMs }) => {
        this.stats.settled = true;
        this.stats.tickMs = tickMs;
        this.stats.settleMs ??= ms;
        this.stats.ticks = ticks;
        if (this.autoFit) {
          this.renderer.fit(this.visibleNodes, this._inset());
          this.state.transform = { ...this.renderer.t };
          this.autoFit = false;
          this._writeUrl();
        }
        this.draw();
        this._status();
      },
    });
    if (this.state.transform) this.renderer.t = { ...this.state.transform };
    this._status();
  }

  showAll() {
    if (!this.model || this.state.showAll) return;
    this.state.showAll = true;
    this.autoFit = true;
    this.state.transform = null;
    this.stats.settleMs = null;
    this._computeView();
    this._startLayout(0.6);
    this._afterChange();
  }

  select(id, { reveal = false } = {}) {
    if (!this.model) return;
    if (id && !this.model.byId.has(id)) {
      this.ui.notice(`Node “${id}” is not in partition “${this.model.partition}”.`, "warn");
      id = null;
    }
    this.state.selected = id;
    if (id && this._extend(id)) this._startLayout(0.3);
    if (id && reveal) this._center(this.model.byId.get(id));
    this._afterChange();
  }

  /** Take the view a person typed or pasted into an open tab's URL (its hash changed). */
  applyState(next) {
    if (!this.model) return;
    const s = this.state;
    s.hops = next.hops;
    s.hiddenKinds = next.hiddenKinds;
    s.hiddenEdges = next.hiddenEdges;
    this._visible = null;
    if (next.showAll !== s.showAll) {
      s.showAll = next.showAll;
      this._computeView();
      this._startLayout(0.6);
    }
    if (next.transform) {
      s.transform = { ...next.transform };
      this.renderer.t = { ...next.transform };
      this.autoFit = false;
    }
    this.select(next.selected, { reveal: !!next.selected && !next.transform });
  }

  setHops(h) {
    this.state.hops = h;
    this._afterChange();
  }

  toggle(kindOrEdge, name) {
    const set = kindOrEdge === "kind" ? this.state.hiddenKinds : this.state.hiddenEdges;
    if (set.has(name)) set.delete(name);
    else set.add(name);
    this._visible = null;
    this._afterChange();
  }

  setHover(n) {
    if (n === this.hover) return;
    this.hover = n;
    this.dom.canvas.style.cursor = n ? "pointer" : "grab";
    this.requestDraw();
  }

  fit() {
    this.renderer.fit(this.visibleNodes, this._inset());
    this.state.transform = { ...this.renderer.t };
    this.requestDraw();
    this._writeUrl();
  }

  /** Width the floating legend covers, so "fit" keeps the graph beside it. */
  _inset() {
    const legend = this.dom.legendBox;
    return legend && legend.offsetWidth && this.renderer.width > 600 ? legend.offsetWidth + 24 : 0;
  }

  _center(node) {
    if (node.x == null) return;
    const t = this.renderer.t;
    const k = Math.max(t.k, 1.2);
    this.renderer.t = { k, x: this.renderer.width / 2 + this._inset() / 2 - node.x * k, y: this.renderer.height / 2 - node.y * k };
    this.autoFit = false;
    this.state.transform = { ...this.renderer.t };
  }

  /** Recompute highlight, panel, legend, URL and redraw after any state change. */
  _afterChange() {
    this.visibleNodes;
    const sel = this.state.selected;
    const edgeOk = (e) => this._visible.ids.has(e.src) && this._visible.ids.has(e.dst) && !this.state.hiddenEdges.has(e.type);
    this.hop = sel ? this.model.hops(sel, this.state.hops, edgeOk) : null;
    renderPanel(this.dom.panel, this.model, sel ? this.model.byId.get(sel) : null, {
      onSelect: (id) => this.select(id, { reveal: true }),
      onHover: (n) => this.setHover(n),
      hiddenEdges: this.state.hiddenEdges,
    });
    renderLegend(this.dom.legend, this.model, this.state, (k, n) => this.toggle(k, n));
    this.dom.hops.forEach((b) => b.classList.toggle("on", Number(b.dataset.hops) === this.state.hops));
    this._status();
    this._writeUrl();
    this.requestDraw();
  }

  _status() {
    if (!this.model) return;
    const total = this.model.nodes.length;
    const shown = this.viewIds.size;
    const showAllBtn = this.dom.showAll;
    showAllBtn.hidden = !this.capped;
    showAllBtn.textContent = `Show all ${total.toLocaleString()} nodes`;
    const parts = [
      `${this.visibleNodes.length.toLocaleString()} of ${total.toLocaleString()} nodes`,
      `${this.visibleEdges.length.toLocaleString()} edges`,
    ];
    if (shown < total) parts.push(`top ${shown.toLocaleString()} by connections`);
    parts.push(this.stats.settled ? `layout settled${this.stats.settleMs != null ? ` in ${(this.stats.settleMs / 1000).toFixed(1)} s` : ""}` : "laying out…");
    this.ui.status(parts.join(" · "));
  }

  requestDraw() {
    if (this._frame === null) this._frame = requestAnimationFrame(() => this.draw());
  }

  draw() {
    if (this._frame !== null) cancelAnimationFrame(this._frame);
    this._frame = null;
    if (!this.model) return;
    if (this.autoFit && !this.stats.settled) this.renderer.fit(this.visibleNodes, this._inset());
    this.renderer.draw({ nodes: this.visibleNodes, edges: this.visibleEdges, hop: this.hop, selected: this.state.selected, hover: this.hover });
  }

  _writeUrl() {
    clearTimeout(this._urlTimer);
    writeState(this.state);
  }

  _writeUrlSoon() {
    clearTimeout(this._urlTimer);
    this._urlTimer = setTimeout(() => writeState(this.state), 200);
  }
}

export function escapeHtml(s) {
  return String(s).replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c]);
}
