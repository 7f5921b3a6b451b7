"""Answers every turn with something no referee accepts."""
import sys

sys.stdin.readline()
print("hello world!", flush=True)
sys.stdin.read()
