// Colours and sizes per node kind and edge type. The vocabulary itself (which kinds and
// types exist, in which layer) comes from the server (vocab.js); this file only paints it.
// Knowledge kinds are warm, code kinds cool, catalog kinds pale tints of their code twin.

export const KIND_COLORS = {
  project: "#ef4444", component: "#f59e0b", env_instance: "#facc15", gcp_project: "#84cc16",
  runtime: "#22c55e", integration: "#2dd4bf", secret: "#e879f9", adr: "#a78bfa",
  source_doc: "#c4b5fd",
  code_file: "#7c8ba1", symbol: "#3b82f6", route: "#06b6d4", middleware: "#6366f1",
  env_var: "#fb7185", http_call: "#10b981", tf_resource: "#f97316",
  package: "#94a3b8", middleware_name: "#a5b4fc", host: "#6ee7b7", tf_resource_type: "#fdba74",
  env_var_name: "#fda4af",
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

const BASE_RADIUS = { project: 11, component: 8.5, code_file: 3.5 };
const LAYER_RADIUS = { knowledge: 6.5, code: 4.5, catalog: 4.5, other: 4.5 };

/** Node radius in world units: by kind (else its layer), a little larger when well connected. */
export function nodeRadius(kind, layer, degree) {
  const base = BASE_RADIUS[kind] ?? LAYER_RADIUS[layer] ?? LAYER_RADIUS.other;
  return base + Math.min(5, Math.sqrt(degree) * 0.45);
}
