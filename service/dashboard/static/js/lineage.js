// The interactive lineage view: a left-to-right layered graph (cytoscape + dagre) of
// the assets around one asset, kept in step with the accessible tables beneath it.
// Data comes from /ui/lineage (the API's own traversal behind the session cookie,
// with each node's dataset and each edge's origins, the writers asserting it), shaped
// into views by lineage_data.js; lineage_groups.js says what is drawn and where, and
// lineage_style.js how it looks.
import cytoscape from "/static/vendor/cytoscape.esm.min.mjs";
import dagre from "/static/vendor/cytoscape-dagre.min.mjs";
import { assetView, clip, columnView, displayName, getJson, merged, segment, whereabouts } from "./lineage_data.js";
import { EXPAND_STEP, GROUPINGS, byName, drawn, gridPositions, groupLines, groupWords, groupsOf, pathIndex, pathTo } from "./lineage_groups.js";
import { style } from "./lineage_style.js";

cytoscape.use(dagre);

// Above this many drawn nodes dagre's crossing minimisation takes seconds; the graph is
// then placed in columns by signed distance (lineage_groups.js), which is linear, as it
// is whenever a wide column is drawn as groups.
const LAYERED_MAX = 600;
// Assets a view asks for per page unless its address says `limit` (the page's default),
// and the most a view's first answer holds: a larger `limit` is fetched once the first
// page is drawn (`fill`), so a 10,000-asset view is interactive at the cost of 2,000.
const NODE_LIMIT = 2000;

// Below this zoom a node's 12 px name is under `min-zoomed-font-size` and not drawn.
const READABLE_ZOOM = 0.75;

// The query a view is asked for and linked by: the time fields only when set.
// `limit` only when it is not the page's default.
const viewQuery = (depth, direction, asOf = "", compare = "", limit = NODE_LIMIT) => {
  const query = new URLSearchParams({ depth: String(depth), direction });
  if (asOf) query.set("as_of", asOf);
  if (compare) query.set("compare", compare);
  if (limit !== NODE_LIMIT) query.set("limit", String(limit));
  return query.toString();
};
const lineageHref = (id, depth, direction, asOf = "", compare = "", limit = NODE_LIMIT) =>
  `/lineage/${segment(id)}?${viewQuery(depth, direction, asOf, compare, limit)}`;

