// The interactive lineage view: a left-to-right layered graph (cytoscape + dagre) of
// the assets around one asset, kept in step with the accessible table beneath it.
// Data comes from /ui/lineage (the API's own traversal behind the session cookie).
import cytoscape from "/static/vendor/cytoscape.esm.min.mjs";
import dagre from "/static/vendor/cytoscape-dagre.min.mjs";

cytoscape.use(dagre);

// Above this many nodes dagre's crossing minimisation takes seconds; the graph is then
// placed in columns by signed distance (see columnLayout), which is linear.
const LAYERED_MAX = 600;
const NODE_LIMIT = 2000;
const COLORS = { root: "#3b5bdb", upstream: "#e7ecfd", downstream: "#e3f4ea" };

const LABEL_CHARS = 24;

const segment = (id) => encodeURIComponent(id);
const clip = (text) => (text.length > LABEL_CHARS ? `${text.slice(0, LABEL_CHARS - 1)}…` : text);
const lineageHref = (id, depth, direction) =>
  `/lineage/${segment(id)}?depth=${depth}&direction=${direction}`;

async function getJson(url) {
  const response = await fetch(url, {
    credentials: "same-origin",
    headers: { Accept: "application/json" },
  });
  const body = await response.json().catch(() => ({}));
  if (response.status === 401) window.location.assign(`/login?next=${segment(location.pathname + location.search)}`);
  if (!response.ok) throw new Error(body.detail || `The server answered ${response.status}.`);
  return body;
}

function shortName(assetId) {
  const parts = assetId.split(/[./]/).filter(Boolean);
  return parts.length ? parts[parts.length - 1] : assetId;
}

// Asset lineage as the view draws it: nodes with a signed column, edges as pairs.
function assetView(graph) {
  const nodes = graph.nodes.map((n) => ({
    id: n.id,
    label: n.name,
    asset: n.id,
    type: n.type,
    platform: n.platform,
    placeholder: n.placeholder,
    distance: n.distance,
    direction: n.direction,
  }));
  const edges = graph.edges.map((e) => ({ source: e.source, target: e.target }));
  return { nodes, edges, truncated: graph.truncated };
}

// Column lineage from both directions, merged into one view of `asset.column` nodes;
// `names` gives the assets' display names where the asset view has seen them.
function columnView(root, column, upstream, downstream, names) {
  const key = (ref) => `${ref.asset}\u0000${ref.column}`;
  const nodes = new Map();
  for (const [side, graph] of [["upstream", upstream], ["downstream", downstream]]) {
    for (const n of graph.nodes) {
      const id = key(n);
      const isRoot = n.asset === root && n.column === column;
      const direction = isRoot ? "root" : side;
      const known = nodes.get(id);
      if (!known || n.distance < known.distance) {
        const name = names.get(n.asset) ?? shortName(n.asset);
        nodes.set(id, {
          id, label: `${name}.${n.column}`, name, asset: n.asset, column: n.column, type: "column",
          platform: null, placeholder: false, distance: n.distance, direction,
        });
      }
    }
  }
  const edges = new Map();
  for (const graph of [upstream, downstream]) {
    for (const e of graph.edges) {
      const pair = { source: key(e.source), target: key(e.target) };
      edges.set(`${pair.source}\u0001${pair.target}`, pair);
    }
  }
  return { nodes: [...nodes.values()], edges: [...edges.values()], truncated: false };
}

// Linear fallback for large views: one column per signed distance, ordered within a
// column by the mean position of the neighbours already placed (one barycentre sweep).
function columnLayout(view) {
  const columns = new Map();
  for (const n of view.nodes) {
    const x = n.direction === "upstream" ? -n.distance : n.distance;
    if (!columns.has(x)) columns.set(x, []);
    columns.get(x).push(n);
  }
  const neighbours = new Map(view.nodes.map((n) => [n.id, []]));
  for (const e of view.edges) {
    neighbours.get(e.source)?.push(e.target);
    neighbours.get(e.target)?.push(e.source);
  }
  const rank = new Map();
  const order = [...columns.keys()].sort((a, b) => Math.abs(a) - Math.abs(b) || a - b);
  const positions = {};
  for (const x of order) {
    const column = columns.get(x);
    const weight = (n) => {
      const placed = neighbours.get(n.id).filter((m) => rank.has(m)).map((m) => rank.get(m));
      return placed.length ? placed.reduce((a, b) => a + b, 0) / placed.length : Infinity;
    };
    column.sort((a, b) => weight(a) - weight(b) || a.label.localeCompare(b.label));
    column.forEach((n, i) => {
      const y = (i - (column.length - 1) / 2) * 48;
      rank.set(n.id, y);
      positions[n.id] = { x: x * 260, y };
    });
  }
  return { name: "preset", positions, fit: true, padding: 30 };
}

