"""What each seat may know: ``knowledge`` (which hidden cards a seat can tell apart), ``held`` (which
variables of the rules hold cards), ``sealed`` (the table each seat sees while sealed parts run) and
``resample`` (a world a seat cannot tell from the real one)."""
