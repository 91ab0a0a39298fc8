// The airtime networks the web app offers and names (screens/receipt.js), held to the list the
// Swift tests hold AirtimeNetwork to (Tests/Fixtures/airtime-networks.json).
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import { NETWORKS, networkName } from '../../Sources/CountersignServer/Resources/web/screens/receipt.js';

const networks = JSON.parse(readFileSync(new URL('../Fixtures/airtime-networks.json', import.meta.url), 'utf8'));

test("the app's networks are the server's, in order", () => {
  assert.deepEqual(NETWORKS, networks);
});

test('a network is named from its product code or its supplier slug, in any case', () => {
  assert.equal(networkName('AIRTIME_9MOBILE'), '9mobile');
  assert.equal(networkName('airtel'), 'Airtel');
  assert.equal(networkName('GLO'), 'Glo');
});

test('anything else is shown as it is; nothing at all is "Airtime"', () => {
  assert.equal(networkName('AIRTIME_VODAFONE'), 'AIRTIME_VODAFONE');
  assert.equal(networkName(null), 'Airtime');
  assert.equal(networkName(''), 'Airtime');
});
