// Force-directed layout (d3-force) driven by our own loop: ticks run in short chunks off
// the paint loop (a slow software raster must not slow the layout down), the page redraws
// at most once per frame, and the layout stops for good — when alpha cools below alphaMin or at a
// hard tick cap — so a 5,000-node graph settles in seconds and the CPU goes idle.
import {
  forceCollide,
  forceLink,
  forceManyBody,
  forceSimulation,
  forceX,
  forceY,
} from "../vendor/d3-force.js";

const CHUNK_MS = 24; // ticks per chunk; input events run between chunks

export class Layout {
  /**
   * nodes: objects that get x/y (fx/fy pin them); links: {source, target} node objects.
   * onFrame(): called after each frame's ticks; onSettled(stats): once when it stops.
   */
  constructor(nodes, links, { onFrame, onSettled, alpha = 1 }) {
    const big = nodes.length > 1500;
    this.maxTicks = big ? 220 : 320;
    this.onFrame = onFrame;
    this.onSettled = onSettled;
    this.ticks = 0;
    this.tickMs = 0;
    this.settled = false;
    this.startedAt = performance.now();
    this.sim = forceSimulation(nodes)
      .alphaDecay(big ? 0.045 : nodes.length > 500 ? 0.04 : 0.03)
      .velocityDecay(0.45)
      .force(
        "link",
        forceLink(links)
          .distance((l) => (l.source.kind === "code_file" || l.target.kind === "code_file" ? 26 : 38))
          .iterations(1),
      )
      .force("charge", forceManyBody().strength(big ? -28 : -70).theta(big ? 1.1 : 0.9).distanceMax(big ? 320 : 500))
      .force("x", forceX(0).strength(big ? 0.03 : 0.05))
      .force("y", forceY(0).strength(big ? 0.03 : 0.05))
      .alpha(alpha)
      .stop();
    if (!big) this.sim.force("collide", forceCollide((n) => n.r + 2).iterations(1));
    this.frame = null;
    this._schedule();
  }

  _schedule() {
    if (this.frame === null) this.frame = setTimeout(() => this._run(), 0);
  }

  _run() {
    this.frame = null;
    const start = performance.now();
    const sim = this.sim;
    while (performance.now() - start < CHUNK_MS) {
      if (this._done()) break;
      sim.tick();
      this.ticks += 1;
    }
    this.tickMs += performance.now() - start;
    this.onFrame();
    if (this._done() && sim.alphaTarget() === 0) {
      if (!this.settled) {
        this.settled = true;
        this.settleMs = performance.now() - this.startedAt;
        this.onSettled({ ticks: this.ticks, ms: this.settleMs, tickMs: this.tickMs });
      }
      return;
    }
    this._schedule();
  }

  _done() {
    return this.sim.alpha() < this.sim.alphaMin() || this.ticks >= this.maxTicks;
  }

  /** Warm the layout up again (dragging): a short, capped re-run. */
  reheat(target = 0.25) {
    this.sim.alphaTarget(target).alpha(Math.max(this.sim.alpha(), target));
    this.maxTicks = this.ticks + 400;
    this.settled = false;
    this._schedule();
  }

  cool() {
    this.sim.alphaTarget(0);
    this.maxTicks = this.ticks + 120;
    this._schedule();
  }

  stop() {
    if (this.frame !== null) clearTimeout(this.frame);
    this.frame = null;
    this.sim.stop();
  }
}
