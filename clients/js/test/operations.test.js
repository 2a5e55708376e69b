// operations.json names, for every operation of the service's API, the member of
// the client that serves it; this proves each name exists and is a method, so
// the file cannot drift from the code. The package's metadata is checked too.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { describe, test } from 'node:test';

import { GovernanceClient } from '../index.js';

const read = (name) => JSON.parse(readFileSync(new URL(`../${name}`, import.meta.url), 'utf8'));
const operations = read('operations.json');
const pkg = read('package.json');

/** The value at a dotted path from the client, with the object that holds it. */
function resolve(client, dotted) {
  let holder = null;
  let value = client;
  for (const part of dotted.split('.')) {
    if (value === null || typeof value !== 'object' || !(part in value)) return { holder, value: undefined };
    holder = value;
    value = value[part];
  }
  return { holder, value };
}

describe('operations.json', () => {
  test('is a flat object of operationId -> member path, 78 operations', () => {
    assert.equal(Object.getPrototypeOf(operations), Object.prototype);
    const entries = Object.entries(operations);
    assert.equal(entries.length, 78);
    for (const [id, member] of entries) {
      assert.match(id, /^[a-z][a-z0-9_]*$/, `operationId ${id}`);
      assert.equal(typeof member, 'string', `${id} names a string`);
      assert.match(member, /^[a-z][A-Za-z0-9]*(\.[a-z][A-Za-z0-9]*)*$/, `${id}: ${member}`);
    }
  });

  const client = new GovernanceClient({ baseURL: 'http://gov.test', token: null, fetch: () => {} });
  for (const [id, member] of Object.entries(operations)) {
    test(`${id} -> client.${member} is a method`, () => {
      const { holder, value } = resolve(client, member);
      assert.equal(typeof value, 'function', `client.${member} does not exist or is not a method`);
      assert.ok(!(member.split('.').at(-1) in Object.prototype), 'a method of the client, not of every object');
      assert.notEqual(holder, null);
    });
  }

  test('no two operations claim the same member', () => {
    const members = Object.values(operations);
    assert.equal(new Set(members).size, members.length);
  });
});

describe('package', () => {
  test('require() loads the ESM build on the Node versions engines allows', () => {
    const required = createRequire(import.meta.url)('../index.js');
    assert.equal(typeof required.GovernanceClient, 'function');
    assert.equal(pkg.engines.node, '^20.19.0 || >=22.12.0');
  });

  test('says where it comes from and ships what it declares', () => {
    assert.equal(pkg.license, 'Apache-2.0');
    assert.deepEqual(pkg.repository, {
      type: 'git',
      url: 'git+https://github.com/governance-service/governance.git',
      directory: 'clients/js',
    });
    for (const file of ['index.js', 'index.d.ts', 'operations.json', 'src/', 'README.md']) {
      assert.ok(pkg.files.includes(file), `files lacks ${file}`);
    }
    assert.equal(pkg.exports['.'].types, './index.d.ts');
    assert.match(pkg.devDependencies.typescript, /^\d+\.\d+\.\d+$/, 'typescript is pinned');
  });
});
