// What the lineage graph draws of a large neighbourhood, and where: a column (one signed
// distance from the centre) wider than GROUP_AT nodes is drawn as groups of its nodes
// (by platform, dbt project or the whole column), each one box with its count, so
// 10,000 assets draw as a few dozen boxes; an expanded group draws its members as a
// grid, EXPAND_STEP at a time, never as one line of overlapping boxes. Pure functions
// of the loaded view and the expansion state; lineage.js turns them into cytoscape.

export const GROUP_AT = 40;
export const EXPAND_STEP = 100;
// A group this small is drawn as its members: a box saying "2 assets" hides more than it saves.
const SMALL_GROUP = 3;
// Rows of a grid before it wraps into another column, and the grid's cell.
const ROWS = 20;
const CELL_W = 250;
const CELL_H = 54;
const COLUMN_GAP = 110;
const BLOCK_GAP = 36;
const PARENT_PAD = 10;
// Room above a frame for its title, drawn outside its border.
const TITLE_ROOM = 30;

const DBT_KINDS = new Set(["model", "seed", "snapshot", "source", "exposure", "metric", "analysis", "semantic_model"]);

// A node's platform, else the scheme of its dataset's namespace (`snowflake://…`).
export function platformOf(n) {
  return n.platform || n.dataset?.namespace.split(":")[0] || "";
}

// The dbt project of a dbt node id (`model.<project>.<name>`), else null.
export function dbtProject(assetId) {
  const parts = assetId.split(".");
  return parts.length >= 3 && DBT_KINDS.has(parts[0]) ? parts[1] : null;
}

// The ways a wide column may be grouped: the key of a node, and how a group says it.
export const GROUPINGS = {
  platform: { label: "Platform", key: (n) => platformOf(n), words: (key) => (key ? `on ${key}` : "with no platform") },
  project: { label: "dbt project", key: (n) => dbtProject(n.asset) ?? "", words: (key) => (key ? `in dbt project ${key}` : "outside dbt") },
  layer: { label: "Layer", key: () => "", words: () => "" },
};

export const signedColumn = (n) => (n.direction === "upstream" ? -n.distance : n.distance);
const groupId = (x, key) => `group\u0002${x}\u0002${key}`;
const moreId = (group) => `${group}\u0002more`;
// Sorting 10,000 names: a collator's compare is many times faster than localeCompare.
export const byName = new Intl.Collator("en").compare;
const byTitle = (a, b) => byName(a.title, b.title) || byName(a.id, b.id);

// ["412 assets", "on snowflake, 2 downstream"]: a group's two lines.
export function groupLines(count, x, words) {
  const side = x < 0 ? `${-x} upstream` : `${x} downstream`;
  const what = `${count.toLocaleString("en")} ${count === 1 ? "asset" : "assets"}`;
  return [what, words ? `${words}, ${side}` : side];
}

// "412 assets on snowflake, 2 downstream"
export function groupWords(count, x, words) {
  const [what, where] = groupLines(count, x, words);
  return words ? `${what} ${where}` : `${what}, ${where}`;
}

// The groups of the view's wide columns, each with its members in name order
// (`title` on every node: the name the graph shows).
export function groupsOf(nodes, grouping) {
  const columns = new Map();
  for (const n of nodes) {
    const x = signedColumn(n);
    if (!columns.has(x)) columns.set(x, []);
    columns.get(x).push(n);
  }
  const groups = new Map();
  const member = new Map(); // node id -> its group id
  for (const [x, column] of columns) {
    if (x === 0 || column.length <= GROUP_AT) continue;
    const buckets = new Map();
    for (const n of column) {
      const key = grouping.key(n);
      if (!buckets.has(key)) buckets.set(key, []);
      buckets.get(key).push(n);
    }
    for (const [key, members] of buckets) {
      if (members.length <= SMALL_GROUP) continue;
      const id = groupId(x, key);
      members.sort(byTitle);
      groups.set(id, { id, x, key, members, words: grouping.words(key) });
      for (const n of members) member.set(n.id, id);
    }
  }
  return { groups, member };
}

