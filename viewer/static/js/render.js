// Canvas renderer: edges batched by type and emphasis, nodes batched by kind, labels in
// screen space (only when zoomed in, or for the selection and its neighbours).
import { edgeColor, kindColor } from "./theme.js";

const LABEL_ZOOM = 1.6; // below this only emphasised nodes get labels
const MAX_LABELS = 450;

export class Renderer {
  constructor(canvas) {
    this.canvas = canvas;
    this.ctx = canvas.getContext("2d");
    this.t = { k: 1, x: 0, y: 0 }; // screen = world * k + (x, y)
    this.width = 0;
    this.height = 0;
    this.resize();
  }

  resize() {
    const rect = this.canvas.getBoundingClientRect();
    const dpr = window.devicePixelRatio || 1;
    this.width = rect.width;
    this.height = rect.height;
    this.canvas.width = Math.max(1, Math.round(rect.width * dpr));
    this.canvas.height = Math.max(1, Math.round(rect.height * dpr));
    this.dpr = dpr;
  }

  toWorld(sx, sy) {
    return [(sx - this.t.x) / this.t.k, (sy - this.t.y) / this.t.k];
  }

  toScreen(wx, wy) {
    return [wx * this.t.k + this.t.x, wy * this.t.k + this.t.y];
  }

  /** Zoom and centre so that `nodes` fill the canvas with a margin. */
  fit(nodes, insetLeft = 0) {
    if (!nodes.length) return;
    let [x0, y0, x1, y1] = [Infinity, Infinity, -Infinity, -Infinity];
    for (const n of nodes) {
      x0 = Math.min(x0, n.x - n.r);
      y0 = Math.min(y0, n.y - n.r);
      x1 = Math.max(x1, n.x + n.r);
      y1 = Math.max(y1, n.y + n.r);
    }
    const pad = 40;
    const w = Math.max(200, this.width - insetLeft);
    const k = Math.min(2.2, (w - 2 * pad) / Math.max(1, x1 - x0), (this.height - 2 * pad) / Math.max(1, y1 - y0));
    const cx = this.width - w / 2;
    this.t = { k, x: cx - ((x0 + x1) / 2) * k, y: this.height / 2 - ((y0 + y1) / 2) * k };
  }

  /** Nearest drawn node under a screen point, or null. */
  hit(nodes, sx, sy) {
    const [wx, wy] = this.toWorld(sx, sy);
    let best = null;
    let bestD = Infinity;
    const slop = 4 / this.t.k;
    for (const n of nodes) {
      const d = Math.hypot(n.x - wx, n.y - wy);
      if (d <= n.r + slop && d < bestD) {
        best = n;
        bestD = d;
      }
    }
    return best;
  }

  /**
   * view: {nodes, edges} to draw; hop: Map id -> hop distance (null when nothing is
   * selected); selected: id; hover: node or null.
   */
  draw({ nodes, edges, hop, selected, hover }) {
    const { ctx, t } = this;
    ctx.setTransform(this.dpr, 0, 0, this.dpr, 0, 0);
    ctx.fillStyle = "#0b1120";
    ctx.fillRect(0, 0, this.width, this.height);
    ctx.setTransform(this.dpr * t.k, 0, 0, this.dpr * t.k, this.dpr * t.x, this.dpr * t.y);
    this._edges(edges, hop);
    this._nodes(nodes, hop, selected);
    ctx.setTransform(this.dpr, 0, 0, this.dpr, 0, 0);
    this._labels(nodes, hop, selected, hover);
  }

  _edges(edges, hop) {
    const { ctx, t } = this;
    const batches = new Map();
    for (const e of edges) {
      let level = 1;
      if (hop) {
        const a = hop.get(e.src);
        const b = hop.get(e.dst);
        level = a !== undefined && b !== undefined && Math.min(a, b) === 0 ? 3 : a !== undefined && b !== undefined && Math.abs(a - b) === 1 ? 2 : 0;
      }
      const key = `${e.type}|${level}`;
      if (!batches.has(key)) batches.set(key, { type: e.type, level, edges: [] });
      batches.get(key).edges.push(e);
    }
    const alpha = [0.06, 0.45, 0.6, 0.95];
    const width = [0.8, 1, 1.4, 2];
    for (const b of [...batches.values()].sort((p, q) => p.level - q.level)) {
      ctx.strokeStyle = edgeColor(b.type);
      ctx.globalAlpha = alpha[b.level];
      ctx.lineWidth = width[b.level] / t.k;
      ctx.beginPath();
      for (const e of b.edges) {
        ctx.moveTo(e.source.x, e.source.y);
        ctx.lineTo(e.target.x, e.target.y);
      }
      ctx.stroke();
      if (b.level >= 2) this._arrows(b.edges);
    }
    ctx.globalAlpha = 1;
  }

