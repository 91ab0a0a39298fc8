#!/usr/bin/env python3
"""Regenerates Fuzz/Corpus/<target>/ from the WebAuthn vectors in Tests/Fixtures/webauthn.

Each seed is one field of a vector (or, for the two-part targets, a 2-byte big-endian length, the
first part, then the second), so the fuzzers start from inputs that parse and verify.
Usage: Fuzz/seed-corpus.py   (from anywhere; overwrites the seeds it writes, keeps other files)
"""
import base64, glob, json, os

root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
corpus = os.path.join(root, "Fuzz", "Corpus")


def b64(text):
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


def item_end(data, i):
    """Offset just past the definite-length CBOR item at i."""
    initial = data[i]; i += 1
    major, info = initial >> 5, initial & 31
    if info < 24:
        arg = info
    else:
        n = 1 << (info - 24); arg = int.from_bytes(data[i:i + n], "big"); i += n
    if major in (2, 3):
        return i + arg
    if major == 4:
        for _ in range(arg): i = item_end(data, i)
    elif major == 5:
        for _ in range(2 * arg): i = item_end(data, i)
    elif major == 6:
        i = item_end(data, i)
    return i


def auth_data(attestation_object):
    """authData from an attestation object (a map with text keys)."""
    i, count = 1, attestation_object[0] & 31
    for _ in range(count):
        key_end = item_end(attestation_object, i)
        key = attestation_object[i + 1:key_end]
        value_end = item_end(attestation_object, key_end)
        if key == b"authData":
            head = attestation_object[key_end]
            skip = 1 + ({24: 1, 25: 2, 26: 4}.get(head & 31, 0))
            return attestation_object[key_end + skip:value_end]
        i = value_end
    raise ValueError("no authData")


def cose_key(authenticator_data):
    id_length = int.from_bytes(authenticator_data[53:55], "big")
    start = 55 + id_length
    return authenticator_data[start:item_end(authenticator_data, start)]


def write(target, name, data):
    folder = os.path.join(corpus, target)
    os.makedirs(folder, exist_ok=True)
    with open(os.path.join(folder, name), "wb") as f:
        f.write(data)


def prefixed(first, second):
    return len(first).to_bytes(2, "big") + first + second


for path in sorted(glob.glob(os.path.join(root, "Tests/Fixtures/webauthn/**/*.json"), recursive=True)):
    vector = json.load(open(path))
    name = os.path.basename(path)[:-5]
    registration, authentication = vector.get("registration"), vector.get("authentication")
    if registration:
        response = registration["response"]["response"]
        client, obj = b64(response["clientDataJSON"]), b64(response["attestationObject"])
        data = auth_data(obj)
        write("cbor", name + "-attestation-object", obj)
        write("authenticator-data", name + "-registration", data)
        write("client-data", name + "-create", client)
        write("registration", name, prefixed(client, obj))
        write("cbor", name + "-cose-key", cose_key(data))
        write("json-requests", name + "-registration", json.dumps(registration["response"]).encode())
    if authentication:
        response = authentication["response"]["response"]
        key, signature = b64(authentication["credentialPublicKey"]), b64(response["signature"])
        write("authenticator-data", name + "-assertion", b64(response["authenticatorData"]))
        write("client-data", name + "-get", b64(response["clientDataJSON"]))
        write("cose-key", name, prefixed(key, signature))
        if signature[:1] == b"\x30":
            write("der-signature", name, signature)
        write("json-requests", name + "-assertion", json.dumps(authentication["response"]).encode())

for name, body in {
    "signup": {"phone": "08012345678", "name": "Ada", "pin": "1234"},
    "login": {"phone": "08012345678", "pin": "1234"},
    "topup": {"amount": 500, "productCode": "AIRTIME_MTN", "recipientPhone": "08087654321", "pin": "1234", "useCashback": True},
    "auth-options": {"amount": 500, "productCode": "AIRTIME_MTN", "recipientPhone": "08087654321", "supplierSlug": "mtn"},
    "transfer": {"payeePhone": "08087654321", "amount": 10000, "currency": "NGN", "note": "rent"},
}.items():
    write("json-requests", name, json.dumps(body).encode())
