#!/usr/bin/env python3
"""Extracts the CreateMessage operation's request contract from a clone of twilio/twilio-oai.

Usage: extract.py <twilio-oai git directory> > create-message.json

Reads spec/json/twilio_api_v2010.json at the clone's HEAD and keeps only what a request must
satisfy: method, path and its parameter, security scheme, content type, the form fields allowed
(type, format, pattern, lengths, enum values with $refs resolved) and which are required.
Descriptions, examples and responses are dropped.
"""
import json
import subprocess
import sys

SPEC = "spec/json/twilio_api_v2010.json"
PATH = "/2010-04-01/Accounts/{AccountSid}/Messages.json"
KEEP = ("type", "format", "pattern", "minLength", "maxLength", "enum", "minimum", "maximum")


def git(repo, *args):
    return subprocess.run(["git", "-C", repo, *args], check=True, capture_output=True, text=True).stdout


def schema(spec, node):
    if "$ref" in node:
        name = node["$ref"].split("/")[-1]
        node = spec["components"]["schemas"][name]
    kept = {key: node[key] for key in KEEP if key in node}
    if "items" in node:
        kept["items"] = schema(spec, node["items"])
    return kept


def main(repo):
    commit = git(repo, "rev-parse", "HEAD").strip()
    date = git(repo, "show", "-s", "--format=%cI", "HEAD").strip()
    spec = json.loads(git(repo, "show", f"HEAD:{SPEC}"))
    operation = spec["paths"][PATH]["post"]
    content_type, body = next(iter(operation["requestBody"]["content"].items()))
    security = [name for requirement in operation["security"] for name in requirement]
    fixture = {
        "source": {
            "repository": "https://github.com/twilio/twilio-oai",
            "commit": commit,
            "committed": date,
            "file": SPEC,
            "openapi": spec["openapi"],
        },
        "operationId": operation["operationId"],
        "method": "POST",
        "servers": [server["url"] for server in spec["paths"][PATH].get("servers", spec.get("servers", []))],
        "path": PATH,
        "pathParameters": {
            parameter["name"]: schema(spec, parameter["schema"])
            for parameter in operation["parameters"]
            if parameter["in"] == "path"
        },
        "security": {name: spec["components"]["securitySchemes"][name] for name in security},
        "contentType": content_type,
        "required": body["schema"].get("required", []),
        "properties": {name: schema(spec, field) for name, field in sorted(body["schema"]["properties"].items())},
        "successStatus": sorted(int(status) for status in operation["responses"] if status.startswith("2")),
    }
    json.dump(fixture, sys.stdout, indent=2, sort_keys=False)
    sys.stdout.write("\n")


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    main(sys.argv[1])
