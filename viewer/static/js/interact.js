// Mouse and touch on the canvas: wheel zooms around the pointer, dragging the background
// pans, dragging a node moves and pins it (double-click unpins), a click selects.

const CLICK_SLOP = 4;

export function attachInteraction(canvas, renderer, hooks) {
  // hooks: nodes() -> drawable nodes; onSelect(node|null); onView(); onDragStart/Move/End(node)
  let drag = null;

  const point = (ev) => {
    const rect = canvas.getBoundingClientRect();
    return [ev.clientX - rect.left, ev.clientY - rect.top];
  };

  canvas.addEventListener(
    "wheel",
    (ev) => {
      ev.preventDefault();
      const [sx, sy] = point(ev);
      const t = renderer.t;
      const factor = Math.exp(-ev.deltaY * (ev.deltaMode === 1 ? 0.05 : 0.0018));
      const k = Math.min(12, Math.max(0.03, t.k * factor));
      renderer.t = { k, x: sx - ((sx - t.x) / t.k) * k, y: sy - ((sy - t.y) / t.k) * k };
      hooks.onView();
    },
    { passive: false },
  );

  canvas.addEventListener("pointerdown", (ev) => {
    if (ev.button !== 0) return;
    const [sx, sy] = point(ev);
    const node = renderer.hit(hooks.nodes(), sx, sy);
    drag = { node, sx, sy, moved: false, t0: { ...renderer.t } };
    canvas.setPointerCapture(ev.pointerId);
  });

  // The release point counts as a last move: a busy page may coalesce the moves before it.
  const move = (ev) => {
    const [sx, sy] = point(ev);
    if (!drag) {
      hooks.onHover(renderer.hit(hooks.nodes(), sx, sy));
      return;
    }
    if (!drag.moved && Math.hypot(sx - drag.sx, sy - drag.sy) < CLICK_SLOP) return;
    if (!drag.moved && drag.node) hooks.onDragStart(drag.node);
    drag.moved = true;
    if (drag.node) {
      const [wx, wy] = renderer.toWorld(sx, sy);
      drag.node.fx = drag.node.x = wx;
      drag.node.fy = drag.node.y = wy;
      hooks.onDragMove(drag.node);
    } else {
      renderer.t = { ...drag.t0, x: drag.t0.x + sx - drag.sx, y: drag.t0.y + sy - drag.sy };
      hooks.onView();
    }
  };
  canvas.addEventListener("pointermove", move);

  const finish = (ev) => {
    if (!drag) return;
    if (ev.type === "pointerup") move(ev);
    const d = drag;
    drag = null;
    if (canvas.hasPointerCapture(ev.pointerId)) canvas.releasePointerCapture(ev.pointerId);
    if (d.moved && d.node) hooks.onDragEnd(d.node);
    else if (!d.moved && ev.type === "pointerup") hooks.onSelect(d.node);
  };
  canvas.addEventListener("pointerup", finish);
  canvas.addEventListener("pointercancel", finish);

  canvas.addEventListener("dblclick", (ev) => {
    const [sx, sy] = point(ev);
    const node = renderer.hit(hooks.nodes(), sx, sy);
    if (node && node.fx != null) {
      node.fx = null;
      node.fy = null;
      hooks.onDragEnd(node);
    }
  });
}
