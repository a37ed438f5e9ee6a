from .apps.entry import run

run()
