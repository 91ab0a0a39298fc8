// @ts-check
/**
 * Receipts: what a finished transfer or top-up was, in words, with a reference to quote, the date
 * and time in the user's zone, both parties and every amount. The result screens show one, and
 * every history row opens one again.
 */
import * as ui from '../ui.js';

const { h } = ui;

/**
 * The airtime networks, in the order the airtime form offers them: the product code a top-up
 * buys, the slug of the supplier that fulfils it, the name as its owner writes it.
 * @type {ReadonlyArray<{productCode: string, slug: string, name: string}>}
 */
export const NETWORKS = Object.freeze([
  { productCode: 'AIRTIME_MTN', slug: 'mtn', name: 'MTN' },
  { productCode: 'AIRTIME_AIRTEL', slug: 'airtel', name: 'Airtel' },
  { productCode: 'AIRTIME_GLO', slug: 'glo', name: 'Glo' },
  { productCode: 'AIRTIME_9MOBILE', slug: '9mobile', name: '9mobile' },
]);

/**
 * The network's name as its owner writes it, from a product code or a supplier slug.
 * @param {string | null | undefined} code
 */
export function networkName(code) {
  if (!code) return 'Airtime';
  const slug = code.toLowerCase();
  return NETWORKS.find((n) => n.productCode === code || n.slug === slug)?.name || code;
}

/**
 * "26 Nov 2026, 08:14 WAT": the moment in the user's own time zone, the zone named.
 * @param {string | number | Date} when
 */
export function receiptTime(when) {
  const d = new Date(when);
  if (Number.isNaN(d.getTime())) return String(when);
  return d.toLocaleString(undefined, {
    day: 'numeric', month: 'short', year: 'numeric', hour: '2-digit', minute: '2-digit', timeZoneName: 'short',
  });
}

/**
 * A receipt card.
 * @param {string} title
 * @param {Array<[string, any] | null | false | undefined>} rows
 * @param {string} [id]
 */
export function receipt(title, rows, id = 'receipt') {
  return h('section', { className: 'card receipt', id, 'aria-label': title },
    h('h2', null, title),
    ui.details(rows, { className: 'details receipt-rows' }));
}

/**
 * The rows of a history entry's receipt, from what the server sent with it.
 * @param {any} tx
 * @param {string} me the signed-in user's name
 * @returns {Array<[string, any] | null>}
 */
export function transactionRows(tx, me) {
  const money = (/** @type {number} */ minor) => ui.money(minor, tx.currency);
  const other = tx.counterpartyName || tx.recipientPhone || 'Unknown';
  /** @type {Array<[string, any]>} */
  const base = [
    ['Reference', h('code', { className: 'receipt-ref' }, tx.reference || tx.transactionId)],
    ['Date and time', receiptTime(tx.timestamp)],
  ];
  /** @type {Array<[string, any] | null>} */
  let rows;
  switch (tx.type) {
    case 'transfer_out':
      rows = [['From', me], ['To', tx.counterpartyName && tx.recipientPhone
        ? h('span', null, `${tx.counterpartyName} `, h('span', { className: 'phone' }, `(${tx.recipientPhone})`))
        : other],
        ['Amount sent', money(tx.amount - (tx.fees || 0))], ['Fees', money(tx.fees || 0)], ['Total paid', money(tx.amount)]];
      break;
    case 'transfer_in':
      rows = [['From', other], ['To', me], ['Amount received', money(tx.amount)]];
      break;
    case 'topup':
      rows = [['Airtime', `${networkName(tx.productCode)} for ${tx.recipientPhone || 'your number'}`],
        ['Amount', money(tx.amount)],
        tx.status === 'failed' ? ['Charged', 'Nothing'] : ['Paid from wallet', money(tx.amount)]];
      break;
    case 'funding':
      rows = [['Credited by', 'Countersign operator'], ['To', me], ['Amount', money(tx.amount)]];
      break;
    case 'reversal_in':
    case 'reversal_out':
      rows = [['Reversed by', 'Countersign operator'], ['Reverses', h('code', null, tx.reference ?? '')],
        [tx.type === 'reversal_in' ? 'Returned to you' : 'Taken back from you', money(tx.amount)]];
      break;
    case 'order_payment':
      rows = [['Paid to', other], ['For', tx.note ?? 'A marketplace order'],
        ['Paid from wallet', money(tx.amount)]];
      break;
    case 'order_refund':
      rows = [['Refunded by', other], ['For', tx.note ?? 'A marketplace order'],
        ['Returned to you', money(tx.amount)]];
      break;
    default:
      rows = [['Amount', money(tx.amount)]];
  }
  // An order's line carries its product's title as its note, shown above as what it was for.
  /** @type {[string, any] | null} */
  const note = tx.note && !tx.type.startsWith('order_') ? ['Note', tx.note] : null;
  return [...base, ...rows, note, ['Status', statusText(tx.status)]];
}

/** @param {string} status */
export function statusText(status) {
  switch (status) {
    case 'completed': return 'Completed';
    case 'pending': return 'In progress';
    case 'failed': return 'Failed: nothing was taken';
    default: return status;
  }
}
