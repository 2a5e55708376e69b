// Runs the README's install and quick-start blocks as a newcomer would.
//
// In a new directory it runs the line of the `## Install` block that installs from
// a checkout, with `./clients/js` replaced by the tarball `npm pack` makes of this
// folder (what a registry would serve; the other line installs from the registry),
// saves the `## Quick start` program under the name the README gives it, and runs
// it with node against GOVERNANCE_URL and GOVERNANCE_TOKEN: it must print what the
// `text` block after it shows. The blocks are read from
// README.md each time, so the README cannot drift from what works. Run by test.sh;
// exits non-zero, showing the step's output, when a step fails.

import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const HERE = fileURLToPath(new URL('..', import.meta.url));
const CHECKOUT_PATH = './clients/js';

function fail(message) {
  console.error(`check-readme: ${message}`);
  process.exit(1);
}

/** The text under `## heading`, up to the next heading of that level. */
function section(text, heading) {
  const start = text.indexOf(`\n## ${heading}\n`);
  if (start < 0) fail(`README.md has no '## ${heading}' section`);
  const end = text.indexOf('\n## ', start + heading.length + 4);
  return text.slice(start, end < 0 ? undefined : end);
}

/** The first fenced block in `language`. */
function fenced(text, language) {
  const match = text.match(new RegExp(`^\`\`\`${language}\\n([\\s\\S]*?)^\`\`\`$`, 'm'));
  if (!match) fail(`no \`\`\`${language} block where expected`);
  return match[1];
}

function run(command, args, cwd, env, what) {
  try {
    return execFileSync(command, args, { cwd, env, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
  } catch (error) {
    console.error(`${error.stdout ?? ''}\n${error.stderr ?? ''}`);
    return fail(`${what} failed (${error.status ?? error.message})`);
  }
}

const text = readFileSync(join(HERE, 'README.md'), 'utf8');
const installLines = fenced(section(text, 'Install'), 'sh')
  .split('\n')
  .map((line) => line.split('#')[0].trim())
  .filter((line) => line.split(/\s+/).includes(CHECKOUT_PATH));
if (installLines.length !== 1) fail(`want one install line naming ${CHECKOUT_PATH}: ${installLines}`);
const quickStart = section(text, 'Quick start');
const program = fenced(quickStart, 'js');
const name = quickStart.match(/save this as\s+`([^`]+)`/)?.[1] ?? fail('the quick start names no file');
for (const variable of ['GOVERNANCE_URL', 'GOVERNANCE_TOKEN']) {
  if (!process.env[variable]) fail(`${variable} is not set`);
}

const project = mkdtempSync(join(tmpdir(), 'governance-readme-'));
try {
  // Quiet and quick: no audit or funding requests, which the install does not need.
  const env = { ...process.env, npm_config_audit: 'false', npm_config_fund: 'false', npm_config_update_notifier: 'false' };
  const packed = JSON.parse(run('npm', ['pack', '--json', '--pack-destination', project], HERE, env, 'npm pack'));
  const command = installLines[0].replace(CHECKOUT_PATH, join(project, packed[0].filename));
  run('bash', ['-c', command], project, env, `\`${command}\``);
  writeFileSync(join(project, name), program);
  const output = run('node', [name], project, env, `node ${name}`);
  const expected = fenced(quickStart, 'text');
  if (output.trim().split(/\s+/).join(' ') !== expected.trim().split(/\s+/).join(' ')) {
    fail(`the quick start printed\n${output}not\n${expected}`);
  }
  process.stdout.write(`check-readme: installed with \`${installLines[0]}\` (the packed tarball); the quick start printed:\n${output}`);
} finally {
  rmSync(project, { recursive: true, force: true });
}
