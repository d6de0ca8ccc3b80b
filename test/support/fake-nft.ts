/**
 * nft as far as Boothdeck's table goes: records every call and every file it is given (.nft-input),
 * and keeps the ruleset in .nft-ruleset.json with nft's own rules for a file: applied all or
 * nothing, `table X` creates an empty table if absent, `delete table X` fails on a missing one, and
 * `table X { ... }` adds its lines to what X already holds (which is why a file must delete first).
 */
export const FAKE_NFT = `import json, os, sys
board, args = os.environ["FAKE_BOARD"], sys.argv[1:]
with open(os.environ["FAKE_LOG"], "a") as log:
    log.write("nft " + " ".join(args) + "\\n")
path = os.path.join(board, ".nft-ruleset.json")
tables = json.load(open(path)) if os.path.exists(path) else {}
def fail(why):
    print("Error: " + why, file=sys.stderr)
    sys.exit(1)
def show(name):
    return "table " + name + " {\\n" + "".join("\\t" + l + "\\n" for l in tables[name]) + "}\\n"
if args[:1] == ["-f"]:
    text = open(args[1]).read()
    with open(os.path.join(board, ".nft-input"), "a") as out:
        out.write(text)
    lines = [l.split("#")[0].strip() for l in text.splitlines()]
    i = 0
    while i < len(lines):
        words = lines[i].split()
        i += 1
        if not words:
            continue
        if words[0] == "table" and words[-1] == "{":
            name, depth = " ".join(words[1:3]), 1
            body = tables.setdefault(name, [])
            while depth:
                line = lines[i]
                i += 1
                depth += line.count("{") - line.count("}")
                if depth and line and line != "}":
                    body.append(line)
        elif words[0] == "table":
            tables.setdefault(" ".join(words[1:3]), [])
        elif words[:2] == ["delete", "table"]:
            if tables.pop(" ".join(words[2:4]), None) is None:
                fail("Could not process rule: No such file or directory")
        else:
            fail("syntax error")
elif args[:2] == ["list", "ruleset"]:
    sys.stdout.write("".join(show(n) for n in tables))
elif args[:2] in (["list", "table"], ["delete", "table"]):
    name = " ".join(args[2:4])
    if name not in tables:
        fail("Could not process rule: No such file or directory")
    if args[0] == "list":
        sys.stdout.write(show(name))
    else:
        del tables[name]
else:
    fail("unknown command")
json.dump(tables, open(path, "w"))
`;
