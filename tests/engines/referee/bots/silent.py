"""Reads everything, never answers."""
import sys
import time

for _ in sys.stdin:
    pass
time.sleep(60)
