from build_tools.cli import run

run()
