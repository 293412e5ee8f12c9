"""The command line. No subcommand opens the GUI; every verb maps to one service call.

    parser.py    the arguments each verb takes
    commands.py  one function per verb: service calls, then output
    output.py    how papers, changes and progress are printed
    main.py      `main`: parse, open the library, run the verb, turn errors into messages

Output for people fits an 80-column terminal; `--json` on read verbs gives a list of
objects for scripts. Errors go to stderr with exit status 1 (2 for a malformed query
or bad usage), never a traceback.
"""

from paperdesk.cli.main import main

__all__ = ["main"]
