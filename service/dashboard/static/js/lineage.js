// The interactive lineage view: a left-to-right layered graph (cytoscape + dagre) of
// the assets around one asset, kept in step with the accessible tables beneath it.
// Data comes from /ui/lineage (the API's own traversal behind the session cookie,
// with each node's dataset and each edge's origins, the writers asserting it).
import cytoscape from "/static/vendor/cytoscape.esm.min.mjs";
import dagre from "/static/vendor/cytoscape-dagre.min.mjs";

cytoscape.use(dagre);

// Above this many nodes dagre's crossing minimisation takes seconds; the graph is then
// placed in columns by signed distance (see columnLayout), which is linear.
const LAYERED_MAX = 600;
const NODE_LIMIT = 2000;
const COLORS = {
  root: "#3b5bdb", upstream: "#e7ecfd", downstream: "#e3f4ea",
  added: "#1e7a46", removed: "#b42323", removedFill: "#fdf0f0",
};

const LABEL_CHARS = 26;
const PLACE_CHARS = 34;

const segment = (id) => encodeURIComponent(id);
const clip = (text) => (text.length > LABEL_CHARS ? `${text.slice(0, LABEL_CHARS - 1)}…` : text);
// A dataset name keeps its end (the table), where the difference between two usually is.
const clipStart = (text) => (text.length > LABEL_CHARS ? `…${text.slice(1 - LABEL_CHARS)}` : text);
// The query a view is asked for and linked by: the time fields only when set.
const viewQuery = (depth, direction, asOf = "", compare = "") => {
  const query = new URLSearchParams({ depth: String(depth), direction });
  if (asOf) query.set("as_of", asOf);
  if (compare) query.set("compare", compare);
  return query.toString();
};
const lineageHref = (id, depth, direction, asOf = "", compare = "") =>
  `/lineage/${segment(id)}?${viewQuery(depth, direction, asOf, compare)}`;

// Every time on these pages is UTC, so the time fields are too: a datetime-local value
// (`2026-11-20T10:00`, seconds and milliseconds optional) is that moment in UTC, and the
// address carries it as RFC 3339. The service answers instants as `…T10:00:00.000Z`.
const toInstant = (local) => (local ? `${local.length === 16 ? `${local}:00` : local}Z` : "");
const toLocal = (instant) => (instant ? instant.replace(/Z$/, "") : "");
const spoken = (instant) => (instant ? `${instant.slice(0, 10)} ${instant.slice(11, 19)} UTC` : "now");
// The non-colour cue of a change, before a node's name (the tables say it in words).
const CHANGE_MARKS = { added: "+ ", removed: "− " };

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
    dataset: n.dataset ?? null,
    placeholder: n.placeholder,
    distance: n.distance,
    direction: n.direction,
    change: n.change ?? null,
  }));
  const edges = graph.edges.map((e) => ({
    source: e.source, target: e.target, origins: e.origins ?? [], change: e.change ?? null,
  }));
  return { nodes, edges, truncated: graph.truncated, compare: graph.compare ?? null };
}

// A placeholder made for a dataset is named by its id (`namespace/db.schema.table`);
// the graph calls it by its table, the second line saying where that lives.
function displayName(n) {
  return n.placeholder && n.dataset && n.label === n.asset ? shortName(n.dataset.name) : n.label;
}

// The second line a node shows: where the asset lives, its platform (else the scheme
// of its dataset's namespace) and its dataset, leading parts (`db.`) left out to fit.
function whereabouts(n) {
  const platform = n.platform || n.dataset?.namespace.split(":")[0] || "";
  if (!n.dataset) return platform;
  const name = tail(n.dataset.name, PLACE_CHARS - (platform ? platform.length + 3 : 0));
  return platform ? `${platform} · ${name}` : name;
}

// The longest end of a name that fits in `room` characters, cut after a `.` or `/`
// where one allows (`…schema.table`, `…dir/file`), else mid-part.
function tail(name, room) {
  if (name.length <= room) return name;
  for (let i = 0; i < name.length; i += 1) {
    if ((name[i] === "." || name[i] === "/") && name.length - i <= room) return `…${name.slice(i + 1)}`;
  }
  return `…${name.slice(name.length - room + 1)}`;
}

