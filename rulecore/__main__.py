"""``python -m rulecore``: the same command as the ``rulecore`` script."""

from rulecore.cli import main

if __name__ == "__main__":
    main()
