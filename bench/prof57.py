"""Generation of the bench card (Buffett acquisition, ipb_p_011_base, metric,sector,temporal,flip, seed 0):
``python bench/prof57.py N`` prints its process CPU, ``python bench/prof57.py N p`` a cProfile (s57speedgen)."""
import cProfile, pstats, sys, time
from pathlib import Path
import ipb.perturb.generation as gen
from ipb.engine.registry import compiled_card
from ipb.perturb import Job, parse_recipes
CARD="buffett_acquisition_checklist"
BASE=Path("frameworks/scenarios")/CARD/"ipb_p_011_base.yaml"
n=int(sys.argv[1])
compiled_card(CARD)
job=Job((CARD,),str(BASE),0,parse_recipes("metric,sector,temporal,flip"))
t=time.process_time()
if len(sys.argv)>2:
    cProfile.run("gen.write_items(Path('/tmp/p57sg.jsonl'),job,n,workers=1)","/tmp/p57sg.prof")
    p=pstats.Stats("/tmp/p57sg.prof"); p.sort_stats("cumulative").print_stats(45)
else:
    gen.write_items(Path('/tmp/p57sg.jsonl'),job,n,workers=1)
print("cpu",time.process_time()-t)
