"""A Hub engine that answers ``hub`` with ``param`` lines of new names, without end (the issue: a
MemoryError at 3.99 GB within the start timeout). With ``--init`` it floods after ``init`` instead."""

import sys

flood_after_init = "--init" in sys.argv
out = sys.stdout
for line in sys.stdin:
    if line.strip() == "hub":
        out.write("id name=flood version=0\n")
        if flood_after_init:
            out.write("wait\n")
            out.flush()
            continue
    elif line.strip() != "init":
        continue
    number = 0
    while True:
        number += 1
        out.write(f"param name=p{number} value={'v' * 4000} type=string\n")
