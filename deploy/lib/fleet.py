"""The fleet page, rewritten by each booth after a deploy (deploy/lib/fleet.sh).

    python3 fleet.py REMOTE:FOLDER ENTRY.json

Uploads ENTRY to REMOTE:FOLDER/booths/NAME.json, reads every booth's file back, and writes
fleet.json (the list) and index.html (the same as a table) beside them. Two booths writing at the
same moment each write a whole page from the files they saw; the next report completes it.
"""

import html
import json
import os
import subprocess
import sys
import tempfile

FIELDS = ("booth", "version", "release_date", "last_outcome", "last_deploy_at", "event")
HEADERS = ("Booth", "Version", "Release date", "Last deploy", "When", "Event")


def rclone(*args):
    subprocess.run(["rclone", "-q", *args], check=True, stdin=subprocess.DEVNULL, timeout=60)


def main():
    remote, entry = sys.argv[1], sys.argv[2]
    name = os.path.basename(entry)
    rclone("copyto", entry, f"{remote}/booths/{name}")
    with tempfile.TemporaryDirectory() as tmp:
        rclone("copy", "--max-size", "64k", "--include", "*.json", f"{remote}/booths", tmp)
        booths = []
        for f in sorted(os.listdir(tmp)):
            try:
                with open(os.path.join(tmp, f), encoding="utf-8") as fh:
                    data = json.load(fh)
                booths.append({k: str(data.get(k, "-")) for k in FIELDS})
            except (OSError, ValueError):
                continue
        with open(os.path.join(tmp, "fleet.json"), "w", encoding="utf-8") as fh:
            json.dump({"booths": booths}, fh, indent=1)
        rows = "".join(
            "<tr>" + "".join(f"<td>{html.escape(b[k])}</td>" for k in FIELDS) + "</tr>\n" for b in booths
        )
        page = (
            "<!doctype html><html lang=\"en\"><meta charset=\"utf-8\">"
            "<meta name=\"viewport\" content=\"width=device-width\"><title>Boothdeck fleet</title>"
            "<style>body{font:16px system-ui;margin:2em}td,th{padding:.3em .8em;text-align:left}"
            "tr:nth-child(even){background:#f2f2f2}</style><h1>Boothdeck fleet</h1>"
            "<table><tr>" + "".join(f"<th>{h}</th>" for h in HEADERS) + "</tr>\n" + rows + "</table>"
            "<p><a href=\"fleet.json\">fleet.json</a></p></html>\n"
        )
        with open(os.path.join(tmp, "index.html"), "w", encoding="utf-8") as fh:
            fh.write(page)
        rclone("copyto", os.path.join(tmp, "fleet.json"), f"{remote}/fleet.json")
        rclone("copyto", os.path.join(tmp, "index.html"), f"{remote}/index.html")


if __name__ == "__main__":
    main()
