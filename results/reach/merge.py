#!/usr/bin/env python3
"""Merge new runs into results/reach/runs.jsonl: every old line with the same
(arm, instance, budget) as a new one moves to superseded.jsonl unchanged.

Usage, from the project's root: python3 results/reach/merge.py NEW.jsonl...
(`bench reach` skips a job its runs file already holds, so a rerun goes to a
new file and is merged here.)"""
import json, sys
runs_path, sup_path = 'results/reach/runs.jsonl', 'results/reach/superseded.jsonl'
new = [l for f in sys.argv[1:] for l in open(f) if l.strip()]
key = lambda r: (r['arm'], r['instance'], r['budget'])
new_keys = {key(json.loads(l)) for l in new}
old = [l for l in open(runs_path) if l.strip()]
keep = [l for l in old if key(json.loads(l)) not in new_keys]
moved = [l for l in old if key(json.loads(l)) in new_keys]
with open(sup_path, 'a') as f:
    f.writelines(moved)
with open(runs_path, 'w') as f:
    f.writelines(keep + new)
print(f'{len(new)} new, {len(moved)} moved to superseded, {len(keep)} kept')
