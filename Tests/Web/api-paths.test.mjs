// Every API call the web app spells is an operation of openapi.yaml, the contract the server is
// checked against: a path renamed on one side fails here instead of as a 404 in the browser. The
// paths are spelled only in the client library (countersign/): a screen calls its methods.
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { test } from 'node:test';

const web = new URL('../../Sources/CountersignServer/Resources/web/', import.meta.url);
const spec = readFileSync(new URL('../openapi.yaml', web), 'utf8');

/** `/orders/{orderId}/pay` and `/orders/${segment(id)}/pay` both become `/orders/{}/pay`. */
const shape = (path) => path.replace(/\$\{[^}]*\}|\{[^}]*\}/g, '{}');

/** "METHOD shape" of every operation under `paths:` (two-space path keys, four-space methods). */
function operations(yaml) {
  const found = new Set();
  let inPaths = false;
  let path = null;
  for (const line of yaml.split('\n')) {
    if (/^\S/.test(line)) inPaths = line.startsWith('paths:');
    if (!inPaths) continue;
    const key = /^ {2}(\/\S*):\s*$/.exec(line);
    if (key) path = key[1];
    const method = /^ {4}(get|put|post|delete|patch):\s*$/.exec(line);
    if (method && path) found.add(`${method[1].toUpperCase()} ${shape(path)}`);
  }
  return found;
}

const literal = String.raw`(?<quote>['\x60])(?<path>\/[^'\x60]*)\k<quote>`;

/** [file, "METHOD shape"] of each call a file spells. */
function calls(file, source) {
  const found = [];
  const add = (method, path) => found.push([file, `${method} ${shape(path)}`]);
  for (const m of source.matchAll(new RegExp(String.raw`request\(\s*'([A-Z]+)',\s*` + literal, 'g'))) add(m[1], m.groups.path);
  if (file === 'countersign/market.js') {
    // Its own helpers: this.get(path, query) and this.post(path, body).
    for (const m of source.matchAll(new RegExp(String.raw`\b(get|post)\(\s*` + literal, 'g'))) add(m[1].toUpperCase(), m.groups.path);
  }
  if (file === 'countersign/stream.js') {
    // The transfer's event stream, read with EventSource or fetch.
    for (const m of source.matchAll(new RegExp(String.raw`const path = ` + literal, 'g'))) add('GET', m.groups.path);
  }
  return found;
}

function jsFiles(dir, prefix = '') {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    if (entry.isDirectory()) return jsFiles(new URL(`${entry.name}/`, dir), `${prefix}${entry.name}/`);
    return entry.name.endsWith('.js') ? [`${prefix}${entry.name}`] : [];
  });
}

const specified = operations(spec);
const spelled = jsFiles(web).flatMap((file) => calls(file, readFileSync(new URL(file, web), 'utf8')));

test('openapi.yaml is read: its operations are found', () => {
  assert.ok(specified.size >= 80, `only ${specified.size} operations found`);
  assert.ok(specified.has('POST /orders/{}/pay'));
  assert.ok(specified.has('GET /transfers/{}/events'));
});

test("the app's calls are found in the client, the marketplace's calls and the stream", () => {
  const files = new Set(spelled.map(([file]) => file));
  for (const file of ['countersign/client.js', 'countersign/market.js', 'countersign/stream.js']) {
    assert.ok(files.has(file), `none in ${file}: ${[...files].join(', ')}`);
  }
  assert.ok(spelled.length >= 80, `only ${spelled.length} calls found`);
});

test('no screen spells an API path: only the library (countersign/) does', () => {
  const outside = spelled.filter(([file]) => !file.startsWith('countersign/')).map(([file, call]) => `${file}: ${call}`);
  assert.deepEqual(outside, []);
  // A call whose path is not a literal escapes the search above: no `.request('METHOD', …)` at all.
  const built = jsFiles(web).filter((file) => !file.startsWith('countersign/'))
    .filter((file) => /\.request\(\s*['\x60]/.test(readFileSync(new URL(file, web), 'utf8')));
  assert.deepEqual(built, []);
});

test('every call the app spells is an operation of openapi.yaml', () => {
  const unknown = spelled.filter(([, call]) => !specified.has(call)).map(([file, call]) => `${file}: ${call}`);
  assert.deepEqual(unknown, []);
});
