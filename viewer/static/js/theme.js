// Colours and sizes per node kind and edge type (spec/mcp-tools.md "Graph vocabulary").
// Knowledge kinds are warm, code kinds cool, catalog kinds pale tints of their code twin.

export const KIND_LAYERS = {
  knowledge: ["project", "component", "env_instance", "gcp_project", "runtime", "integration", "secret", "adr", "source_doc"],
  code: ["code_file", "symbol", "route", "middleware", "env_var", "http_call", "tf_resource"],
  catalog: ["package", "middleware_name", "host", "tf_resource_type", "env_var_name"],
};

export const KIND_COLORS = {
  project: "#ef4444", component: "#f59e0b", env_instance: "#facc15", gcp_project: "#84cc16",
  runtime: "#22c55e", integration: "#2dd4bf", secret: "#e879f9", adr: "#a78bfa",
  source_doc: "#c4b5fd",
  code_file: "#7c8ba1", symbol: "#3b82f6", route: "#06b6d4", middleware: "#6366f1",
  env_var: "#fb7185", http_call: "#10b981", tf_resource: "#f97316",
  package: "#94a3b8", middleware_name: "#a5b4fc", host: "#6ee7b7", tf_resource_type: "#fdba74",
  env_var_name: "#fda4af",
};

export const EDGE_LAYERS = {
  knowledge: ["HAS_COMPONENT", "HAS_ENV", "RUNS_ON", "IN_GCP_PROJECT", "INTEGRATES", "USES_SECRET", "DECIDES", "DOCUMENTS"],
  code: ["DEFINES", "IMPORTS", "ROUTES_TO", "USES_MIDDLEWARE", "CALLS_FN", "CALLS_HTTP", "READS_ENV", "DECLARES"],
  bridge: ["HAS_CODE", "RESOLVES_TO", "CALLS", "PROVISIONS"],
  catalog: ["USES_PACKAGE", "USES_MIDDLEWARE_NAME", "CALLS_HOST", "USES_TF_TYPE", "READS_ENV_NAME"],
};

export const EDGE_COLORS = {
  HAS_COMPONENT: "#f59e0b", HAS_ENV: "#facc15", RUNS_ON: "#22c55e", IN_GCP_PROJECT: "#84cc16",
  INTEGRATES: "#2dd4bf", USES_SECRET: "#e879f9", DECIDES: "#a78bfa", DOCUMENTS: "#c4b5fd",
  DEFINES: "#64748b", IMPORTS: "#56647a", ROUTES_TO: "#06b6d4", USES_MIDDLEWARE: "#818cf8",
  CALLS_FN: "#3b82f6", CALLS_HTTP: "#10b981", READS_ENV: "#fb7185", DECLARES: "#f97316",
  HAS_CODE: "#fbbf24", RESOLVES_TO: "#f0abfc", CALLS: "#fde047", PROVISIONS: "#a3e635",
  USES_PACKAGE: "#94a3b8", USES_MIDDLEWARE_NAME: "#a5b4fc", CALLS_HOST: "#6ee7b7",
  USES_TF_TYPE: "#fdba74", READS_ENV_NAME: "#fda4af",
};

const FALLBACK = ["#38bdf8", "#f472b6", "#a3e635", "#fb923c", "#c084fc", "#4ade80", "#facc15"];

function hashed(name) {
  let h = 0;
  for (const ch of name) h = (h * 31 + ch.charCodeAt(0)) >>> 0;
  return FALLBACK[h % FALLBACK.length];
}

export const kindColor = (kind) => KIND_COLORS[kind] || hashed(kind);
export const edgeColor = (type) => EDGE_COLORS[type] || hashed(type);

export function kindLayer(kind) {
  for (const [layer, kinds] of Object.entries(KIND_LAYERS)) if (kinds.includes(kind)) return layer;
  return "other";
}

export function edgeLayer(type) {
  for (const [layer, types] of Object.entries(EDGE_LAYERS)) if (types.includes(type)) return layer;
  return "other";
}

const BASE_RADIUS = { project: 11, component: 8.5, code_file: 3.5 };
const LAYER_RADIUS = { knowledge: 6.5, code: 4.5, catalog: 4.5, other: 4.5 };

/** Node radius in world units: by kind, a little larger for well-connected nodes. */
export function nodeRadius(kind, degree) {
  const base = BASE_RADIUS[kind] ?? LAYER_RADIUS[kindLayer(kind)];
  return base + Math.min(5, Math.sqrt(degree) * 0.45);
}

/** Stable ordering for legends: vocabulary order first, then anything else by name. */
export function orderKinds(kinds) {
  const order = [...KIND_LAYERS.knowledge, ...KIND_LAYERS.code, ...KIND_LAYERS.catalog];
  return [...kinds].sort((a, b) => rank(order, a) - rank(order, b) || a.localeCompare(b));
}

export function orderEdgeTypes(types) {
  const order = Object.values(EDGE_LAYERS).flat();
  return [...types].sort((a, b) => rank(order, a) - rank(order, b) || a.localeCompare(b));
}

function rank(order, item) {
  const i = order.indexOf(item);
  return i < 0 ? order.length : i;
}
