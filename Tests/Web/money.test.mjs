// The one money format (ui.money), the parser of typed amounts (ui.parseMoney) and the
// marketplace's euro fields (market/format.js).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { money, parseMoney } from '../../Sources/CountersignServer/Resources/web/ui.js';
import { eurosText, parseEuros, payText } from '../../Sources/CountersignServer/Resources/web/market/format.js';

test('naira: symbol, grouping, two decimals', () => {
  assert.equal(money(500000, 'NGN'), '₦5,000.00');
  assert.equal(money(1, 'NGN'), '₦0.01');
  assert.equal(money(123456789, 'NGN'), '₦1,234,567.89');
});

test('naira is the default currency', () => {
  assert.equal(money(500), '₦5.00');
});

test('euro', () => {
  assert.equal(money(1250, 'EUR'), '€12.50');
  assert.equal(money(100, 'EUR'), '€1.00');
});

test('zero', () => {
  assert.equal(money(0, 'NGN'), '₦0.00');
  assert.equal(money(0, 'EUR'), '€0.00');
});

test('negatives put the sign before the symbol', () => {
  assert.equal(money(-300, 'NGN'), '-₦3.00');
  assert.equal(money(-1, 'EUR'), '-€0.01');
});

test('large amounts, up to the largest JavaScript holds exactly', () => {
  assert.equal(money(123456789012, 'EUR'), '€1,234,567,890.12');
  assert.equal(money(900719925474099, 'NGN'), '₦9,007,199,254,740.99');
});

test("a currency's own decimals", () => {
  assert.equal(money(5, 'JPY'), '¥5');
});

test('typed amounts to minor units', () => {
  assert.equal(parseMoney('1,500.50'), 150050);
  assert.equal(parseMoney(' ₦2,000 '), 200000);
  assert.equal(parseMoney('€12.5'), 1250);
  assert.equal(parseMoney('0'), 0);
  assert.equal(parseMoney('1.234'), null);
  assert.equal(parseMoney('-5'), null);
  assert.equal(parseMoney('five'), null);
});

test('euro fields: text to cents and back', () => {
  assert.equal(parseEuros('12'), 1200);
  assert.equal(parseEuros('12.5'), 1250);
  assert.equal(parseEuros('12,50'), 1250);
  assert.equal(parseEuros('0'), null);
  assert.equal(parseEuros('12.505'), null);
  assert.equal(parseEuros(''), null);
  assert.equal(eurosText(1250), '12.50');
});

test("the pay button's words", () => {
  const bid = { amount: 1000, currency: 'EUR' };
  assert.equal(payText(bid, null), 'Go to payment');
  assert.equal(payText(bid, { status: 'NEW', totals: { total: 1295, currency: 'EUR' } }), 'Pay €12.95');
  assert.equal(payText(bid, { status: 'PAYMENT_PENDING', totals: { total: 1295, currency: 'EUR' } }), 'Continue paying €12.95');
});
