// What the unit tests share: a fresh sessionStorage per test, and a strict fake whose every method
// call is recorded and must be one the test scripted.
import { beforeEach } from 'node:test';

/** Gives every test of the file a fresh, empty sessionStorage (the models keep state there). */
export function freshSessionStorage() {
  beforeEach(() => {
    const items = new Map();
    globalThis.sessionStorage = {
      getItem: (key) => (items.has(key) ? items.get(key) : null),
      setItem: (key, value) => items.set(key, String(value)),
      removeItem: (key) => items.delete(key),
    };
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
