"""A bot that tries to outlive its host: it starts a child that leaves its session (setsid) and a
grandchild by double fork (the daemon idiom), writes all their pids to `<pid>.pids` in the folder
argv[1],
then never answers (its turn lasts until it is ended)."""
import os
import sys
import time


def setsid_child() -> int:
    pid = os.fork()
    if pid == 0:
        os.setsid()
        time.sleep(600)
        os._exit(0)
    return pid


def double_forked_grandchild() -> int:
    r, w = os.pipe()
    pid = os.fork()
    if pid == 0:
        os.setsid()
        grandchild = os.fork()
        if grandchild == 0:
            os.close(r)
            os.write(w, str(os.getpid()).encode())
            os.close(w)
            time.sleep(600)
            os._exit(0)
        os._exit(0)
    os.close(w)
    os.waitpid(pid, 0)
    return int(os.read(r, 32))


pids = [os.getpid(), setsid_child(), double_forked_grandchild()]
path = os.path.join(sys.argv[1], f"{os.getpid()}.pids")
with open(path + ".tmp", "w") as f:
    f.write(" ".join(map(str, pids)))
os.rename(path + ".tmp", path)
time.sleep(600)