function style() {
  return [
    {
      selector: "node",
      style: {
        shape: "round-rectangle",
        width: 170,
        height: 34,
        label: "data(label)",
        "font-size": 12,
        "text-valign": "center",
        "text-halign": "center",
        "min-zoomed-font-size": 7,
        color: "#1d2330",
        "background-color": "#eef0f4",
        "border-width": 1,
        "border-color": "#9aa4b5",
      },
    },
    { selector: "node.upstream", style: { "background-color": COLORS.upstream } },
    { selector: "node.downstream", style: { "background-color": COLORS.downstream } },
    { selector: "node.root", style: { "background-color": COLORS.root,  color: "#ffffff", "border-color": "#2f4ac0", "font-weight": 700 } },
    { selector: "node.placeholder", style: { "border-style": "dashed", "background-color": "#f5f6f8", color: "#5a6372" } },
    {
      selector: "edge",
      style: {
        width: 1.3,
        "curve-style": "straight",
        "target-arrow-shape": "triangle",
        "arrow-scale": 0.8,
        "line-color": "#a9b1bf",
        "target-arrow-color": "#a9b1bf",
      },
    },
    { selector: ".dimmed", style: { opacity: 0.18 } },
    { selector: "edge.on-path", style: { width: 3, "line-color": "#3b5bdb", "target-arrow-color": "#3b5bdb" } },
    { selector: "node.on-path", style: { "border-width": 3, "border-color": "#3b5bdb" } },
  ];
}

class LineageView {
  constructor(section) {
    this.section = section;
    this.compact = section.dataset.compact === "true";
    this.root = section.dataset.root;
    this.depth = Number(section.dataset.depth) || 5;
    this.direction = section.dataset.direction || "both";
    this.column = "";
    this.canvas = section.querySelector("[data-lineage-canvas]");
    this.status = section.querySelector("[data-lineage-status]");
    this.rows = section.querySelector("[data-lineage-rows]");
    this.form = section.querySelector("[data-lineage-controls]");
    this.path = section.querySelector("[data-lineage-path]");
    this.names = new Map(); // asset id -> display name, from the asset views seen so far
    this.error = this.makeError();
    this.addFitButton();
    this.bindControls();
    this.bindHighlight();
  }

  makeError() {
    const error = document.createElement("p");
    error.className = "lineage-error";
    error.setAttribute("role", "alert");
    error.hidden = true;
    this.canvas.before(error);
    return error;
  }

  addFitButton() {
    const fit = document.createElement("button");
    fit.type = "button";
    fit.className = "btn btn-small lineage-fit";
    fit.textContent = "Fit";
    fit.addEventListener("click", () => this.cy?.fit(undefined, 30));
    this.canvas.before(fit);
  }

  bindControls() {
    if (this.form) {
      this.form.addEventListener("submit", (event) => {
        event.preventDefault();
        const data = new FormData(this.form);
        this.depth = Math.min(50, Math.max(1, Number(data.get("depth")) || 1));
        this.direction = String(data.get("direction") || "both");
        this.column = String(data.get("column") || "");
        history.pushState(this.state(), "", lineageHref(this.root, this.depth, this.direction));
        this.load();
      });
      window.addEventListener("popstate", (event) => {
        if (!event.state?.root) return;
        Object.assign(this, event.state);
        this.syncControls();
        this.load();
      });
      history.replaceState(this.state(), "");
    }
    if (this.rows && !this.compact) {
      this.rows.addEventListener("click", (event) => {
        const link = event.target.closest("a[data-asset]");
        if (!link || event.ctrlKey || event.metaKey || event.shiftKey) return;
        event.preventDefault();
        this.recentre(link.dataset.asset);
      });
    }
  }

