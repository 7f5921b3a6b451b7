"""Reads its first turn, complains on stderr and dies."""
import sys

sys.stdin.readline()
sys.stderr.write("Traceback: something went wrong\n")
sys.exit(1)
