"""The cliff in a dozen lines: planted 12x12 boards with 5 frame colours and 17 or 26
interior colours, solved by the portfolio, every board verified, as a table.

    python python/examples/cliff.py [SECONDS] [SEEDS]
"""

import sys

import edgematch

seconds = float(sys.argv[1]) if len(sys.argv) > 1 else 60.0
seeds = range(1, 1 + (int(sys.argv[2]) if len(sys.argv) > 2 else 3))

print(f"| colours | seed | status | score | seconds |\n|---|---|---|---|---|")
for interior in (17, 26):
    for seed in seeds:
        instance = edgematch.generate(12, frame_colours=5, interior_colours=interior, seed=seed)
        result = edgematch.solve(instance, time_limit=seconds, seed=seed)
        assert result.board is None or edgematch.verify(instance, result.board).score == result.score
        print(f"| 5+{interior} | {seed} | {result.status} | {result.score}/{result.max_score} | {result.seconds:.1f} |")
