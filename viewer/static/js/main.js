// Boot: read the URL, fetch the partitions and one partition's graph, wire the toolbar,
// and expose `window.__kbViewer` (state for tests and for the curious in devtools).
import { App, escapeHtml } from "./app.js";
import { readState } from "./urlstate.js";

const $ = (sel) => document.querySelector(sel);

const dom = {
  canvas: $("#graph"),
  panel: $("#panel"),
  legend: $("#legend-body"),
  legendBox: $("#legend"),
  search: $("#search"),
  suggestions: $("#suggestions"),
  partition: $("#partition"),
  showAll: $("#show-all"),
  fit: $("#fit"),
  hops: [...document.querySelectorAll("[data-hops]")],
  notice: $("#notice"),
  overlay: $("#overlay"),
  status: $("#status"),
  build: $("#build"),
};

const ui = {
  notices: [],
  notice(text, level = "info") {
    this.notices.push(text);
    const item = document.createElement("div");
    item.className = `notice ${level}`;
    item.textContent = text;
    const close = document.createElement("button");
    close.className = "close";
    close.textContent = "×";
    close.title = "dismiss";
    close.addEventListener("click", () => item.remove());
    item.append(close);
    dom.notice.append(item);
  },
  overlay(html) {
    dom.overlay.hidden = !html;
    dom.overlay.innerHTML = html || "";
  },
  status(text) {
    dom.status.textContent = text;
  },
};

const state = readState();
const app = new App(dom, state, ui);
let partitions = [];
let error = null;

async function getJson(url) {
  const res = await fetch(url, { cache: "no-store" });
  const body = await res.json().catch(() => ({ error: "bad_response", message: `${res.status} ${res.statusText}` }));
  return { ok: res.ok, body };
}

async function loadPartition(name) {
  const t0 = performance.now();
  ui.status(`loading ${name}…`);
  const { ok, body } = await getJson(`/api/graph?partition=${encodeURIComponent(name)}`);
  if (!ok) return fail(body);
  const loadMs = performance.now() - t0;
  state.partition = name;
  dom.partition.value = name;
  app.load(body, loadMs);
}

function fail(body) {
  error = body;
  if (body.error === "warehouse_missing") {
    ui.overlay(
      `<h2>No warehouse published yet</h2><p>${escapeHtml(body.message)}</p>` +
        `<p>Build it, then reload this page:</p><pre><code>${escapeHtml(body.command)}</code></pre>`,
    );
  } else {
    ui.overlay(`<h2>Could not load the graph</h2><p>${escapeHtml(body.message || body.error)}</p>`);
  }
  ui.status("");
}

async function boot() {
  const { ok, body } = await getJson("/api/partitions");
  if (!ok) return fail(body);
  partitions = body.partitions;
  dom.build.textContent = body.build_id ? `build ${body.build_id.slice(0, 15)} · ${body.built_at ?? ""}` : "";
  dom.partition.replaceChildren(
    ...partitions.map((p) => {
      const opt = document.createElement("option");
      opt.value = p.name;
      opt.textContent = `${p.name}  (${p.nodes.toLocaleString()} nodes)`;
      return opt;
    }),
  );
  if (!partitions.length) {
    ui.overlay("<h2>The warehouse has no partitions</h2><p>The last build published nothing. Run <code>kb refresh</code> and reload.</p>");
    return;
  }
  let name = state.partition;
  if (!name || !partitions.some((p) => p.name === name)) {
    const fallback = partitions[0].name;
    if (name) ui.notice(`Unknown partition “${name}” — showing “${fallback}”.`, "warn");
    if (name) state.selected = null; // a node id from another partition would only confuse
    name = fallback;
  }
  await loadPartition(name);
}

dom.partition.addEventListener("change", () => {
  state.selected = null;
  state.transform = null;
  state.showAll = false;
  app.autoFit = true;
  dom.search.value = "";
  loadPartition(dom.partition.value);
});
// A URL edited or pasted into this open tab: show what it says (the viewer's own writes use
// history.replaceState, which fires no hashchange).
window.addEventListener("hashchange", () => {
  const next = readState();
  const known = partitions.some((p) => p.name === next.partition);
  if (next.partition && next.partition !== state.partition) {
    if (!known) {
      ui.notice(`Unknown partition “${next.partition}” — still showing “${state.partition}”.`, "warn");
      app.applyState({ ...next, selected: null });
      return;
    }
    Object.assign(state, next);
    app.autoFit = !next.transform;
    loadPartition(next.partition);
    return;
  }
  app.applyState(next);
});
dom.showAll.addEventListener("click", () => app.showAll());
dom.fit.addEventListener("click", () => app.fit());
dom.hops.forEach((b) => b.addEventListener("click", () => app.setHops(Number(b.dataset.hops))));
window.addEventListener("keydown", (ev) => {
  if (ev.key === "/" && document.activeElement !== dom.search) {
    ev.preventDefault();
    dom.search.focus();
  } else if (ev.key === "Escape" && document.activeElement !== dom.search) {
    app.select(null);
  }
});

window.__kbViewer = {
  get ready() {
    return !!app.model || !!error;
  },
  get error() {
    return error;
  },
  get partitions() {
    return partitions.map((p) => p.name);
  },
  get partition() {
    return app.model?.partition ?? null;
  },
  get selected() {
    return state.selected;
  },
  get hops() {
    return state.hops;
  },
  /** Ids within the hop depth of the selection (the selection included), sorted. */
  get highlighted() {
    return app.hop ? [...app.hop.keys()].sort() : [];
  },
  get hop1() {
    return app.hop ? [...app.hop].filter(([, d]) => d === 1).map(([id]) => id).sort() : [];
  },
  get hop2() {
    return app.hop ? [...app.hop].filter(([, d]) => d === 2).map(([id]) => id).sort() : [];
  },
  get hidden() {
    return { kinds: [...state.hiddenKinds].sort(), edges: [...state.hiddenEdges].sort() };
  },
  get transform() {
    return { ...app.renderer.t };
  },
  get settled() {
    return app.stats.settled;
  },
  get stats() {
    return { ...app.stats, totalNodes: app.model?.nodes.length ?? 0, totalEdges: app.model?.edges.length ?? 0 };
  },
  get visibleNodeCount() {
    return app.visibleNodes.length;
  },
  get visibleEdgeCount() {
    return app.visibleEdges.length;
  },
  get capped() {
    return app.capped;
  },
  get notices() {
    return [...ui.notices];
  },
  /** Where a node is drawn, in CSS pixels relative to the page (for real clicks in tests). */
  screenPos(id) {
    const n = app.model?.byId.get(id);
    if (!n || n.x == null) return null;
    const [sx, sy] = app.renderer.toScreen(n.x, n.y);
    const rect = dom.canvas.getBoundingClientRect();
    return { x: rect.left + sx, y: rect.top + sy, pinned: n.fx != null };
  },
};

boot().catch((exc) => fail({ error: "exception", message: String(exc) }));
