"""The parts of build.py (the page's build, its dist folder and its server), one concern each."""
