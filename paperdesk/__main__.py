"""`python -m paperdesk`: the same as the `paperdesk` command."""

import sys

from paperdesk.cli import main

sys.exit(main())
