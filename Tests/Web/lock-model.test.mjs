// The soft lock's model (screens/lock-model.js) driven without a DOM: fresh storages per test, the
// unlock code hashed with the real PBKDF2 (Node's WebCrypto), fake passkeys that verify or refuse.
import assert from 'node:assert/strict';
import { beforeEach, describe, test } from 'node:test';
import {
  chooseUnlockCode, clearUnlocked, hasLocalPin, isUnlocked, LockScreen, MAX_PIN_FAILURES, markUnlocked, noteAccountPin,
  rememberCredential, setLocalPin,
} from '../../Sources/CountersignServer/Resources/web/screens/lock-model.js';
import { freshLocalStorage, freshSessionStorage } from './fakes.mjs';

freshSessionStorage();
freshLocalStorage();
// The account PIN noted by a test's sign-in is held in the module: none at the start of each.
beforeEach(() => noteAccountPin(''));

const USER = 'usr_1';
const CODE = '2468';

/** Passkeys on a device with (or without) a platform authenticator; `gesture` answers the prompt. */
function passkeys({ platform = true, gesture = async () => true } = {}) {
  const prompts = [];
  return {
    prompts,
    platformAvailable: async () => platform,
    gesture: (userId, signal) => {
      prompts.push(signal);
      return gesture(userId, signal);
    },
  };
}

/** The lock screen for USER, recording its states and the sign-outs. */
function lockWith(keys = passkeys()) {
  const states = [];
  let signedOut = 0;
  const screen = new LockScreen(USER, {
    passkeys: keys,
    signOut: async () => { signedOut += 1; },
    onChange: (s) => states.push(s),
  });
  return { screen, states, kinds: () => states.map((s) => s.kind), signedOut: () => signedOut };
}

describe('what this browser can unlock with', () => {
  test('nothing set up here: only a way out, no prompt', async () => {
    const keys = passkeys();
    const { screen, kinds } = lockWith(keys);
    await screen.start();
    assert.deepEqual(kinds(), ['none']);
    assert.equal(keys.prompts.length, 0);
  });

  test('a code only: the form, no prompt', async () => {
    await setLocalPin(USER, CODE);
    const keys = passkeys();
    const { screen, states } = lockWith(keys);
    await screen.start();
    assert.deepEqual(states, [{ kind: 'locked', hasPin: true, hasKey: false, note: null }]);
    assert.equal(keys.prompts.length, 0);
  });
});

describe('the passkey', () => {
  test('with an authenticator the prompt opens at once; verified, this tab is unlocked', async () => {
    rememberCredential(USER, 'cred_1');
    const { screen, kinds, states } = lockWith();
    assert.ok(!isUnlocked(USER));
    await screen.start();
    assert.deepEqual(kinds(), ['locked', 'verifying', 'unlocked']);
    assert.equal(states.at(-1).via, 'passkey');
    assert.ok(isUnlocked(USER));
  });

  test('no authenticator on this device: the code, and why', async () => {
    rememberCredential(USER, 'cred_1');
    await setLocalPin(USER, CODE);
    const keys = passkeys({ platform: false });
    const { screen, states } = lockWith(keys);
    await screen.start();
    assert.deepEqual([states.at(-1).kind, states.at(-1).note], ['locked', 'noAuthenticator']);
    assert.equal(keys.prompts.length, 0);
  });

  test('not verified, or the prompt refused: locked again, saying which', async () => {
    rememberCredential(USER, 'cred_1');
    const no = new DOMException('no', 'NotAllowedError');
    let answer = async () => false;
    const { screen, states } = lockWith(passkeys({ gesture: () => answer() }));
    await screen.start();
    assert.deepEqual([states.at(-1).kind, states.at(-1).note], ['locked', 'notVerified']);
    answer = async () => { throw no; };
    await screen.tryPasskey();
    assert.deepEqual([states.at(-1).kind, states.at(-1).note, states.at(-1).error], ['locked', 'failed', no]);
    assert.ok(!isUnlocked(USER));
  });

  test('a second prompt withdraws the first, whose late answer changes nothing', async () => {
    rememberCredential(USER, 'cred_1');
    const keys = passkeys({
      gesture: (_user, signal) => new Promise((resolve, reject) => {
        if (keys.prompts.length === 2) resolve(true);
        signal.addEventListener('abort', () => reject(new DOMException('gone', 'AbortError')));
      }),
    });
    const { screen, kinds } = lockWith(keys);
    const first = screen.start();
    await new Promise((resolve) => setImmediate(resolve));
    await screen.tryPasskey();
    await first;
    assert.ok(keys.prompts[0].aborted);
    assert.deepEqual(kinds(), ['locked', 'verifying', 'verifying', 'unlocked']);
  });

  test('stopped (the user left): the prompt is withdrawn, nothing more is shown', async () => {
    rememberCredential(USER, 'cred_1');
    const keys = passkeys({
      gesture: (_user, signal) => new Promise((_resolve, reject) => {
        signal.addEventListener('abort', () => reject(new DOMException('gone', 'AbortError')));
      }),
    });
    const { screen, kinds } = lockWith(keys);
    const starting = screen.start();
    await new Promise((resolve) => setImmediate(resolve));
    screen.stop();
    await starting;
    assert.ok(keys.prompts[0].aborted);
    assert.deepEqual(kinds(), ['locked', 'verifying']);
  });
});

