// What the unit tests share: fresh storages per test, and a strict fake whose every method
// call is recorded and must be one the test scripted.
import { beforeEach } from 'node:test';

/** An empty Storage (the three methods the app uses), as a new tab has. */
function emptyStorage() {
  const items = new Map();
  return {
    getItem: (key) => (items.has(key) ? items.get(key) : null),
    setItem: (key, value) => items.set(key, String(value)),
    removeItem: (key) => items.delete(key),
  };
}

/** Gives every test of the file a fresh, empty sessionStorage (the models keep state there). */
export function freshSessionStorage() {
  beforeEach(() => {
    globalThis.sessionStorage = emptyStorage();
  });
}

/** Gives every test of the file a fresh, empty localStorage (the soft lock keeps the device's secrets there). */
export function freshLocalStorage() {
  beforeEach(() => {
    globalThis.localStorage = emptyStorage();
  });
}

/**
 * An object whose methods are `answers` (async); any other method fails loudly when called. Every
 * call is in `calls` as [name, ...args]; `names()` lists the methods called.
 */
export function strictFake(label, answers) {
  const calls = [];
  const fake = new Proxy({}, {
    get: (_, name) => async (...args) => {
      calls.push([name, ...args]);
      if (!(name in answers)) throw new Error(`unexpected call: ${label}.${String(name)}`);
      return answers[name](...args);
    },
  });
  return { fake, calls, names: () => calls.map(([name]) => name) };
}
