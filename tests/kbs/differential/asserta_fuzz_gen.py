"""One random program for the engine against SWI-Prolog (vendor/scryer-prolog/CHARON.md,
item 30): a dynamic q/2 with clauses loaded from the file, then asserta/1, assertz/1 and
retract/1 with keys of every kind, then calls by each key and clause/2.

    python3 asserta_fuzz_gen.py SEED > p.pl
    scryer-prolog -g "t, halt" p.pl     # the engine's binary (charon-scryer-prolog)
    swipl -g "t, halt" p.pl

The two outputs must be equal once variable names are blanked
(sed 's/_[0-9A-Z]*/_/g'). The goal avoids ignore/1 and forall/2, which the engine's
binary does not load for -g goals.
"""
import random, sys
seed=int(sys.argv[1]); r=random.Random(seed)
loaded=r.choice(["q(f(X), X).", "q(f(x), 1).\nq(g(y), 2).", "q(a, 0).\nq(f(z), 3).", "q(X, 9) :- X = f(w).", "q([h], 4)."])
def arg():
    return r.choice(["a","b","f(x)","f(y)","g(y)","[h]","_", "1"])
ops=[]
for i in range(r.randint(2,8)):
    k=r.random()
    if k<0.4: ops.append(f"asserta(q({arg()}, v{i}))")
    elif k<0.8: ops.append(f"assertz(q({arg()}, v{i}))")
    else: ops.append(f"( retract(q({arg()}, _)) -> true ; true )")
queries=["findall(K-V, q(K, V), L0)", "findall(V, q(a, V), L1)", "findall(V, q(f(x), V), L2)", "findall(V, q(b, V), L3)", "findall(V, q([h], V), L4)", "findall(V, q(g(y), V), L5)", "findall(K-B, clause(q(K, _), B), L6)"]
print(":- dynamic(q/2).\n"+loaded)
print("t :- "+", ".join(ops+queries)+", write([L0,L1,L2,L3,L4,L5,L6]), nl.")