// Column lineage from both directions, merged into one view of `asset.column` nodes;
// `seen` gives the assets (name, platform, dataset) where the asset view has seen them.
function columnView(root, column, upstream, downstream, seen) {
  const key = (ref) => `${ref.asset}\u0000${ref.column}`;
  const nodes = new Map();
  for (const [side, graph] of [["upstream", upstream], ["downstream", downstream]]) {
    for (const n of graph.nodes) {
      const id = key(n);
      const isRoot = n.asset === root && n.column === column;
      const direction = isRoot ? "root" : side;
      const known = nodes.get(id);
      if (!known || n.distance < known.distance) {
        const asset = seen.get(n.asset);
        const name = asset?.name ?? shortName(n.asset);
        nodes.set(id, {
          id, label: `${name}.${n.column}`, name, asset: n.asset, column: n.column, type: "column",
          platform: asset?.platform ?? null, dataset: asset?.dataset ?? null, placeholder: false,
          distance: n.distance, direction,
        });
      }
    }
  }
  const edges = new Map();
  for (const graph of [upstream, downstream]) {
    for (const e of graph.edges) {
      const pair = { source: key(e.source), target: key(e.target), origins: null };
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
        width: 230,
        height: 34,
        label: "data(label)",
        "font-size": 12,
        "text-valign": "center",
        "text-halign": "center",
        "text-wrap": "wrap",
        "text-max-width": 224,
        "line-height": 1.35,
        "min-zoomed-font-size": 7,
        color: "#1d2330",
        "background-color": "#eef0f4",
        "border-width": 1,
        "border-color": "#9aa4b5",
      },
    },
    { selector: "node.two-line", style: { height: 46, "font-size": 11.5 } },
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
    // A compared view: colour and a second cue apart from colour (a double border and a
    // `+` for added, dashes and a `−` for removed), as the legend says.
    { selector: "node.added", style: { "border-width": 4, "border-style": "double", "border-color": COLORS.added } },
    { selector: "node.removed", style: { "border-width": 2, "border-style": "dashed", "border-color": COLORS.removed, "background-color": COLORS.removedFill, color: "#7a1d1d" } },
    { selector: "edge.added", style: { width: 3, "line-color": COLORS.added, "target-arrow-color": COLORS.added } },
    { selector: "edge.removed", style: { width: 2.4, "line-style": "dashed", "line-dash-pattern": [7, 5], "line-color": COLORS.removed, "target-arrow-color": COLORS.removed } },
    { selector: ".dimmed", style: { opacity: 0.18 } },
    { selector: "edge.pinned", style: { width: 3, "line-color": "#2f4ac0", "target-arrow-color": "#2f4ac0" } },
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
    this.asOf = section.dataset.asOf || "";
    this.compare = section.dataset.compare || "";
    this.column = "";
    this.when = section.querySelector("[data-lineage-when]");
    this.legend = section.querySelector("[data-lineage-legend]");
    this.canvas = section.querySelector("[data-lineage-canvas]");
    this.status = section.querySelector("[data-lineage-status]");
    this.rows = section.querySelector("[data-lineage-rows]");
    this.form = section.querySelector("[data-lineage-controls]");
    this.path = section.querySelector("[data-lineage-path]");
    this.edgeRows = section.querySelector("[data-lineage-edge-rows]");
    this.seen = new Map(); // asset id -> its node, from the asset views seen so far
    this.error = this.makeError();
    this.tip = this.makeTip();
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

  // One tooltip for the graph: a node's whereabouts, an edge's writers. Hovering shows
  // it; clicking an edge pins it until a click elsewhere or Escape.
  makeTip() {
    const tip = document.createElement("div");
    tip.className = "lineage-tip";
    tip.setAttribute("role", "tooltip");
    tip.dataset.lineageTip = "";
    tip.hidden = true;
    this.canvas.after(tip);
    this.canvas.addEventListener("mouseleave", () => this.hideTip());
    return tip;
  }

  showTip(element, position) {
    const lines = element.isNode() ? this.nodeLines(element.data()) : this.edgeLines(element.data());
    this.tip.replaceChildren(
      ...lines.map(([label, value]) => {
        const line = document.createElement("div");
        if (label) {
          const name = document.createElement("span");
          name.className = "lineage-tip-label";
          name.textContent = `${label} `;
          line.append(name);
        }
        line.append(value);
        return line;
      }),
    );
    this.tip.hidden = false;
    const x = this.canvas.offsetLeft + position.x + 14;
    const y = this.canvas.offsetTop + position.y + 14;
    const maxX = this.canvas.offsetLeft + this.canvas.clientWidth - this.tip.offsetWidth - 8;
    const maxY = this.canvas.offsetTop + this.canvas.clientHeight - this.tip.offsetHeight - 8;
    this.tip.style.left = `${Math.max(this.canvas.offsetLeft + 8, Math.min(x, maxX))}px`;
    this.tip.style.top = `${Math.max(this.canvas.offsetTop + 8, Math.min(y, maxY))}px`;
  }

  nodeLines(n) {
    const type = n.placeholder ? `${n.type} (placeholder)` : n.type;
    const lines = [["", n.title], ["Id", n.asset], ["Type", type]];
    lines.push(["Platform", n.platform || "—"]);
    if (n.dataset) lines.push(["Dataset", n.dataset.name], ["Namespace", n.dataset.namespace]);
    else if (!n.column) lines.push(["Dataset", "—"]);
    if (n.change) lines.push(["Change", this.changeWords(n.change)]);
    return lines;
  }

  edgeLines(e) {
    const name = (id) => this.cy.getElementById(id).data("text") ?? id;
    const lines = [["", `${name(e.source)} → ${name(e.target)}`]];
    if (e.origins) lines.push([this.assertedLabel(), e.origins.length ? e.origins.join(", ") : "—"]);
    if (e.change) lines.push(["Change", this.changeWords(e.change)]);
    return lines;
  }

  // The writers of an edge are known as they are now: a past view says so.
  assertedLabel() {
    return this.asOf || this.compare ? "Asserted now by" : "Asserted by";
  }

  // "added between … and …", as the legend says it.
  changeWords(change) {
    const span = this.compared;
    return span ? `${change} between ${spoken(span.from)} and ${spoken(span.to)}` : change;
  }

  hideTip(force = false) {
    if (this.pinned && !force) return;
    this.tip.hidden = true;
    if (force) {
      this.pinned = null;
      this.cy?.edges(".pinned").removeClass("pinned");
    }
  }

  pinEdge(edge, position) {
    this.hideTip(true);
    this.pinned = edge;
    edge.addClass("pinned");
    this.showTip(edge, position);
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
        this.asOf = toInstant(String(data.get("as_of") || ""));
        this.compare = toInstant(String(data.get("compare") || ""));
        this.show();
      });
      // "Now" is a link to the present view, which works without script too.
      this.form.querySelector("[data-lineage-now]")?.addEventListener("click", (event) => {
        event.preventDefault();
        this.asOf = "";
        this.compare = "";
        this.syncControls();
        this.show();
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
    const fromEdgeRow = (event) => {
      const row = event.target.closest?.("tr[data-source]");
      const edge = row && this.cy?.getElementById(`${row.dataset.source}\u0001${row.dataset.target}`);
      if (edge?.length) this.highlightEdge(edge);
    };
    this.edgeRows?.addEventListener("mouseover", fromEdgeRow);
    this.edgeRows?.addEventListener("mouseleave", () => this.clearHighlight());
    document.addEventListener("keydown", (event) => {
      if (event.key !== "Escape") return;
      this.clearHighlight();
      this.hideTip(true);
    });
  }

  state() {
    const { root, depth, direction, column, asOf, compare } = this;
    return { root, depth, direction, column, asOf, compare };
  }

  href() {
    return lineageHref(this.root, this.depth, this.direction, this.asOf, this.compare);
  }

  // The view the controls ask for, with an address of its own (the back button works).
  show() {
    history.pushState(this.state(), "", this.href());
    this.load();
  }

  syncControls() {
    if (!this.form) return;
    this.form.elements.depth.value = String(this.depth);
    this.form.elements.direction.value = this.direction;
    this.form.elements.column.value = this.column;
    this.form.elements.as_of.value = toLocal(this.asOf);
    this.form.elements.compare.value = toLocal(this.compare);
  }

  recentre(assetId) {
    if (this.compact) {
      window.location.assign(`/assets/${segment(assetId)}`);
      return;
    }
    this.root = assetId;
    this.column = "";
    this.section.dataset.root = assetId;
    this.show();
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
    const query = `${viewQuery(this.depth, this.direction, this.asOf, this.compare)}&limit=${NODE_LIMIT}`;
    const graph = this.takeInitial() ?? (await getJson(`/ui/lineage/${segment(this.root)}?${query}`));
    // The page could not draw its first view (the asset did not exist at that moment).
    if (graph.problem) throw new Error(graph.problem);
    for (const n of graph.nodes) this.seen.set(n.id, n);
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
    const same = graph.root === this.root && graph.depth === this.depth && graph.direction === this.direction
      && (graph.as_of ?? "") === this.asOf && (graph.compare?.with ?? "") === this.compare;
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

  // A column view is drawn as of a moment, never compared: the comparison is of assets.
  async fetchColumns() {
    if (this.compare) throw new Error("Compare with draws whole assets: choose Whole asset to compare.");
    const base = `/ui/lineage/${segment(this.root)}/columns/${segment(this.column)}`;
    const query = `depth=${this.depth}${this.asOf ? `&as_of=${encodeURIComponent(this.asOf)}` : ""}`;
    const [up, down] = await Promise.all([
      this.direction === "downstream" ? { nodes: [], edges: [] } : getJson(`${base}/upstream?${query}`),
      this.direction === "upstream" ? { nodes: [], edges: [] } : getJson(`${base}/downstream?${query}`),
    ]);
    return columnView(this.root, this.column, up, down, this.seen);
  }

  render(view) {
    this.hideTip(true);
    this.cy?.destroy();
    const large = view.nodes.length > LAYERED_MAX;
    const node = (n) => {
      const second = n.column ? "" : whereabouts(n);
      const text = clip(n.column ? n.label : displayName(n));
      const marked = `${CHANGE_MARKS[n.change] ?? ""}${text}`;
      const label = second ? `${marked}\n${second}` : marked;
      const classes = [n.direction, n.placeholder ? "placeholder" : "", second ? "two-line" : "", n.change ?? ""];
      return { group: "nodes", data: { ...n, title: n.column ? n.label : displayName(n), text, label }, classes: classes.join(" ").trim() };
    };
    const elements = [
      ...view.nodes.map(node),
      ...view.edges.map((e) => ({ group: "edges", data: { id: `${e.source}\u0001${e.target}`, ...e }, classes: e.change ?? "" })),
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
    this.cy.on("mouseover", "node", (event) => {
      this.highlight(event.target);
      if (!this.pinned) this.showTip(event.target, event.renderedPosition);
    });
    this.cy.on("mouseout", "node", () => {
      this.clearHighlight();
      this.hideTip();
    });
    this.cy.on("mouseover", "edge", (event) => {
      this.highlightEdge(event.target);
      if (!this.pinned) this.showTip(event.target, event.renderedPosition);
    });
    this.cy.on("mouseout", "edge", () => {
      this.clearHighlight();
      this.hideTip();
    });
    this.cy.on("tap", "edge", (event) => this.pinEdge(event.target, event.renderedPosition));
    this.cy.on("tap", (event) => {
      if (event.target !== this.cy) return;
      this.clearHighlight();
      this.hideTip(true);
    });
    this.compared = view.compare ?? null;
    this.fillTable(view);
    this.fillEdges(view);
    this.describe(view);
    this.describeTime(view);
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
      const names = found.path.nodes().map((n) => n.data("text"));
      this.path.textContent = `Path: ${names.join(" → ")}`;
    }
  }

  // One edge, from its row in the edges table: the edge stands out, its writers are said.
  highlightEdge(edge) {
    this.cy.batch(() => {
      this.cy.elements().removeClass("on-path").addClass("dimmed");
      edge.union(edge.connectedNodes()).removeClass("dimmed").addClass("on-path");
    });
    if (this.path) {
      const [line, origins] = this.edgeLines(edge.data());
      this.path.textContent = `Edge: ${line[1]}${origins ? `, ${origins[0].toLowerCase()} ${origins[1]}` : ""}`;
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
    this.showChangeColumn(this.rows.closest("table"));
    this.rows.replaceChildren(...rows);
  }

  // One row per asset edge with the writers asserting it; a column view has no such
  // edges (its own are between columns), so the table stands aside.
  fillEdges(view) {
    if (!this.edgeRows) return;
    const table = this.edgeRows.closest("table");
    table.hidden = Boolean(this.column);
    if (this.column) return;
    const name = (id) => this.seen.get(id)?.name ?? id;
    const rows = [...view.edges]
      .sort((a, b) => name(a.source).localeCompare(name(b.source)) || name(a.target).localeCompare(name(b.target)))
      .map((e) => {
        const tr = document.createElement("tr");
        tr.dataset.source = e.source;
        tr.dataset.target = e.target;
        const ends = [e.source, e.target].map((id) => {
          const td = document.createElement("td");
          td.title = id;
          td.textContent = name(id);
          return td;
        });
        const origins = document.createElement("td");
        for (const origin of e.origins) {
          const code = document.createElement("code");
          code.className = "origin";
          code.textContent = origin;
          origins.append(code, " ");
        }
        if (!e.origins.length) origins.textContent = "—";
        tr.append(...ends, origins);
        if (this.compared) tr.append(this.changeCell(e.change));
        return tr;
      });
    this.showChangeColumn(table);
    const origins = table.querySelector("[data-lineage-origins-col]");
    if (origins) origins.textContent = this.assertedLabel();
    this.edgeRows.replaceChildren(...rows);
  }

  // The tables' Change column is there only while two moments are compared.
  showChangeColumn(table) {
    const header = table.querySelector("[data-lineage-change-col]");
    if (header) header.hidden = !this.compared;
  }

  changeCell(change) {
    const td = document.createElement("td");
    td.className = "nowrap";
    if (!change) {
      td.textContent = "—";
      return td;
    }
    const badge = document.createElement("span");
    badge.className = `badge change-${change}`;
    badge.textContent = `${CHANGE_MARKS[change]}${change}`;
    td.append(badge);
    return td;
  }

  // One row per asset; in a column view its type cell names the columns reached.
  row(n, columns) {
    const tr = document.createElement("tr");
    const name = document.createElement("td");
    const link = document.createElement("a");
    link.href = lineageHref(n.asset, this.depth, this.direction, this.asOf, this.compare);
    link.dataset.asset = n.asset;
    const code = document.createElement("code");
    code.textContent = n.asset;
    const shown = n.name ?? n.label;
    // A placeholder is named by its id: the id once, as the link.
    if (shown === n.asset) link.append(code);
    else link.textContent = shown;
    name.append(link);
    if (shown !== n.asset) name.append(" ", code);
    const type = columns ? `column ${columns.sort().join(", ")}` : n.type;
    const cell = (text) => {
      const td = document.createElement("td");
      td.className = "nowrap";
      td.textContent = text;
      return td;
    };
    tr.append(name, cell(type), cell(n.platform || "—"), this.datasetCell(n.dataset));
    tr.append(cell(n.direction), cell(String(n.distance)));
    if (this.compared) tr.append(this.changeCell(n.change));
    return tr;
  }

  datasetCell(dataset) {
    const td = document.createElement("td");
    if (!dataset) {
      td.textContent = "—";
      return td;
    }
    const name = document.createElement("code");
    name.textContent = dataset.name;
    const namespace = document.createElement("div");
    namespace.className = "sub";
    namespace.textContent = dataset.namespace;
    td.append(name, namespace);
    return td;
  }

  // Which moment the graph shows, and in a comparison the legend with what changed.
  describeTime(view) {
    const span = this.compared;
    if (this.when) {
      const asOf = this.asOf ? `as it stood at ${spoken(this.asOf)}` : "";
      this.when.textContent = span
        ? `Changes between ${spoken(span.from)} and ${spoken(span.to)}: the graph at both moments, drawn together.`
        : asOf && `The graph ${asOf}.`;
      this.when.hidden = !this.when.textContent;
    }
    if (!this.legend) return;
    this.legend.hidden = !span;
    if (!span) return;
    for (const change of ["added", "removed"]) {
      const nodes = view.nodes.filter((n) => n.change === change).length;
      const edges = view.edges.filter((e) => e.change === change).length;
      const count = this.legend.querySelector(`[data-legend-count="${change}"]`);
      count.textContent = `${nodes} ${nodes === 1 ? "asset" : "assets"}, ${edges} ${edges === 1 ? "edge" : "edges"}`;
    }
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