  // Pointing at a table row (mouse or keyboard focus) highlights that asset's path in
  // the graph, and the path is spelled out for screen readers; Escape clears it.
  bindHighlight() {
    const fromRow = (event) => {
      const link = event.target.closest?.("a[data-asset]");
      const node = link && this.cy?.nodes().filter((n) => n.data("asset") === link.dataset.asset)[0];
      if (node) this.highlight(node);
    };
    this.rows?.addEventListener("mouseover", fromRow);
    this.rows?.addEventListener("focusin", fromRow);
    this.rows?.addEventListener("mouseleave", () => this.clearHighlight());
    document.addEventListener("keydown", (event) => {
      if (event.key === "Escape") this.clearHighlight();
    });
  }

  state() {
    return { root: this.root, depth: this.depth, direction: this.direction, column: this.column };
  }

  syncControls() {
    if (!this.form) return;
    this.form.elements.depth.value = String(this.depth);
    this.form.elements.direction.value = this.direction;
    this.form.elements.column.value = this.column;
  }

  recentre(assetId) {
    if (this.compact) {
      window.location.assign(`/assets/${segment(assetId)}`);
      return;
    }
    this.root = assetId;
    this.column = "";
    this.section.dataset.root = assetId;
    history.pushState(this.state(), "", lineageHref(assetId, this.depth, this.direction));
    this.load();
  }

  async load() {
    this.section.dataset.lineageReady = "false";
    this.status.textContent = "Loading…";
    this.error.hidden = true;
    try {
      const view = this.column ? await this.fetchColumns() : await this.fetchAssets();
      performance.mark("lineage:data");
      this.render(view);
    } catch (problem) {
      this.error.textContent = problem.message;
      this.error.hidden = false;
      this.status.textContent = "";
      this.section.dataset.lineageReady = "true";
    }
  }

  async fetchAssets() {
    const query = `depth=${this.depth}&direction=${this.direction}&limit=${NODE_LIMIT}`;
    const graph = this.takeInitial() ?? (await getJson(`/ui/lineage/${segment(this.root)}?${query}`));
    for (const n of graph.nodes) this.names.set(n.id, n.name);
    const root = graph.nodes.find((n) => n.direction === "root");
    const title = document.querySelector("[data-lineage-title]");
    if (root && title && !this.compact) {
      title.textContent = root.name;
      document.title = `Lineage of ${root.name} · Governance`;
    }
    await this.updateColumns(root);
    return assetView(graph);
  }

  // The page embeds its first view; it is used once, for the state it was made for.
  takeInitial() {
    const block = this.section.querySelector("script[data-lineage-initial]");
    if (!block) return null;
    block.remove();
    const graph = JSON.parse(block.textContent);
    const same = graph.root === this.root && graph.depth === this.depth && graph.direction === this.direction;
    return same ? graph : null;
  }

  // The column choice lists the centred asset's columns (read once per asset).
  async updateColumns(root) {
    if (!this.form || !root || root.id === this.section.dataset.columnsOf) return;
    this.section.dataset.columnsOf = root.id;
    const asset = await getJson(`/ui/assets/${segment(root.id)}`);
    const names = (asset.columns || []).map((c) => c.name);
    const select = this.form.elements.column;
    select.replaceChildren(new Option("Whole asset", ""), ...names.map((c) => new Option(c, c)));
    select.value = this.column;
  }

  async fetchColumns() {
    const base = `/ui/lineage/${segment(this.root)}/columns/${segment(this.column)}`;
    const [up, down] = await Promise.all([
      this.direction === "downstream" ? { nodes: [], edges: [] } : getJson(`${base}/upstream?depth=${this.depth}`),
      this.direction === "upstream" ? { nodes: [], edges: [] } : getJson(`${base}/downstream?depth=${this.depth}`),
    ]);
    return columnView(this.root, this.column, up, down, this.names);
  }