  _arrows(edges) {
    const { ctx, t } = this;
    const size = 5 / t.k;
    ctx.fillStyle = ctx.strokeStyle;
    ctx.beginPath();
    for (const e of edges) {
      const dx = e.target.x - e.source.x;
      const dy = e.target.y - e.source.y;
      const len = Math.hypot(dx, dy);
      if (len < e.target.r + size * 2) continue;
      const ux = dx / len;
      const uy = dy / len;
      const tipX = e.target.x - ux * (e.target.r + 1 / t.k);
      const tipY = e.target.y - uy * (e.target.r + 1 / t.k);
      ctx.moveTo(tipX, tipY);
      ctx.lineTo(tipX - ux * size * 1.6 - uy * size * 0.7, tipY - uy * size * 1.6 + ux * size * 0.7);
      ctx.lineTo(tipX - ux * size * 1.6 + uy * size * 0.7, tipY - uy * size * 1.6 - ux * size * 0.7);
      ctx.closePath();
    }
    ctx.fill();
  }

  _nodes(nodes, hop, selected) {
    const { ctx, t } = this;
    const batches = new Map();
    for (const n of nodes) {
      const d = hop ? hop.get(n.id) : 1;
      const level = d === undefined ? 0 : d === 2 ? 1 : 2;
      const key = `${n.kind}|${level}`;
      if (!batches.has(key)) batches.set(key, { kind: n.kind, level, nodes: [] });
      batches.get(key).nodes.push(n);
    }
    const alpha = [0.12, 0.7, 1];
    for (const b of [...batches.values()].sort((p, q) => p.level - q.level)) {
      ctx.fillStyle = kindColor(b.kind);
      ctx.globalAlpha = alpha[b.level];
      ctx.beginPath();
      for (const n of b.nodes) {
        ctx.moveTo(n.x + n.r, n.y);
        ctx.arc(n.x, n.y, n.r, 0, 2 * Math.PI);
      }
      ctx.fill();
    }
    ctx.globalAlpha = 1;
    ctx.lineWidth = 1.2 / t.k;
    ctx.strokeStyle = "#0b1120";
    ctx.beginPath();
    for (const n of nodes) {
      if (n.fx == null) continue;
      ctx.moveTo(n.x + n.r * 0.35, n.y);
      ctx.arc(n.x, n.y, n.r * 0.35, 0, 2 * Math.PI); // pinned: a hole in the middle
    }
    ctx.stroke();
    const sel = selected && nodes.find((n) => n.id === selected);
    if (sel) {
      ctx.strokeStyle = "#f8fafc";
      ctx.lineWidth = 2.5 / t.k;
      ctx.beginPath();
      ctx.arc(sel.x, sel.y, sel.r + 4 / t.k, 0, 2 * Math.PI);
      ctx.stroke();
    }
  }

  _labels(nodes, hop, selected, hover) {
    const { ctx, t } = this;
    const zoomed = t.k >= LABEL_ZOOM;
    const picked = [];
    for (const n of nodes) {
      const d = hop ? hop.get(n.id) : undefined;
      const important = n.id === selected || d === 1 || n === hover || (hop && d === 2 && zoomed);
      const always = !hop && (n.kind === "project" || n.kind === "component") && t.k >= 0.5;
      if (!(important || always || (zoomed && !hop))) continue;
      const [sx, sy] = this.toScreen(n.x, n.y);
      if (sx < -50 || sy < -20 || sx > this.width + 50 || sy > this.height + 20) continue;
      picked.push([important ? 0 : 1, -n.degree, n, sx, sy]);
    }
    picked.sort((a, b) => a[0] - b[0] || a[1] - b[1]);
    ctx.font = "11.5px Inter, system-ui, -apple-system, Segoe UI, sans-serif";
    ctx.textBaseline = "middle";
    ctx.lineJoin = "round";
    for (const [, , n, sx, sy] of picked.slice(0, MAX_LABELS)) {
      const text = n.label.length > 48 ? `${n.label.slice(0, 47)}…` : n.label;
      const x = sx + n.r * t.k + 4;
      ctx.lineWidth = 3.5;
      ctx.strokeStyle = "rgba(11,17,32,0.9)";
      ctx.strokeText(text, x, sy);
      ctx.fillStyle = n.id === selected ? "#ffffff" : "#cbd5e1";
      ctx.fillText(text, x, sy);
    }
  }
}
