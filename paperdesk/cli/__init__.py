"""The command line. No subcommand opens the GUI; every verb maps to one service call.

    parser.py    the arguments each verb takes, and the module.function that runs it
    main.py      `main`: parse, open the library, run the verb, turn errors into messages
    opening.py   opening the verb's library (the first import of the store), restoring
    *_commands.py, commands.py   one function per verb: service calls, then output;
                 a verb's module imports only its own services (a command starts fast)
    output.py    how papers, changes and progress are printed

Output for people fits an 80-column terminal; `--json` on read verbs gives a list of
objects for scripts. Errors go to stderr with exit status 1 (2 for a malformed query
or bad usage), never a traceback.
"""

from paperdesk.cli.main import main

__all__ = ["main"]
