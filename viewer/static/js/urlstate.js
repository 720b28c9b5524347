// The whole view lives in the URL hash so it can be shared and reloaded:
//   #p=<partition>&n=<node id>&hops=1|2&hk=<hidden kinds>&he=<hidden edge types>&all=1&z=k,x,y
// Writes use history.replaceState: the back button is not flooded by every pan.

export function readState(hash = window.location.hash) {
  const q = new URLSearchParams(hash.replace(/^#/, ""));
  const list = (key) => new Set((q.get(key) || "").split(",").filter(Boolean));
  const z = (q.get("z") || "").split(",").map(Number);
  return {
    partition: q.get("p") || null,
    selected: q.get("n") || null,
    hops: q.get("hops") === "1" ? 1 : 2,
    hiddenKinds: list("hk"),
    hiddenEdges: list("he"),
    showAll: q.get("all") === "1",
    transform: z.length === 3 && z.every(Number.isFinite) && z[0] > 0 ? { k: z[0], x: z[1], y: z[2] } : null,
  };
}

export function writeState(state) {
  const q = new URLSearchParams();
  if (state.partition) q.set("p", state.partition);
  if (state.selected) q.set("n", state.selected);
  if (state.hops !== 2) q.set("hops", String(state.hops));
  if (state.hiddenKinds.size) q.set("hk", [...state.hiddenKinds].sort().join(","));
  if (state.hiddenEdges.size) q.set("he", [...state.hiddenEdges].sort().join(","));
  if (state.showAll) q.set("all", "1");
  if (state.transform) {
    const { k, x, y } = state.transform;
    q.set("z", `${round(k, 4)},${round(x, 1)},${round(y, 1)}`);
  }
  const hash = `#${q.toString().replace(/%2C/g, ",").replace(/%2F/g, "/").replace(/%3A/g, ":")}`;
  if (hash !== window.location.hash) history.replaceState(null, "", hash);
  return hash;
}

function round(v, digits) {
  const f = 10 ** digits;
  return Math.round(v * f) / f;
}
