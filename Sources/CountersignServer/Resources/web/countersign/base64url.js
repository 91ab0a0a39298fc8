// @ts-check
/** base64url (RFC 4648 §5, no padding): how WebAuthn's binary members and the challenges travel. @module */


/**
 * Encodes bytes as base64url without padding.
 * @param {ArrayBuffer | ArrayBufferView} data
 * @returns {string}
 */
export function base64urlEncode(data) {
  const bytes = data instanceof ArrayBuffer
    ? new Uint8Array(data)
    : new Uint8Array(data.buffer, data.byteOffset, data.byteLength);
  let binary = '';
  for (let i = 0; i < bytes.length; i += 0x8000) {
    binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  }
  return btoa(binary).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

/**
 * Decodes base64url (padding tolerated) to bytes.
 * @param {string} text
 * @returns {Uint8Array}
 */
export function base64urlDecode(text) {
  if (!/^[A-Za-z0-9_-]*={0,2}$/.test(text)) throw new TypeError('not base64url');
  const base64 = text.replace(/=+$/, '').replace(/-/g, '+').replace(/_/g, '/');
  const binary = atob(base64 + '==='.slice((base64.length + 3) % 4));
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return bytes;
}
