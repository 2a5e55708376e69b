// Copies the few library files the pages load from node_modules into ../static/vendor,
// so the service serves them itself (no CDN) and nothing else of node_modules ships.
import { copyFileSync, mkdirSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const here = dirname(fileURLToPath(import.meta.url));
const target = join(here, "..", "static", "vendor");
const files = {
  "cytoscape/dist/cytoscape.esm.min.mjs": "cytoscape.esm.min.mjs",
  "cytoscape-dagre/dist/cytoscape-dagre.min.mjs": "cytoscape-dagre.min.mjs",
  "axe-core/axe.min.js": "axe.min.js",
};

mkdirSync(target, { recursive: true });
for (const [source, name] of Object.entries(files)) {
  copyFileSync(join(here, "node_modules", source), join(target, name));
}
console.log(`vendored ${Object.keys(files).length} files into ${target}`);
