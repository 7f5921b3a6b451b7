"""Answers a legal-looking move, but only after SECONDS seconds (argv[1])."""
import sys
import time

sys.stdin.readline()
time.sleep(float(sys.argv[1]))
print(sys.argv[2], flush=True)
sys.stdin.read()