// What is drawn: `items` (a node of the view, a collapsed group, an expanded group's
// frame, or its "more" box) and the edges between what is drawn, an edge into a
// group standing for all the view's edges into its members (`count`); an expanded
// group's edges end at its frame, so its grid is not crossed by a hundred lines.
// `expanded` maps a group id to how many members it shows; `revealed` holds nodes
// drawn on their own although their group is collapsed (a search hit, a clicked
// node's neighbours). `drawnAs` maps a node to what stands for it, `endAs` to where
// its edges end.
export function drawn(view, grouped, expanded, revealed) {
  const items = [];
  const drawnAs = new Map();
  const { groups, member } = grouped;
  for (const n of view.nodes) {
    if (member.has(n.id)) continue;
    items.push({ kind: "node", id: n.id, x: signedColumn(n), node: n });
    drawnAs.set(n.id, n.id);
  }
  for (const group of groups.values()) {
    const shown = expanded.get(group.id);
    if (shown) drawExpanded(group, shown, items, drawnAs);
    else drawCollapsed(group, revealed, items, drawnAs);
  }
  const endAs = new Map(drawnAs);
  for (const item of items) if (item.parent) endAs.set(item.id, item.parent);
  for (const [id, shown] of drawnAs) if (endAs.has(shown)) endAs.set(id, endAs.get(shown));
  return { items, edges: drawnEdges(view.edges, endAs), drawnAs, endAs };
}

function drawExpanded(group, shown, items, drawnAs) {
  const { id, x, members } = group;
  items.push({ kind: "frame", id, x, group });
  for (const n of members.slice(0, shown)) {
    items.push({ kind: "node", id: n.id, x, node: n, parent: id });
    drawnAs.set(n.id, n.id);
  }
  const rest = members.length - shown;
  if (rest <= 0) return;
  const more = moreId(id);
  items.push({ kind: "more", id: more, x, group, count: rest, parent: id });
  for (const n of members.slice(shown)) drawnAs.set(n.id, more);
}

function drawCollapsed(group, revealed, items, drawnAs) {
  const { id, x, members } = group;
  const hidden = members.filter((n) => !revealed.has(n.id));
  for (const n of members) {
    if (!revealed.has(n.id)) continue;
    items.push({ kind: "node", id: n.id, x, node: n });
    drawnAs.set(n.id, n.id);
  }
  if (!hidden.length) return;
  items.push({ kind: "group", id, x, group, count: hidden.length, changes: changeCounts(hidden) });
  for (const n of hidden) drawnAs.set(n.id, id);
}

function changeCounts(nodes) {
  const counts = { added: 0, removed: 0 };
  for (const n of nodes) if (n.change) counts[n.change] += 1;
  return counts;
}

// One edge per pair of drawn ends; between two drawn nodes it is the view's own edge
// (same id as ever: `source\u0001target`), else it counts the edges it stands for.
function drawnEdges(edges, drawnAs) {
  const out = new Map();
  for (const e of edges) {
    const source = drawnAs.get(e.source);
    const target = drawnAs.get(e.target);
    if (!source || !target || source === target) continue;
    const id = `${source}\u0001${target}`;
    const known = out.get(id);
    if (known) known.count += 1;
    else out.set(id, source === e.source && target === e.target ? { ...e, id, count: 1 } : { id, source, target, origins: null, change: null, count: 1 });
  }
  for (const e of out.values()) {
    if (e.count > 1) e.origins = null;
  }
  return [...out.values()];
}

// Positions for what is drawn: one column per signed distance, the centre's at 0; each
// column a stack of blocks (a node, a group, an expanded group's grid of at most ROWS
// rows), ordered by the mean height of their neighbours in the columns nearer the
// centre (one barycentre sweep, linear), so edges mostly run straight.
export function gridPositions(items, edges) {
  const neighbours = new Map(items.map((item) => [item.id, []]));
  for (const e of edges) {
    neighbours.get(e.source)?.push(e.target);
    neighbours.get(e.target)?.push(e.source);
  }
  const columns = new Map();
  const blocks = new Map();
  for (const item of items) {
    if (!columns.has(item.x)) columns.set(item.x, []);
    if (item.parent) {
      blocks.get(item.parent).members.push(item);
      continue;
    }
    const block = { item, members: [] };
    if (item.kind === "frame") blocks.set(item.id, block);
    columns.get(item.x).push(block);
  }
  const placed = new Map();
  const positions = {};
  const widths = new Map();
  const order = [...columns.keys()].sort((a, b) => Math.abs(a) - Math.abs(b) || a - b);
  for (const x of order) {
    const column = columns.get(x);
    const weight = new Map(column.map((b) => [b, barycentre(b, neighbours, placed)]));
    column.sort((a, b) => weight.get(a) - weight.get(b) || byName(title(a), title(b)));
    widths.set(x, stack(column, x, positions, placed));
  }
  return shiftColumns(positions, widths, items);
}

