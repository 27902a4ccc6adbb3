from build_tools.cli.main import run

run()