  render(view) {
    this.cy?.destroy();
    const large = view.nodes.length > LAYERED_MAX;
    const elements = [
      ...view.nodes.map((n) => ({
        group: "nodes",
        data: { ...n, label: clip(n.label) },
        classes: n.placeholder ? `${n.direction} placeholder` : n.direction,
      })),
      ...view.edges.map((e) => ({ group: "edges", data: { id: `${e.source}\u0001${e.target}`, ...e } })),
    ];
    this.cy = cytoscape({
      container: this.canvas,
      elements,
      style: style(),
      layout: large
        ? columnLayout(view)
        : { name: "dagre", rankDir: "LR", nodeSep: 14, rankSep: 70, padding: 30, fit: true },
      minZoom: 0.05,
      maxZoom: 3,
      textureOnViewport: large,
      hideEdgesOnViewport: large,
      pixelRatio: large ? 1 : "auto",
    });
    performance.mark("lineage:built");
    this.cy.on("tap", "node", (event) => {
      const asset = event.target.data("asset");
      if (asset !== this.root || this.column) this.recentre(asset);
    });
    this.cy.on("mouseover", "node", (event) => this.highlight(event.target));
    this.cy.on("mouseout", "node", () => this.clearHighlight());
    this.cy.on("tap", (event) => {
      if (event.target === this.cy) this.clearHighlight();
    });
    this.fillTable(view);
    this.describe(view);
    this.cy.ready(() => {
      performance.mark("lineage:ready");
      this.section.dataset.lineageReady = "true";
    });
  }

  // The shortest path between the centre and `node`, in the direction data flows.
  highlight(node) {
    const centre = this.cy.nodes(".root");
    if (!centre.length || node.same(centre)) return;
    const upstream = node.data("direction") === "upstream";
    const found = this.cy.elements().aStar({
      root: upstream ? node : centre,
      goal: upstream ? centre : node,
      directed: true,
    });
    if (!found.found) return;
    this.cy.batch(() => {
      this.cy.elements().removeClass("on-path").addClass("dimmed");
      found.path.removeClass("dimmed").addClass("on-path");
    });
    if (this.path) {
      const names = found.path.nodes().map((n) => n.data("label"));
      this.path.textContent = `Path: ${names.join(" → ")}`;
    }
  }

  clearHighlight() {
    this.cy?.batch(() => this.cy.elements().removeClass("dimmed on-path"));
    if (this.path) this.path.textContent = "";
  }

  fillTable(view) {
    if (!this.rows) return;
    const byAsset = new Map();
    const columns = new Map();
    for (const n of view.nodes) {
      const known = byAsset.get(n.asset);
      if (!known || n.distance < known.distance) byAsset.set(n.asset, n);
      if (n.column) columns.set(n.asset, [...(columns.get(n.asset) ?? []), n.column]);
    }
    const rows = [...byAsset.values()]
      .sort((a, b) => a.distance - b.distance || a.label.localeCompare(b.label))
      .map((n) => this.row(n, columns.get(n.asset)));
    this.rows.replaceChildren(...rows);
  }

  // One row per asset; in a column view its type cell names the columns reached.
  row(n, columns) {
    const tr = document.createElement("tr");
    const name = document.createElement("td");
    const link = document.createElement("a");
    link.href = lineageHref(n.asset, this.depth, this.direction);
    link.dataset.asset = n.asset;
    link.textContent = n.name ?? n.label;
    const code = document.createElement("code");
    code.textContent = n.asset;
    name.append(link, " ", code);
    const type = columns ? `column ${columns.sort().join(", ")}` : n.type;
    const cells = [type, n.platform || "—", n.direction, String(n.distance)].map((text) => {
      const td = document.createElement("td");
      td.textContent = text;
      return td;
    });
    tr.append(name, ...cells);
    return tr;
  }

  describe(view) {
    const assets = new Set(view.nodes.map((n) => n.asset)).size;
    const what = this.column ? `columns of ${assets} assets` : `${assets} assets`;
    const cut = view.truncated ? ` (truncated at ${NODE_LIMIT.toLocaleString("en")})` : "";
    this.status.textContent = `${what}, ${view.edges.length} edges${cut}`;
  }
}

for (const section of document.querySelectorAll("[data-lineage]")) {
  // The page rendered the first asset's column choices already.
  section.dataset.columnsOf = section.dataset.root;
  new LineageView(section).load();
}
