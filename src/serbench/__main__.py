from serbench.cli import app

app(prog_name="serbench")
