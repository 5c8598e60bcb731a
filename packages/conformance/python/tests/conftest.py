import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
for directory in (HERE.parent / "src", HERE.parents[1] / "test" / "fixtures" / "python-reference"):
    if str(directory) not in sys.path:
        sys.path.insert(0, str(directory))