// Every time on these pages is UTC, so the time fields are too: a datetime-local value
// (`2026-11-20T10:00`, seconds and milliseconds optional) is that moment in UTC, and the
// address carries it as RFC 3339. The service answers instants as `…T10:00:00.000Z`.
const toInstant = (local) => (local ? `${local.length === 16 ? `${local}:00` : local}Z` : "");
// The field's value in the shortest form, as browsers normalise it (`05.120` is `05.12`,
// whole minutes drop their seconds), the same spelling the server renders.
const toLocal = (instant) => {
  if (!instant) return "";
  let local = instant.replace(/Z$/, "");
  if (local.includes(".")) local = local.replace(/0+$/, "").replace(/\.$/, "");
  return local.length === 19 ? local.replace(/:00$/, "") : local;
};
const spoken = (instant) => (instant ? `${instant.slice(0, 10)} ${instant.slice(11, 19)} UTC` : "now");
// The non-colour cue of a change, before a node's name (the tables say it in words).
const CHANGE_MARKS = { added: "+ ", removed: "− " };

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
    this.limit = Number(section.dataset.limit) || NODE_LIMIT;
    this.tableRows = Number(section.dataset.tableRows) || 500;
    this.grouping = "platform";
    this.expanded = new Map(); // group id -> members it draws
    this.revealed = new Set(); // node ids drawn although their group is collapsed
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
    this.bindTools();
  }

  // The graph's own tools: find a loaded node, the grouping of wide columns, collapse
  // every group, and the next page of a view that has more.
  bindTools() {
    this.tools = this.section.querySelector("[data-lineage-tools]");
    this.findStatus = this.section.querySelector("[data-lineage-find-status]") ?? document.createElement("span");
    const find = this.section.querySelector("[data-lineage-find]");
    find?.addEventListener("submit", (event) => {
      event.preventDefault();
      this.find(String(new FormData(find).get("q") || ""));
    });
    const choice = this.section.querySelector("[data-lineage-group]");
    if (choice) {
      choice.replaceChildren(...Object.entries(GROUPINGS).map(([value, g]) => new Option(g.label, value)));
      choice.value = this.grouping;
      choice.addEventListener("change", () => {
        this.grouping = choice.value;
        this.expanded.clear();
        this.draw({ fit: true });
      });
    }
    this.collapseAll = this.section.querySelector("[data-lineage-collapse]");
    this.collapseAll?.addEventListener("click", () => {
      this.expanded.clear();
      this.revealed.clear();
      if (this.found) this.found.hit = null;
      this.draw({ fit: true });
    });
    this.more = this.section.querySelector("[data-lineage-more]");
    this.moreText = this.section.querySelector("[data-lineage-more-text]");
    this.moreButton = this.section.querySelector("[data-lineage-more-button]");
    this.moreButton?.addEventListener("click", () => this.loadMore());
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
    const data = element.data();
    const lines = element.isEdge() ? this.edgeLines(data) : data.kind === "node" ? this.nodeLines(data) : this.groupLines(data);
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

  // A group's count and what a click does.
  groupLines(g) {
    const group = this.grouped.groups.get(g.group);
    const click = { group: "draw its assets", frame: "collapse it", more: `draw ${EXPAND_STEP} more` }[g.kind];
    const lines = [["", g.title], ["Click", `to ${click}`]];
    if (g.kind === "group") lines.push(["First", group.members.slice(0, 3).map((m) => m.title).join(", ")]);
    return lines;
  }

  edgeLines(e) {
    const name = (id) => this.cy.getElementById(id).data("text") ?? (this.byId.has(id) ? clip(this.byId.get(id).title) : id);
    const lines = [["", `${name(e.source)} → ${name(e.target)}`]];
    if (e.count > 1) lines.push(["Edges", e.count.toLocaleString("en")]);
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
      const node = link && this.view?.nodes.find((n) => n.asset === link.dataset.asset);
      if (node && this.cy) this.highlightPath(node.id);
    };
    this.rows?.addEventListener("mouseover", fromRow);
    this.rows?.addEventListener("focusin", fromRow);
    this.rows?.addEventListener("mouseleave", () => this.clearHighlight());
    // An edge inside groups stands out as the group edge holding it, said in its own names.
    const fromEdgeRow = (event) => {
      const row = event.target.closest?.("tr[data-source]");
      if (!row || !this.cy) return;
      const { source, target } = row.dataset;
      const edge = this.cy.getElementById(`${this.endAs.get(source)}\u0001${this.endAs.get(target)}`);
      const own = this.view.edges.find((e) => e.source === source && e.target === target);
      if (edge.length && own) this.highlightEdge(edge, own);
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
    const { root, depth, direction, column, asOf, compare, limit } = this;
    return { root, depth, direction, column, asOf, compare, limit };
  }

  href() {
    return lineageHref(this.root, this.depth, this.direction, this.asOf, this.compare, this.limit);
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
    const generation = (this.generation = (this.generation ?? 0) + 1);
    this.section.dataset.lineageReady = "false";
    this.section.dataset.lineageFilling = "false";
    this.status.textContent = "Loading…";
    this.error.hidden = true;
    try {
      const view = this.column ? await this.fetchColumns() : await this.fetchAssets();
      if (generation !== this.generation) return;
      performance.mark("lineage:data");
      this.filling = Boolean(!this.column && view.nextCursor && view.nodes.length < this.limit);
      this.render(view);
      if (this.filling) await this.fill(generation);
    } catch (problem) {
      if (generation !== this.generation) return;
      this.error.textContent = problem.message;
      this.error.hidden = false;
      this.status.textContent = "";
      this.section.dataset.lineageReady = "true";
    }
  }

  async fetchAssets() {
    // A compared view is one answer, never paged: it is asked for whole.
    const first = this.compare ? this.limit : Math.min(this.limit, NODE_LIMIT);
    const query = `${viewQuery(this.depth, this.direction, this.asOf, this.compare)}&limit=${first}`;
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

  // The rest of what the view's `limit` asks for, after its first page: one further
  // page, added as Load more adds one, the viewport left where the reader has moved it.
  async fill(generation) {
    this.section.dataset.lineageFilling = "true";
    try {
      const page = await this.fetchPage(this.view.nextCursor, this.limit - this.view.nodes.length);
      if (generation !== this.generation) return;
      this.filling = false;
      this.render(merged(this.view, assetView(page)), true, !this.moved);
    } catch (problem) {
      if (generation !== this.generation) return;
      this.filling = false;
      this.describeMore(this.view);
      this.error.textContent = problem.message;
      this.error.hidden = false;
    } finally {
      if (generation === this.generation) this.section.dataset.lineageFilling = "false";
    }
  }

  // A further page of the asset view, after `cursor`, of at most `limit` assets.
  async fetchPage(cursor, limit) {
    const query = `${viewQuery(this.depth, this.direction, this.asOf)}&limit=${limit}&cursor=${encodeURIComponent(cursor)}`;
    const page = await getJson(`/ui/lineage/${segment(this.root)}?${query}`);
    for (const n of page.nodes) this.seen.set(n.id, n);
    return page;
  }

  // A new view (or a new page of it): the tables, the words around the graph, and the
  // graph drawn with its groups collapsed, unless `keep` (a further page) keeps them;
  // fitted to the canvas unless `fit` is false.
  render(view, keep = false, fit = true) {
    for (const n of view.nodes) n.title = n.column ? n.label : displayName(n);
    this.view = view;
    this.byId = new Map(view.nodes.map((n) => [n.id, n]));
    this.paths = pathIndex(view, view.nodes.find((n) => n.direction === "root")?.id);
    if (!keep) {
      this.expanded = new Map();
      this.revealed = new Set();
      this.found = null;
    }
    this.compared = view.compare ?? null;
    this.fillTable(view);
    this.fillEdges(view);
    this.describe(view);
    this.describeTime(view);
    this.describeMore(view);
    this.draw({ fit });
  }

  // The groups of the loaded view as grouped now; redone when the view or the choice changes.
  regroup() {
    this.grouped = groupsOf(this.view.nodes, GROUPINGS[this.grouping]);
    if (this.tools) this.tools.hidden = false;
    if (this.collapseAll) this.collapseAll.disabled = !this.expanded.size && !this.revealed.size;
  }

  // Draws what the expansion state shows: dagre for a small graph with nothing grouped,
  // else columns of blocks (lineage_groups.js). `focus` is what the viewport goes to.
  draw({ fit = false, focus = null } = {}) {
    this.section.dataset.lineageReady = "false";
    this.hideTip(true);
    if (this.path) this.path.textContent = "";
    this.regroup();
    const shown = drawn(this.view, this.grouped, this.expanded, this.revealed);
    this.drawnAs = shown.drawnAs;
    this.endAs = shown.endAs;
    const elements = [
      ...shown.items.map((item) => this.element(item)),
      ...shown.edges.map((e) => ({ group: "edges", data: e, classes: [e.change ?? "", e.count > 1 ? "bundle" : ""].join(" ").trim() })),
    ];
    const cy = this.graph();
    cy.batch(() => {
      cy.elements().remove();
      cy.add(elements);
    });
    const layered = !this.grouped.groups.size && shown.items.length <= LAYERED_MAX;
    const layout = layered
      ? { name: "dagre", rankDir: "LR", nodeSep: 14, rankSep: 70, padding: 30, fit }
      : { name: "preset", positions: gridPositions(shown.items, shown.edges), fit, padding: 30 };
    cy.layout(layout).run();
    if (fit) this.moved = false;
    if (focus) this.goTo(focus);
    performance.mark("lineage:built");
    this.describeGroups();
    requestAnimationFrame(() => {
      performance.mark("lineage:ready");
      this.section.dataset.lineageReady = "true";
    });
  }

  // One cytoscape instance per section, kept across views and redraws (an export can
  // read what is drawn from `window.governanceLineage`).
  graph() {
    if (this.cy) return this.cy;
    this.cy = cytoscape({
      container: this.canvas,
      style: style(),
      minZoom: 0.05,
      maxZoom: 3,
      pixelRatio: "auto",
    });
    if (!this.compact) window.governanceLineage = this.cy;
    // The reader's own pan, zoom or click: a page arriving later leaves the viewport be.
    for (const kind of ["pointerdown", "wheel"]) this.canvas.addEventListener(kind, () => { this.moved = true; }, { passive: true });
    this.bindGraph();
    return this.cy;
  }

  element(item) {
    if (item.kind === "node") return this.nodeElement(item.node, item.parent);
    const { group } = item;
    const side = group.x < 0 ? "upstream" : "downstream";
    const data = { id: item.id, kind: item.kind, group: group.id, direction: side, ...(item.parent ? { parent: item.parent } : {}) };
    const words = groupWords(item.kind === "frame" ? group.members.length : item.count, group.x, group.words);
    if (item.kind === "frame") {
      return { group: "nodes", data: { ...data, text: words, title: words, label: `${words} · click here to collapse` }, classes: "frame" };
    }
    if (item.kind === "more") {
      const text = `${item.count.toLocaleString("en")} more`;
      const label = `${text}\nclick to draw ${Math.min(item.count, EXPAND_STEP)} more`;
      return { group: "nodes", data: { ...data, text, title: `${text} of ${words}`, label }, classes: "more two-line" };
    }
    const [what, where] = groupLines(item.count, group.x, group.words);
    const changes = item.changes && this.compared ? ` (+${item.changes.added} −${item.changes.removed})` : "";
    const label = `${what}${changes}\n${where}`;
    return { group: "nodes", data: { ...data, text: words, title: words, label, count: item.count }, classes: `group ${side} two-line` };
  }

  nodeElement(n, parent) {
    const second = n.column ? "" : whereabouts(n);
    const text = clip(n.title);
    const marked = `${CHANGE_MARKS[n.change] ?? ""}${text}`;
    const label = second ? `${marked}\n${second}` : marked;
    const found = this.found?.hit === n.id ? "found" : "";
    const classes = [n.direction, n.placeholder ? "placeholder" : "", second ? "two-line" : "", n.change ?? "", found];
    const data = { ...n, kind: "node", text, label, ...(parent ? { parent } : {}) };
    return { group: "nodes", data, classes: classes.join(" ").trim() };
  }

  bindGraph() {
    const cy = this.cy;
    cy.on("tap", "node", (event) => this.tapped(event.target));
    cy.on("mouseover", "node", (event) => {
      this.highlight(event.target);
      if (!this.pinned) this.showTip(event.target, event.renderedPosition);
    });
    cy.on("mouseout", "node", () => {
      this.clearHighlight();
      this.hideTip();
    });
    cy.on("mouseover", "edge", (event) => {
      this.highlightEdge(event.target);
      if (!this.pinned) this.showTip(event.target, event.renderedPosition);
    });
    cy.on("mouseout", "edge", () => {
      this.clearHighlight();
      this.hideTip();
    });
    cy.on("tap", "edge", (event) => this.pinEdge(event.target, event.renderedPosition));
    cy.on("tap", (event) => {
      if (event.target !== cy) return;
      this.clearHighlight();
      this.hideTip(true);
    });
  }

  // A click: a group expands, its frame collapses it, "more" draws the next members; a
  // node first draws its neighbours that groups hide, and once all are drawn, becomes
  // the centre.
  tapped(target) {
    const kind = target.data("kind");
    const group = target.data("group");
    if (kind === "group") this.expand(group);
    else if (kind === "frame") this.collapse(group);
    else if (kind === "more") this.expand(group, (this.expanded.get(group) ?? 0) + EXPAND_STEP);
    else if (!this.revealNeighbours(target.id())) {
      const asset = target.data("asset");
      const hidden = this.view?.nodes.find((n) => n.asset === asset)?.redacted;
      if (!hidden && (asset !== this.root || this.column)) this.recentre(asset);
    }
  }

  expand(group, shown = EXPAND_STEP) {
    this.expanded.set(group, shown);
    this.draw({ focus: group });
  }

  collapse(group) {
    this.expanded.delete(group);
    this.draw({ focus: group });
  }

  // Draws the node's neighbours hidden in groups; false when none were.
  revealNeighbours(id) {
    const hidden = this.view.edges
      .flatMap((e) => (e.source === id ? [e.target] : e.target === id ? [e.source] : []))
      .filter((m) => this.drawnAs.get(m) !== m);
    if (!hidden.length) return false;
    for (const m of hidden) this.revealed.add(m);
    this.draw({ focus: id });
    this.findStatus.textContent = `Drew ${hidden.length} ${hidden.length === 1 ? "neighbour" : "neighbours"} of ${this.byId.get(id).title}; click it again to centre the graph on it.`;
    return true;
  }

  // The viewport on a drawn thing: a node centred at a readable zoom, a group's frame fitted.
  goTo(id) {
    const target = this.cy.getElementById(id);
    if (!target.length) return;
    if (target.data("kind") === "frame") {
      this.showFrame(target);
      return;
    }
    this.cy.zoom(Math.max(this.cy.zoom(), READABLE_ZOOM));
    this.cy.center(target);
  }

  // An expanded group at a zoom its names can be read at: fitted when it fits, else
  // its top (and left, when wider than the canvas) in view.
  showFrame(frame) {
    const cy = this.cy;
    cy.fit(frame, 30);
    if (cy.zoom() >= READABLE_ZOOM) {
      if (cy.zoom() > 1) cy.zoom({ level: 1, position: frame.position() });
      return;
    }
    const box = frame.boundingBox();
    const zoom = READABLE_ZOOM;
    const wide = box.w * zoom > cy.width() - 40;
    cy.viewport({
      zoom,
      pan: { x: wide ? 20 - box.x1 * zoom : cy.width() / 2 - ((box.x1 + box.x2) / 2) * zoom, y: 20 - box.y1 * zoom },
    });
  }

  // Search among the loaded nodes by name or id; Find again goes to the next match.
  find(query) {
    const q = query.trim().toLowerCase();
    if (!q || !this.view) return;
    this.moved = true;
    if (this.found?.query !== q) {
      const matches = this.view.nodes
        .filter((n) => n.title.toLowerCase().includes(q) || n.id.toLowerCase().includes(q))
        .sort((a, b) => a.distance - b.distance || byName(a.title, b.title));
      this.found = { query: q, matches, index: -1, hit: null };
    }
    const { matches } = this.found;
    if (!matches.length) {
      const more = this.view.nextCursor ? " Load more to search further." : "";
      this.findStatus.textContent = `Nothing loaded matches “${query.trim()}”.${more}`;
      this.found.hit = null;
      this.draw();
      return;
    }
    this.found.index = (this.found.index + 1) % matches.length;
    const hit = matches[this.found.index];
    this.found.hit = hit.id;
    this.revealed.add(hit.id);
    this.draw({ focus: hit.id });
    this.highlight(this.cy.getElementById(hit.id));
    const count = matches.length === 1 ? "1 match" : `${this.found.index + 1} of ${matches.length} matches`;
    this.findStatus.textContent = `${count}: ${hit.title} (${hit.direction}, ${hit.distance} ${hit.distance === 1 ? "hop" : "hops"})`;
  }

  // The next page of the view, added to what is drawn (groups stay as they are).
  async loadMore() {
    const cursor = this.view?.nextCursor;
    if (!cursor) return;
    this.moreButton.disabled = true;
    this.section.dataset.lineageReady = "false";
    try {
      const page = await this.fetchPage(cursor, this.limit);
      this.render(merged(this.view, assetView(page)), true);
    } catch (problem) {
      this.error.textContent = problem.message;
      this.error.hidden = false;
      this.section.dataset.lineageReady = "true";
    } finally {
      this.moreButton.disabled = false;
    }
  }

  // The shortest loaded path between the centre and what is pointed at, in the direction
  // data flows, drawn through the groups that hold its nodes, and spelled out in names.
  highlight(target) {
    this.highlightPath(target.data("kind") === "node" ? target.id() : this.firstHidden(target.data("group")));
  }

  highlightPath(id) {
    const n = id && this.byId.get(id);
    if (!n || n.direction === "root") return;
    const path = pathTo(this.paths, id, n.direction === "upstream");
    if (!path) return;
    let onPath = this.cy.collection();
    path.forEach((m, i) => {
      onPath = onPath.union(this.cy.getElementById(this.drawnAs.get(m)));
      const [from, to] = [this.endAs.get(path[i - 1]), this.endAs.get(m)];
      if (i && from !== to) onPath = onPath.union(this.cy.getElementById(`${from}\u0001${to}`));
    });
    this.cy.batch(() => {
      this.cy.elements().removeClass("on-path").addClass("dimmed");
      onPath.removeClass("dimmed").addClass("on-path");
    });
    if (this.path) {
      const names = path.map((m) => clip(this.byId.get(m).title));
      this.path.textContent = `Path: ${names.join(" → ")}`;
    }
  }

  // The first member a group (or its "more" box, or its frame) stands for.
  firstHidden(group) {
    const members = this.grouped.groups.get(group)?.members ?? [];
    return members.find((m) => this.drawnAs.get(m.id) !== m.id)?.id ?? members[0]?.id;
  }

  // One edge, from its row in the edges table: the edge stands out (or the group edge
  // that holds it), its writers are said.
  highlightEdge(edge, own = edge.data()) {
    this.cy.batch(() => {
      this.cy.elements().removeClass("on-path").addClass("dimmed");
      edge.union(edge.connectedNodes()).removeClass("dimmed").addClass("on-path");
    });
    if (this.path) {
      const [line, origins] = this.edgeLines({ ...own, count: 1 });
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
    const assets = [...byAsset.values()].sort((a, b) => a.distance - b.distance || byName(a.label, b.label));
    this.showChangeColumn(this.rows.closest("table"));
    this.fillCapped(this.rows, assets, (n) => this.row(n, columns.get(n.asset)), "assets");
  }

  // A table shows its first `tableRows` rows (building 10,000 rows costs more than
  // drawing the graph); a button beneath it shows them all.
  fillCapped(tbody, items, makeRow, noun) {
    const table = tbody.closest("table");
    const next = table.nextElementSibling;
    let note = next?.matches("[data-lineage-table-more]") ? next : null;
    tbody.replaceChildren(...items.slice(0, this.tableRows).map(makeRow));
    if (items.length <= this.tableRows) {
      note?.remove();
      return;
    }
    if (!note) {
      note = document.createElement("p");
      note.className = "lineage-table-more";
      note.dataset.lineageTableMore = "";
      table.after(note);
    }
    const all = document.createElement("button");
    all.type = "button";
    all.className = "btn btn-small";
    all.textContent = `Show all ${items.length.toLocaleString("en")} ${noun}`;
    all.addEventListener("click", () => {
      tbody.replaceChildren(...items.map(makeRow));
      note.remove();
    });
    const first = `The first ${this.tableRows.toLocaleString("en")} of ${items.length.toLocaleString("en")} ${noun}. `;
    note.replaceChildren(first, all);
  }

  // One row per asset edge with the writers asserting it; a column view has no such
  // edges (its own are between columns), so the table stands aside.
  fillEdges(view) {
    if (!this.edgeRows) return;
    const table = this.edgeRows.closest("table");
    table.hidden = Boolean(this.column);
    const name = (id) => this.seen.get(id)?.name ?? id;
    const edges = this.column ? [] : [...view.edges].sort((a, b) => byName(name(a.source), name(b.source)) || byName(name(a.target), name(b.target)));
    const row = (e) => {
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
    };
    this.showChangeColumn(table);
    const origins = table.querySelector("[data-lineage-origins-col]");
    if (origins) origins.textContent = this.assertedLabel();
    this.fillCapped(this.edgeRows, edges, row, "edges");
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
    // A stand-in for a hidden asset leads nowhere: its name is text, not a link.
    const link = document.createElement(n.redacted ? "span" : "a");
    if (!n.redacted) {
      link.href = lineageHref(n.asset, this.depth, this.direction, this.asOf, this.compare);
      link.dataset.asset = n.asset;
    }
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
    const count = (n) => n.toLocaleString("en");
    const what = this.column ? `columns of ${count(assets)} assets` : `${count(assets)} assets`;
    // Without a cursor to go on, a cut view can only say where it was cut.
    const cut = view.truncated && !view.nextCursor ? ` (truncated at ${this.limit.toLocaleString("en")})` : "";
    this.counts = `${what}, ${count(view.edges.length)} edges${cut}`;
    this.status.textContent = this.counts;
  }

  // "1,234 more downstream, 56 more upstream", beside the button that loads them.
  describeMore(view) {
    if (!this.more) return;
    this.more.hidden = !view.nextCursor;
    if (!view.nextCursor) return;
    this.moreButton.hidden = this.filling;
    if (this.filling) {
      this.moreText.textContent = `Loading the rest of the ${this.limit.toLocaleString("en")} assets asked for…`;
      return;
    }
    const left = Object.entries(view.remaining ?? {})
      .filter(([, count]) => count > 0)
      .map(([side, count]) => `${count.toLocaleString("en")} more ${side}`);
    this.moreText.textContent = left.length ? `${left.join(", ")} —` : "More assets are within reach —";
  }

  // How the graph stands for what it does not draw: said once, after the counts.
  describeGroups() {
    const status = this.counts;
    const { size } = this.grouped.groups;
    if (!size) {
      this.status.textContent = status;
      return;
    }
    const collapsed = [...this.grouped.groups.keys()].filter((g) => !this.expanded.has(g)).length;
    this.status.textContent = `${status}. Wide columns are drawn as ${size} ${size === 1 ? "group" : "groups"} (${collapsed} collapsed): click a group to draw its assets.`;
  }
}

for (const section of document.querySelectorAll("[data-lineage]")) {
  // The page rendered the first asset's column choices already.
  section.dataset.columnsOf = section.dataset.root;
  new LineageView(section).load();
}