const title = (block) => block.item.node?.title ?? block.item.id;

function barycentre(block, neighbours, placed) {
  const ids = block.members.length ? block.members.map((m) => m.id) : [block.item.id];
  let sum = 0;
  let count = 0;
  for (const id of ids) {
    for (const m of neighbours.get(id) ?? []) {
      if (!placed.has(m)) continue;
      sum += placed.get(m);
      count += 1;
    }
  }
  return count ? sum / count : Infinity;
}

// Places a column's blocks top to bottom around y = 0 (x relative to the column's
// centre, shifted later); returns the column's width.
function stack(column, x, positions, placed) {
  const sizes = column.map((b) => blockSize(b));
  const height = sizes.reduce((sum, s) => sum + s.height, 0) + BLOCK_GAP * Math.max(0, column.length - 1);
  let top = -height / 2;
  column.forEach((block, i) => {
    const { cols, height: h } = sizes[i];
    if (!block.members.length) {
      positions[block.item.id] = { x: 0, y: top + h / 2, column: x };
      placed.set(block.item.id, top + h / 2);
    }
    block.members.forEach((m, k) => {
      const col = Math.floor(k / ROWS);
      const row = k % ROWS;
      const y = top + TITLE_ROOM + PARENT_PAD + row * CELL_H + CELL_H / 2;
      positions[m.id] = { x: (col - (cols - 1) / 2) * CELL_W, y, column: x };
      placed.set(m.id, y);
    });
    top += h + BLOCK_GAP;
  });
  return Math.max(...sizes.map((s) => s.cols)) * CELL_W;
}

function blockSize(block) {
  const n = block.members.length;
  if (!n) return { cols: 1, height: block.item.kind === "group" ? CELL_H + 14 : CELL_H };
  return { cols: Math.ceil(n / ROWS), height: Math.min(n, ROWS) * CELL_H + PARENT_PAD + TITLE_ROOM };
}

// Columns side by side, each as wide as its widest block, the centre's at x = 0.
function shiftColumns(positions, widths, items) {
  const centre = new Map([[0, 0]]);
  const xs = [...widths.keys()];
  for (const sign of [1, -1]) {
    const side = xs.filter((x) => x * sign > 0).sort((a, b) => Math.abs(a) - Math.abs(b));
    let previous = 0;
    for (const x of side) {
      const at = (centre.get(previous) ?? 0) + sign * ((widths.get(previous) ?? CELL_W) / 2 + COLUMN_GAP + widths.get(x) / 2);
      centre.set(x, at);
      previous = x;
    }
  }
  const out = {};
  for (const item of items) {
    const p = positions[item.id];
    if (p) out[item.id] = { x: p.x + centre.get(p.column), y: p.y };
  }
  return out;
}

// Fewest-hop paths from the centre over the loaded edges, both ways: `down` maps a node
// to the node before it on a path from the centre, `up` to the node after it on a path
// into the centre. Built once per loaded view (linear), read per highlight.
export function pathIndex(view, root) {
  const outgoing = new Map();
  const incoming = new Map();
  for (const e of view.edges) {
    if (!outgoing.has(e.source)) outgoing.set(e.source, []);
    if (!incoming.has(e.target)) incoming.set(e.target, []);
    outgoing.get(e.source).push(e.target);
    incoming.get(e.target).push(e.source);
  }
  return { down: breadthFirst(root, outgoing), up: breadthFirst(root, incoming) };
}

function breadthFirst(root, next) {
  const before = new Map([[root, null]]);
  const queue = [root];
  for (let i = 0; i < queue.length; i += 1) {
    for (const m of next.get(queue[i]) ?? []) {
      if (before.has(m)) continue;
      before.set(m, queue[i]);
      queue.push(m);
    }
  }
  return before;
}

// The node ids of the path between the centre and `id`, in the direction data flows;
// null when the loaded edges hold none.
export function pathTo(index, id, upstream) {
  const before = upstream ? index.up : index.down;
  if (!before.has(id)) return null;
  const path = [];
  for (let at = id; at !== null; at = before.get(at)) path.push(at);
  return upstream ? path : path.reverse();
}
