"""The engine from a terminal, `tandem-align` or `python -m workers.align`: the grammar in
`main` (light, so that `--help` answers at once) and one module per command, imported when
that command runs."""
