# swap.py IN OUT: swaps the north colours of two interior pieces that are not clues
# (so every colour is shown as often as before) and names the result.
import json, sys
i = json.load(open(sys.argv[1]))
clued = {c["piece"] - 1 for c in i["clues"]}
inner = [k for k, p in enumerate(i["pieces"]) if 0 not in p and k not in clued]
a = inner[0]
b = next(k for k in inner[1:] if i["pieces"][k][0] != i["pieces"][a][0])
i["pieces"][a][0], i["pieces"][b][0] = i["pieces"][b][0], i["pieces"][a][0]
i["name"] = i.get("name", "board") + "-swapped"
json.dump(i, open(sys.argv[2], "w"), indent=1)
print("swapped the north colours of pieces", a + 1, "and", b + 1)
