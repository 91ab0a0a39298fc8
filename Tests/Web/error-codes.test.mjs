// The error codes the web app knows come from one source, the server's `ErrorCode` enum
// (Sources/CountersignAPI/ErrorCode.swift, parsed here): every code the app has words for or compares
// with is one of its raw values, a payment provider's failure code the server passes on, or one the
// library makes itself (LOCAL_CODES). And every `ErrorCode` has words, except those listed in
// FALLS_BACK with the reason: adding a code to the enum is a decision about what a person reads.
import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import { test } from 'node:test';
import { LOCAL_CODES } from '../../Sources/CountersignServer/Resources/web/countersign.js';
import { codesWithWords } from '../../Sources/CountersignServer/Resources/web/error-words.js';

const root = new URL('../../', import.meta.url);
const web = new URL('Sources/CountersignServer/Resources/web/', root);

/** Codes of ErrorCode that get the words for their HTTP status on purpose, with why. */
const FALLS_BACK = {};

/** The raw values of `enum ErrorCode` (a case without one is its name). */
function errorCodes() {
  const swift = readFileSync(new URL('Sources/CountersignAPI/ErrorCode.swift', root), 'utf8');
  return new Set([...swift.matchAll(/^\s*case\s+(\w+)(?:\s*=\s*"([^"]+)")?\s*$/gm)].map((m) => m[2] ?? m[1]));
}

/** @param {URL} dir @param {string} ext @returns {string[]} paths relative to dir */
function files(dir, ext, prefix = '') {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    if (entry.isDirectory()) return files(new URL(`${entry.name}/`, dir), ext, `${prefix}${entry.name}/`);
    return entry.name.endsWith(ext) ? [`${prefix}${entry.name}`] : [];
  });
}

/**
 * A payment's failure codes, which the server passes on from the provider in a payment's or a
 * funding's `error.code` (`ProviderPaymentError(code: "…")`, the Stripe mapping's `stable = "…"`).
 */
function providerFailureCodes() {
  const sources = new URL('Sources/', root);
  const found = new Set();
  for (const file of files(sources, '.swift')) {
    const text = readFileSync(new URL(file, sources), 'utf8');
    for (const m of text.matchAll(/(?:ProviderPaymentError|Failure)\(code: "([a-z_]+)"|stable = "([a-z_]+)"/g)) found.add(m[1] ?? m[2]);
  }
  return found;
}

/** [file, code] of every code the app compares with, makes or lists. */
function codesInTheApp() {
  const patterns = [
    /(?<!typeof [\w.?]*)\bcode\s*[!=]==?\s*'([a-z_0-9]+)'/g, // error.code === 'x' (not typeof x.code === 'string')
    /CountersignError\(\s*\d+,\s*'([a-z_0-9]+)'/g, // new CountersignError(0, 'x', …)
    /\bcode:\s*'([a-z_0-9]+)'/g, // {code: 'x'}
    /\bcode\s*\|\|\s*'([a-z_0-9]+)'/g, // verified.code || 'x'
  ];
  const found = [];
  for (const file of files(web, '.js')) {
    if (file === 'error-words.js') continue;
    const text = readFileSync(new URL(file, web), 'utf8');
    for (const pattern of patterns) for (const m of text.matchAll(pattern)) found.push([file, m[1]]);
    // A list of codes: ['a', 'b'].includes(e.code), or a constant named …CODES / …ERRORS.
    for (const m of text.matchAll(/\[([^\]]*)\]\.includes\([\w.?]*code\)|const \w*(?:CODES|ERRORS) = (?:Object\.freeze\()?\[([^\]]*)\]/g)) {
      for (const c of (m[1] ?? m[2]).matchAll(/'([a-z_0-9]+)'/g)) found.push([file, c[1]]);
    }
    // switch (failure?.code) { case 'x': … }
    for (const m of text.matchAll(/switch \([\w.?]*code\) \{([\s\S]*?)\n {2}\}/g)) {
      for (const c of m[1].matchAll(/case '([a-z_0-9]+)':/g)) found.push([file, c[1]]);
    }
  }
  return found;
}

const codes = errorCodes();
const provider = providerFailureCodes();

test('ErrorCode.swift and the payment failure codes are read', () => {
  assert.ok(codes.size >= 150, `only ${codes.size} codes`);
  assert.ok(codes.has('insufficient_funds') && codes.has('strong_authentication_required'));
  assert.ok(provider.has('payment_failed') && provider.has('payment_canceled'), [...provider].join(', '));
});

test('the codes the library makes itself are not the server\'s', () => {
  assert.deepEqual(LOCAL_CODES.filter((code) => codes.has(code)), []);
});

test('every code error-words.js has words for is an ErrorCode or a payment failure code', () => {
  const words = codesWithWords();
  assert.ok(words.length >= 150);
  assert.deepEqual(words.filter((code) => !codes.has(code) && !provider.has(code)), []);
});

test('every code the app compares with or makes is an ErrorCode, a payment failure code or its own', () => {
  const found = codesInTheApp();
  assert.ok(found.length >= 40, `only ${found.length} found`);
  for (const [file, code] of [['screens/phone-code.js', 'code_expired'], ['market/format.js', 'payment_canceled'],
    ['countersign/stream.js', 'stream_closed'], ['screens/send.js', 'payee_not_found']]) {
    assert.ok(found.some(([f, c]) => f === file && c === code), `${code} not found in ${file}`);
  }
  const unknown = found.filter(([, code]) => !codes.has(code) && !provider.has(code) && !LOCAL_CODES.includes(code));
  assert.deepEqual(unknown.map(([file, code]) => `${file}: ${code}`), []);
});

test('every ErrorCode has words of its own, or is listed as falling back to its status\'s', () => {
  const words = new Set(codesWithWords());
  const without = [...codes].filter((code) => !words.has(code) && !Object.hasOwn(FALLS_BACK, code));
  assert.deepEqual(without, [], 'give them words in error-words.js, or list them in FALLS_BACK with why');
  assert.deepEqual(Object.keys(FALLS_BACK).filter((code) => !codes.has(code) || words.has(code)), []);
});
