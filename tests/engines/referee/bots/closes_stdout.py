"""Closes its output and keeps running."""
import os
import time

os.close(1)
time.sleep(60)