describe('the unlock code', () => {
  test('not 4 to 6 digits: refused on the field, nothing counted', async () => {
    await setLocalPin(USER, CODE);
    const { screen } = lockWith();
    for (const typed of ['', '123', '1234567', '12a4']) {
      await assert.rejects(screen.unlockWithCode(typed), { field: 'pin' }, typed);
    }
    await assert.rejects(screen.unlockWithCode('1111'), { left: MAX_PIN_FAILURES - 1 });
  });

  test('the right code unlocks and forgets the wrong ones before it', async () => {
    await setLocalPin(USER, CODE);
    const { screen, kinds } = lockWith();
    await assert.rejects(screen.unlockWithCode('1111'), { left: 4 });
    await screen.unlockWithCode(CODE);
    assert.deepEqual(kinds(), ['unlocked']);
    assert.ok(isUnlocked(USER));
    clearUnlocked();
    await assert.rejects(lockWith().screen.unlockWithCode('1111'), { left: 4 }, 'the count started again');
  });

  test('wrong codes count down across screens; the last one signs out', async () => {
    await setLocalPin(USER, CODE);
    for (let left = MAX_PIN_FAILURES - 1; left >= 1; left--) {
      await assert.rejects(lockWith().screen.unlockWithCode('1111'), (e) => e.left === left && !e.field
        && e.message.includes(`${left} ${left === 1 ? 'try' : 'tries'} left`));
    }
    const last = lockWith();
    await last.screen.unlockWithCode('1111');
    assert.deepEqual([last.kinds(), last.signedOut()], [['signedOut'], 1]);
    assert.ok(!isUnlocked(USER));
  });

  test('sign out: the session ends', async () => {
    const { screen, kinds, signedOut } = lockWith();
    await screen.signOut();
    assert.deepEqual([kinds(), signedOut()], [['signedOut'], 1]);
  });
});

describe('choosing the unlock code', () => {
  test('stored hashed, this tab unlocked', async () => {
    await chooseUnlockCode(USER, CODE, CODE);
    assert.ok(hasLocalPin(USER) && isUnlocked(USER));
    assert.ok(!localStorage.getItem(`countersign.localPin.${USER}`).includes(CODE));
    await assert.rejects(lockWith().screen.unlockWithCode('1357'), { left: 4 });
  });

  test('refusals name the field and store nothing', async () => {
    noteAccountPin('4827');
    await assert.rejects(chooseUnlockCode(USER, '12', '12'), { field: 'pin', reason: 'format' });
    await assert.rejects(chooseUnlockCode(USER, '4827', '4827'), { field: 'pin', reason: 'accountPin' });
    await assert.rejects(chooseUnlockCode(USER, CODE, '1357'), { field: 'again', reason: 'differ' });
    assert.ok(!hasLocalPin(USER) && !isUnlocked(USER));
  });

  test('the account PIN is forgotten once the code is set, and on sign-out', async () => {
    noteAccountPin('4827');
    await chooseUnlockCode(USER, CODE, CODE);
    await chooseUnlockCode(USER, '4827', '4827');
    noteAccountPin('4827');
    clearUnlocked();
    await chooseUnlockCode(USER, '4827', '4827');
    markUnlocked(USER);
    assert.ok(isUnlocked(USER));
  });
});
