// The page's recomputation of a payment's canonical JSON and challenge (countersign.js), held to the
// vectors the Swift tests hold the server to (Tests/Fixtures/canonical-json.json).
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, test } from 'node:test';
import {
  canonicalJSON, checkChallenge, paymentChallenge,
} from '../../Sources/CountersignServer/Resources/web/countersign.js';

const vectors = JSON.parse(readFileSync(new URL('../Fixtures/canonical-json.json', import.meta.url), 'utf8'));

test('the file holds intents and quotes', () => {
  assert.ok(vectors.paymentIntents.length >= 5);
  assert.ok(vectors.transferQuotes.length >= 3);
});

for (const [kind, list] of [['payment intent', vectors.paymentIntents], ['transfer quote', vectors.transferQuotes]]) {
  describe(kind, () => {
    for (const vector of list) {
      if (vector.exceedsJavaScriptIntegers) {
        test(`${vector.name}: refused`, async () => {
          assert.throws(() => canonicalJSON(vector.signed), TypeError);
          await assert.rejects(checkChallenge(vector.nonce, vector.signed, vector.challenge), TypeError);
        });
        continue;
      }
      test(vector.name, async () => {
        assert.equal(canonicalJSON(vector.signed), vector.canonical);
        assert.equal(await paymentChallenge(vector.nonce, vector.signed), vector.challenge);
        await checkChallenge(vector.nonce, vector.signed, vector.challenge);
      });
    }
  });
}

test('a challenge for anything else than what is shown is refused before signing', async () => {
  const [vector] = vectors.paymentIntents;
  const other = { ...vector.signed, amount: vector.signed.amount + 1 };
  await assert.rejects(checkChallenge(vector.nonce, other, vector.challenge),
    { name: 'CountersignError', code: 'challenge_mismatch_local', status: 0 });
  const [quote] = vectors.transferQuotes;
  const moreFees = { ...quote.signed, fees: [...quote.signed.fees, { name: 'Extra', amount: 1 }] };
  await assert.rejects(checkChallenge(quote.nonce, moreFees, quote.challenge), { code: 'challenge_mismatch_local' });
});

test('key order and members left undefined do not change the canonical form', () => {
  const [vector] = vectors.paymentIntents;
  const reversed = Object.fromEntries(Object.entries(vector.signed).reverse());
  assert.equal(canonicalJSON({ ...reversed, note: undefined }), vector.canonical);
});
